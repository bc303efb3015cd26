"""Administrators: the school page (read-only), inviting, (de)activating and unlocking teachers;
and the invitation page where an invited teacher creates an account."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from classroom import access, links, selectors, services, throttle
from classroom.forms import InvitationAcceptForm, InviteForm
from classroom.models import Invitation, Role


@login_required
def school(request: HttpRequest) -> HttpResponse:
    school = access.require_school_admin(request)
    context = {"school": school, **selectors.school_overview(school), "invite_form": InviteForm()}
    context["locked_out"] = {
        person.pk
        for person in context["teachers"]
        if person.role == Role.TEACHER and throttle.login_locked(person.email)
    }
    return render(request, "classroom/school.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def teacher_invite(request: HttpRequest) -> HttpResponse:
    school = access.require_school_admin(request)
    form = InviteForm(request.POST or None)
    sent = None
    if request.method == "POST" and form.is_valid():
        try:
            sent = services.invitation_create(
                school=school,
                email=form.cleaned_data["email"],
                by=request.user,
                base_url=links.site_url(request),
            )
        except services.ServiceError as exc:
            form.add_error("email", str(exc))
        else:
            form = InviteForm()
    status = 400 if form.errors else 200
    context = {"school": school, "form": form, "sent": sent}
    return render(request, "classroom/teacher_invite.html", context, status=status)


@login_required
@require_POST
def teacher_set_active(request: HttpRequest, pk: int) -> HttpResponse:
    teacher = access.get_teacher_for_admin(request, pk)
    active = request.POST.get("active") == "1"
    try:
        services.teacher_set_active(teacher=teacher, active=active, by=request.user)
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    else:
        message = (
            gettext("%(teacher)s can log in again.")
            if active
            else gettext("%(teacher)s is deactivated and can no longer log in.")
        )
        messages.success(request, message % {"teacher": teacher})
    return redirect("classroom:school")


@login_required
@require_POST
def teacher_unlock_login(request: HttpRequest, pk: int) -> HttpResponse:
    """Lets a teacher locked out by wrong passwords log in again before the window ends."""
    teacher = access.get_teacher_for_admin(request, pk)
    if throttle.login_unlock(email=teacher.email):
        messages.success(
            request, gettext("%(teacher)s can log in again now.") % {"teacher": teacher}
        )
    else:
        messages.error(
            request, gettext("The login could not be unlocked just now. Try again in a minute.")
        )
    return redirect("classroom:school")


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    # Public by design: the unguessable token in the link is the permission.
    invitation = Invitation.objects.select_related("school").filter(token=token).first()
    if invitation is None or not invitation.is_usable:
        return render(request, "registration/invitation_invalid.html", status=404)
    form = InvitationAcceptForm(request.POST or None, email=invitation.email)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.invitation_accept(token=token, **form.cleaned_data)
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            login(request, user)  # the one backend: AUTHENTICATION_BACKENDS
            messages.success(
                request, gettext("Welcome to %(school)s!") % {"school": invitation.school.name}
            )
            return redirect("classroom:dashboard")
    status = 400 if form.errors else 200
    context = {"form": form, "invitation": invitation}
    return render(request, "registration/invitation_accept.html", context, status=status)
