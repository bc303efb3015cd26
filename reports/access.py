"""Who may read which report and export, in one place (classroom.access does the checking of
classes, sessions and students). Teachers: their own classes. Administrators: their school. Anyone
else gets 404 (the thing is not theirs to know about); a teacher asking for the school overview
gets 403, as on the school page. Devices have no account: the adult pages send them to log in."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest

from classroom import access
from classroom.models import Classroom, School, Session, Student, User
from reports.models import Export, ExportKind


def get_class(request: HttpRequest, pk: int) -> Classroom:
    return access.get_class_for_viewer(request, pk)


def get_session(request: HttpRequest, pk: int) -> Session:
    return access.get_session_for_viewer(request, pk)


def get_student(request: HttpRequest, pk: int) -> Student:
    return access.get_student_for_viewer(request, pk)


def may_spotlight(user: User, classroom: Classroom) -> bool:
    """The insights pages offer "show on the projector" to the class's own teacher only: an
    administrator reads the school's insights and never acts in a lesson."""
    return access.is_class_teacher(user, classroom)


def get_class_for_standards(request: HttpRequest, pk: int) -> Classroom:
    """The codes of a class's rubric criteria: read by whoever reads the class's reports."""
    return access.get_class_for_viewer(request, pk)


def get_class_for_standards_editor(request: HttpRequest, pk: int) -> Classroom:
    """...and changed by the class's own teacher only (an administrator reads, 403)."""
    return access.get_class_for_teacher(request, pk)


def may_edit_class_standards(user: User, classroom: Classroom) -> bool:
    return access.is_class_teacher(user, classroom)


def get_school(request: HttpRequest) -> School:
    """The school overview and the whole-school export: administrators only."""
    return access.require_school_admin(request)


def exports_visible_to(user: User) -> QuerySet[Export]:
    """Top-level exports of the classes the user may read, and for an administrator the
    school's whole-school exports. Parts of a school ZIP are never shown on their own."""
    if not user.is_authenticated or user.school_id is None:
        return Export.objects.none()
    visible = Q(classroom__in=access.classes_visible_to(user))
    if user.is_school_admin:
        visible |= Q(kind=ExportKind.SCHOOL_ZIP, school_id=user.school_id)
    return Export.objects.filter(visible, parent__isnull=True)


def get_exports_list(request: HttpRequest) -> tuple[QuerySet[Export], Classroom | None]:
    """The past exports a person may list: of one class with ?class=<id> (anyone who may read
    that class), else every class they may read; only teachers and administrators have a
    whole list."""
    user = request.user
    if not user.is_authenticated or user.school_id is None:
        raise Http404("Not found.")
    visible = exports_visible_to(user)
    raw = request.GET.get("class")
    if raw:
        try:
            classroom = get_class(request, int(raw))
        except ValueError:
            raise Http404("No such class.") from None
        return visible.filter(classroom=classroom), classroom
    if not user.is_school_admin and not user.is_teacher:
        raise PermissionDenied
    return visible, None


def get_export(request: HttpRequest, pk: int) -> Export:
    try:
        return (
            exports_visible_to(request.user)
            .select_related("school", "classroom", "requested_by")
            .get(pk=pk)
        )
    except Export.DoesNotExist:
        raise Http404("No such export.") from None
