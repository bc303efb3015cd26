"""Export jobs: ask for one (POST), watch it (the status partial polls itself with htmx while
the job is live), download, retry, delete the file, and the lists of past exports."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_POST

from classroom.services import ServiceError
from reports import access, services
from reports.models import Export, ExportKind

STATUS_TEMPLATE = "reports/export_status.html"
LIST_TEMPLATE = "reports/exports.html"


def _target(request: HttpRequest):
    """The report the form asks to export, checked like the report page itself."""
    kind = request.POST.get("kind", "")
    try:
        pk = int(request.POST.get("target", ""))
    except ValueError:
        pk = None
    if kind == ExportKind.SCHOOL_ZIP:
        return access.get_school(request)
    if pk is None:
        raise Http404("Nothing to export.")
    if kind == ExportKind.SESSION:
        return access.get_session(request, pk)
    if kind == ExportKind.CLASS:
        return access.get_class(request, pk)
    if kind == ExportKind.STUDENT:
        return access.get_student(request, pk)
    raise Http404("No such report.")


def _next(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next", "")
    # A path only: redirect() would take a bare word for a view name and fail to find it.
    if (
        target
        and target.startswith("/")
        and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        return target
    return default


def _status_response(request: HttpRequest, export: Export, *, error: str = "", status=200):
    template = f"{STATUS_TEMPLATE}#status" if request.htmx else STATUS_TEMPLATE
    return render(request, template, {"export": export, "error": error}, status=status)


@login_required
@require_POST
def export_create(request: HttpRequest) -> HttpResponse:
    target = _target(request)
    try:
        export, created = services.export_request(target=target, by=request.user)
    except ServiceError as exc:
        if request.htmx:
            context = {"export": None, "error": str(exc)}
            return render(request, f"{STATUS_TEMPLATE}#status", context, status=400)
        messages.error(request, str(exc))
        return redirect(_next(request, "reports:index"))
    if not created:
        note = "This report is already being made: here is that export."
        if request.htmx:
            return _status_response(request, export, error="")
        messages.info(request, note)
    if request.htmx:
        return _status_response(request, export)
    return redirect("reports:export_status", pk=export.pk)


@login_required
@require_GET
def export_status(request: HttpRequest, pk: int) -> HttpResponse:
    export = access.get_export(request, pk)
    return _status_response(request, export)


@login_required
@require_GET
def export_download(request: HttpRequest, pk: int) -> HttpResponse:
    export = access.get_export(request, pk)
    if not export.has_file:
        raise Http404("This export has no file (not ready yet, or deleted).")
    try:
        handle = export.file.open("rb")
    except FileNotFoundError:
        raise Http404("The file is missing: export the report again.") from None
    filename = f"{slugify(export.title) or 'report'}.{export.extension}"
    content_type = "application/zip" if export.extension == "zip" else "application/pdf"
    return FileResponse(handle, as_attachment=True, filename=filename, content_type=content_type)


@login_required
@require_POST
def export_retry(request: HttpRequest, pk: int) -> HttpResponse:
    export = access.get_export(request, pk)
    error = ""
    try:
        export = services.export_retry(export=export, by=request.user)
    except ServiceError as exc:
        error = str(exc)
        if not request.htmx:
            messages.error(request, error)
    if request.htmx:
        export.refresh_from_db()
        return _status_response(request, export, error=error, status=400 if error else 200)
    return redirect("reports:export_status", pk=export.pk)


@login_required
@require_POST
def export_delete_file(request: HttpRequest, pk: int) -> HttpResponse:
    export = access.get_export(request, pk)
    try:
        services.export_delete_file(export=export, by=request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Deleted the file of “{export.title}”.")
    return redirect(_next(request, "reports:exports"))


@login_required
@require_GET
def exports(request: HttpRequest) -> HttpResponse:
    """Past exports: of one class with ?class=<id>, else every class the person may read
    (an administrator: the whole school, whole-school ZIPs included)."""
    visible = access.exports_visible_to(request.user)
    if not request.user.is_authenticated or request.user.school_id is None:
        raise Http404("Not found.")
    classroom = None
    if request.GET.get("class"):
        try:
            classroom = access.get_class(request, int(request.GET["class"]))
        except ValueError:
            raise Http404("No such class.") from None
        visible = visible.filter(classroom=classroom)
    elif not request.user.is_school_admin and not request.user.is_teacher:
        raise PermissionDenied
    rows = visible.select_related("classroom", "requested_by").order_by("-created_at", "-pk")[:200]
    context = {"exports": rows, "classroom": classroom, "is_admin": request.user.is_school_admin}
    return render(request, LIST_TEMPLATE, context)
