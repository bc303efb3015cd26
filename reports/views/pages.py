"""The report pages and their CSV tables. Each view: the access check, the report's context
(reports.screens), render."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from classroom import access as classroom_access
from classroom.models import SessionStatus
from reports import access, selectors
from reports.csv_export import get_table
from reports.insights_screens import student_progress_screen
from reports.models import ExportKind
from reports.screens import class_screen, school_screen, session_screen, student_screen
from reports.selectors.standards import by_standard


def _with_exports(request: HttpRequest, context: dict, kind: str, target_pk: int) -> dict:
    """The export panel's latest job for this report, so the page shows its state on load."""
    latest = (
        access.exports_visible_to(request.user)
        .filter(kind=kind, requested_by=request.user, **_param_filter(kind, target_pk))
        .first()
    )
    return {**context, "export": latest, "export_kind": kind, "export_target": target_pk}


def _param_filter(kind: str, pk: int) -> dict:
    key = {
        ExportKind.SESSION: "session",
        ExportKind.CLASS: "classroom",
        ExportKind.STUDENT: "student",
        ExportKind.SCHOOL_ZIP: "school",
    }[kind]
    return {f"parameters__{key}": pk}


@login_required
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    user = request.user
    classes = (
        classroom_access.classes_visible_to(user)
        .select_related("teacher")
        .prefetch_related("sessions")
        .order_by("name")
    )
    rows = [
        {
            "classroom": c,
            "sessions": [s for s in c.sessions.all() if s.status != SessionStatus.DRAFT][:6],
        }
        for c in classes
    ]
    return render(request, "reports/index.html", {"rows": rows, "is_admin": user.is_school_admin})


@login_required
@require_GET
def session_report(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session(request, pk)
    context = _with_exports(request, session_screen(session), ExportKind.SESSION, session.pk)
    return render(request, "reports/session.html", context)


@login_required
@require_GET
def class_progress(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = access.get_class(request, pk)
    context = _with_exports(request, class_screen(classroom), ExportKind.CLASS, classroom.pk)
    context["standards"] = by_standard(classroom)
    return render(request, "reports/class_progress.html", context)


@login_required
@require_GET
def student_progress(request: HttpRequest, pk: int) -> HttpResponse:
    student = access.get_student(request, pk)
    context = _with_exports(request, student_screen(student), ExportKind.STUDENT, student.pk)
    context["standards"] = by_standard(student.classroom, student)
    context["progress"] = student_progress_screen(student)
    return render(request, "reports/student_progress.html", context)


@login_required
@require_GET
def school_overview(request: HttpRequest) -> HttpResponse:
    school = access.get_school(request)
    context = _with_exports(request, school_screen(school), ExportKind.SCHOOL_ZIP, school.pk)
    return render(request, "reports/school_overview.html", context)


def _csv_response(report_name: str, slug: str, report, subject: str) -> HttpResponse:
    table = get_table(report_name, slug)
    if table is None:
        raise Http404(gettext("No such table."))
    response = HttpResponse(table.render(report), content_type="text/csv; charset=utf-8")
    filename = f"{slugify(subject) or gettext('report')}-{table.slug}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def session_csv(request: HttpRequest, pk: int, table: str) -> HttpResponse:
    session = access.get_session(request, pk)
    report = selectors.session_report(session)
    return _csv_response("session", table, report, f"{session.classroom.name} {session.date}")


@login_required
@require_GET
def class_csv(request: HttpRequest, pk: int, table: str) -> HttpResponse:
    classroom = access.get_class(request, pk)
    return _csv_response("class", table, selectors.class_report(classroom), classroom.name)


@login_required
@require_GET
def student_csv(request: HttpRequest, pk: int, table: str) -> HttpResponse:
    student = access.get_student(request, pk)
    return _csv_response("student", table, selectors.student_report(student), student.name)


@login_required
@require_GET
def school_csv(request: HttpRequest, table: str) -> HttpResponse:
    school = access.get_school(request)
    return _csv_response("school", table, selectors.school_report(school), school.name)
