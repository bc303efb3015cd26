"""The Django admin for site operators. Table games are read-only here: every change to a game
goes through games.services (the move log is append-only, the state a cache of it)."""

from django.contrib import admin

from games.models import Move, TableGame


class MoveInline(admin.TabularInline):
    model = Move
    fields = (
        "seq",
        "seat",
        "action",
        "by_device",
        "by_teacher",
        "by_robot",
        "created_at",
        "undone_at",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("seq",)

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(TableGame)
class TableGameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "session", "kind", "mode", "status", "version", "last_move_at")
    list_filter = ("kind", "mode", "status")
    search_fields = ("session__title", "session__classroom__name")
    readonly_fields = [field.name for field in TableGame._meta.fields]
    inlines = [MoveInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "by_robot", "created_at", "undone_at")
    list_filter = ("by_robot",)
    readonly_fields = [field.name for field in Move._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
