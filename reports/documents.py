"""The PDF of an export: which report, its context, its print template, and the bytes.

Rendering runs in a worker, with no request: the context comes from the export's parameters, and
an object deleted since the click is a ReportError with a reason the person can read.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from classroom.models import Classroom, School, Session, Student
from reports import screens as report_screens
from reports.insights_screens import (
    class_insights_screen,
    session_insights_screen,
    student_progress_screen,
)
from reports.models import Export, ExportKind
from reports.pdf import html_to_pdf
from reports.selectors.standards import by_standard


class ReportError(Exception):
    """The report cannot be made; the message says why, in the person's words."""


@dataclass(frozen=True)
class Document:
    template: str
    context: dict


# What may have been deleted since the click, as a reason names it.
WHAT = {
    "session": gettext_lazy(
        "The session no longer exists: it was deleted after the export was asked for."
    ),
    "class": gettext_lazy(
        "The class no longer exists: it was deleted after the export was asked for."
    ),
    "student": gettext_lazy(
        "The student no longer exists: they were deleted after the export was asked for."
    ),
    "school": gettext_lazy(
        "The school no longer exists: it was deleted after the export was asked for."
    ),
}


def _load(model, pk, what: str):
    try:
        related = _related(model)
        query = model.objects.select_related(*related) if related else model.objects.all()
        return query.get(pk=pk)
    except (model.DoesNotExist, TypeError, ValueError):
        raise ReportError(str(WHAT[what])) from None


def _related(model) -> tuple[str, ...]:
    if model is Session or model is Student:
        return ("classroom__school", "classroom__teacher")
    if model is Classroom:
        return ("school", "teacher")
    return ()


def document_for(export: Export) -> Document:
    params = export.parameters
    if export.kind == ExportKind.SESSION:
        session = _load(Session, params.get("session"), "session")
        context = report_screens.session_screen(session)
        context["insights_pdf"] = session_insights_screen(session)
        return Document("reports/pdf/session.html", context)
    if export.kind == ExportKind.CLASS:
        classroom = _load(Classroom, params.get("classroom"), "class")
        context = report_screens.class_screen(classroom)
        context["insights_pdf"] = class_insights_screen(classroom)
        context["standards"] = by_standard(classroom)
        return Document("reports/pdf/class_progress.html", context)
    if export.kind == ExportKind.STUDENT:
        student = _load(Student, params.get("student"), "student")
        context = report_screens.student_screen(student)
        context["progress"] = student_progress_screen(student)
        context["standards"] = by_standard(student.classroom, student)
        return Document("reports/pdf/student_progress.html", context)
    if export.kind == ExportKind.SCHOOL_ZIP:
        school = _load(School, params.get("school"), "school")
        return Document("reports/pdf/school_overview.html", report_screens.school_screen(school))
    raise ReportError(gettext("Unknown report kind %(kind)r.") % {"kind": export.kind})


def render_html(document: Document) -> str:
    return render_to_string(
        document.template, {**document.context, "generated_at": timezone.localtime()}
    )


def render_pdf(export: Export) -> bytes:
    document = document_for(export)
    html = render_html(document)
    return html_to_pdf(html, images=[chart.uri for chart in document.context["charts"]])
