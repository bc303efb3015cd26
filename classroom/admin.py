from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from classroom import throttle
from classroom.forms import ThrottledAdminLoginForm
from classroom.models import (
    Classroom,
    DeviceBinding,
    Invitation,
    LtiDeployment,
    LtiPlatform,
    School,
    Session,
    Student,
    Table,
    Team,
    User,
)

# The admin's login counts wrong passwords against the same budgets as the teachers' login.
admin.site.login_form = ThrottledAdminLoginForm


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    actions = ["unlock_login"]
    ordering = ["email"]
    list_display = ["email", "display_name", "school", "role", "is_active", "is_staff"]
    list_filter = ["role", "school", "is_active", "is_staff"]
    search_fields = ["email", "display_name"]
    fieldsets = [
        (None, {"fields": ["email", "password"]}),
        (_("Profile"), {"fields": ["display_name", "school", "role", "language"]}),
        (_("Permissions"), {"fields": ["is_active", "is_staff", "is_superuser", "groups"]}),
        (_("Dates"), {"fields": ["last_login", "date_joined"]}),
    ]
    add_fieldsets = [
        (
            None,
            {"classes": ["wide"], "fields": ["email", "password1", "password2", "school", "role"]},
        )
    ]

    @admin.action(description=_("Unlock login (forget wrong passwords)"))
    def unlock_login(self, request, queryset):
        emails = list(queryset.values_list("email", flat=True))
        unlocked = [throttle.login_unlock(email=email) for email in emails]
        if all(unlocked):
            count = len(emails)
            message = ngettext("Unlocked %(count)s login.", "Unlocked %(count)s logins.", count)
            self.message_user(request, message % {"count": count}, messages.SUCCESS)
        else:
            self.message_user(request, _("The cache is unreachable: try again."), messages.ERROR)


@admin.register(School)
class SchoolAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]


class StudentInline(admin.TabularInline):
    model = Student
    extra = 0


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ["name", "school", "teacher", "grade", "school_year", "archived_at"]
    list_filter = ["school"]
    inlines = [StudentInline]


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "classroom", "game", "variant", "status", "room_code"]
    list_filter = ["game", "status"]


admin.site.register(Invitation)
admin.site.register(Table)
admin.site.register(Team)
admin.site.register(DeviceBinding)


# --- LTI: the site operator registers an LMS for any school here; a school's administrator uses
# the LMS pages (/lti/platforms/). django-lti's own models are not used (classroom/models/lti.py).


class LtiDeploymentInline(admin.TabularInline):
    model = LtiDeployment
    extra = 1
    fields = ["deployment_id", "created_at"]
    readonly_fields = ["created_at"]


@admin.register(LtiPlatform)
class LtiPlatformAdmin(admin.ModelAdmin):
    list_display = ["name", "school", "issuer", "client_id", "is_active"]
    list_filter = ["is_active", "school"]
    search_fields = ["name", "issuer", "client_id"]
    inlines = [LtiDeploymentInline]
    readonly_fields = ["created_by", "created_at", "updated_at"]
