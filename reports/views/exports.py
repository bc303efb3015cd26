"""Export jobs: ask for one (POST), watch it (the status partial polls itself with htmx while
the job is live), download, retry, delete the file, and the lists of past exports."""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from classroom import watch
from classroom.http import HtmxHttpRequest, htmx_or_redirect, safe_next
from classroom.services import ServiceError
from reports import access, services
from reports.models import Export, ExportKind

STATUS_TEMPLATE = "reports/export_status.html"
LIST_TEMPLATE = "reports/exports.html"


def _target(request: HtmxHttpRequest):
    """The report the form asks to export, checked like the report page itself."""
    kind = request.POST.get("kind", "")
    try:
        pk = int(request.POST.get("target", ""))
    except ValueError:
        pk = None
    if kind == ExportKind.SCHOOL_ZIP:
        return access.get_school(request)
    if pk is None:
        raise Http404(gettext("Nothing to export."))
    if kind == ExportKind.SESSION:
        return access.get_session(request, pk)
    if kind == ExportKind.CLASS:
        return access.get_class(request, pk)
    if kind == ExportKind.STUDENT:
        return access.get_student(request, pk)
    raise Http404(gettext("No such report."))


def _status_response(
    request: HtmxHttpRequest,
    export: Export | None,
    *,
    error: str = "",
    notice: str = "",
) -> HttpResponse:
    """The export's status, or a refusal's reason (`error`). htmx gets the region, answered 200
    even for a refusal, as every region that shows its own error: htmx swaps no 4xx answer,
    so a 400 here showed nothing but "That did not go through"."""
    context = {"export": export, "error": error, "notice": notice}
    if export is not None:
        export_watch = watch.Watch(watch.EXPORT, None, user_id=request.user.pk, export_id=export.pk)
        # The stamp before the row: a change in between is drawn again, never missed.
        context.update(watch.topic_page_urls(export_watch))
        export.refresh_from_db()
    template = f"{STATUS_TEMPLATE}#status" if request.htmx else STATUS_TEMPLATE
    return render(request, template, context)


@watch.redraws(watch.EXPORT)
def export_region(request: HtmxHttpRequest, seen: watch.Seen) -> HttpResponse:
    """The status region again, for the poll of the export's page."""
    if request.user.pk != seen.watch.user_id:
        raise Http404("This screen belongs to someone else.")
    export = access.get_export(request, seen.watch.export_id)
    context = {"export": export, **watch.redrawn_urls(seen)}
    return render(request, f"{STATUS_TEMPLATE}#status", context)


@login_required
@require_POST
def export_create(request: HtmxHttpRequest) -> HttpResponse:
    target = _target(request)
    try:
        export, created = services.export_request(target=target, by=request.user)
    except ServiceError as exc:
        return htmx_or_redirect(
            request,
            functools.partial(_status_response, request, None, error=str(exc)),
            safe_next(request, "reports:index"),
            error=str(exc),
        )
    note = "" if created else gettext("This report is already being made: here is that export.")
    return htmx_or_redirect(
        request,
        functools.partial(_status_response, request, export, notice=note),
        reverse("reports:export_status", args=[export.pk]),
        info=note,
    )


@login_required
@require_GET
def export_status(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    export = access.get_export(request, pk)
    return _status_response(request, export)


@login_required
@require_GET
def export_download(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    export = access.get_export(request, pk)
    if not export.has_file:
        raise Http404(gettext("This export has no file (not ready yet, or deleted)."))
    try:
        handle = export.file.open("rb")
    except FileNotFoundError:
        raise Http404(gettext("The file is missing: export the report again.")) from None
    filename = f"{slugify(export.title) or gettext('report')}.{export.extension}"
    content_type = "application/zip" if export.extension == "zip" else "application/pdf"
    return FileResponse(handle, as_attachment=True, filename=filename, content_type=content_type)


@login_required
@require_POST
def export_retry(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    export = access.get_export(request, pk)
    error = ""
    try:
        export = services.export_retry(export=export, by=request.user)
    except ServiceError as exc:
        error = str(exc)

    def redraw() -> HttpResponse:
        export.refresh_from_db()
        return _status_response(request, export, error=error)

    return htmx_or_redirect(
        request, redraw, reverse("reports:export_status", args=[export.pk]), error=error
    )


@login_required
@require_POST
def export_delete_file(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    export = access.get_export(request, pk)
    try:
        services.export_delete_file(export=export, by=request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request, gettext("Deleted the file of “%(title)s”.") % {"title": export.title}
        )
    return redirect(safe_next(request, "reports:exports"))


@login_required
@require_GET
def exports(request: HtmxHttpRequest) -> HttpResponse:
    """Past exports: of one class with ?class=<id>, else every class the person may read
    (an administrator: the whole school, whole-school ZIPs included)."""
    visible, classroom = access.get_exports_list(request)
    rows = visible.select_related("classroom", "requested_by").order_by("-created_at", "-pk")[:200]
    context = {"exports": rows, "classroom": classroom, "is_admin": request.user.is_school_admin}
    return render(request, LIST_TEMPLATE, context)
