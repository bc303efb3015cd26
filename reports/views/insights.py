"""The insights pages of a session and of a class over time, and their CSV and XLSX files: read
only (no GET writes anything). Each view: the access check, the insights context, render."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from reports import access, insights_export
from reports.insights_screens import (
    class_insights_screen,
    group_sentences,
    session_insights_screen,
)


@login_required
@require_GET
def session_insights(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session(request, pk)
    context = session_insights_screen(session)
    context["can_spotlight"] = access.may_spotlight(request.user, session.classroom)
    return render(request, "reports/insights/session.html", context)


@login_required
@require_GET
def class_insights(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = access.get_class(request, pk)
    context = class_insights_screen(classroom)
    context["can_spotlight"] = access.may_spotlight(request.user, classroom)
    return render(request, "reports/insights/class.html", context)


@login_required
@require_GET
def class_insights_sentences(request: HttpRequest, pk: int) -> HttpResponse:
    """The sentences behind one group of a blank, over the class's sessions: one click from
    the class insights page, which lists the groups without their hundreds of sentences."""
    classroom = access.get_class(request, pk)
    context = class_insights_screen(classroom)
    found = group_sentences(context, request.GET.get("blank", ""), request.GET.get("group", ""))
    if found is None:
        raise Http404(gettext("No such group of answers."))
    table, row = found
    context.update({"table": table, "row": row, "can_spotlight": False})
    return render(request, "reports/insights/sentences.html", context)


FORMATS = {
    "csv": ("text/csv; charset=utf-8", insights_export.to_csv),
    "xlsx": (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        insights_export.to_xlsx,
    ),
}


def _download(context: dict, subject: str, fmt: str) -> HttpResponse:
    if fmt not in FORMATS:
        raise Http404(gettext("No such format."))
    content_type, render_file = FORMATS[fmt]
    response = HttpResponse(render_file(context), content_type=content_type)
    filename = f"{slugify(subject) or 'report'}-{slugify(gettext('insights'))}.{fmt}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_GET
def session_insights_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    session = access.get_session(request, pk)
    subject = f"{session.classroom.name} {session.date}"
    return _download(session_insights_screen(session), subject, fmt)


@login_required
@require_GET
def class_insights_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    classroom = access.get_class(request, pk)
    return _download(class_insights_screen(classroom), classroom.name, fmt)
