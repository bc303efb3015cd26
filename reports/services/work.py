"""What the workers and the sweeper do with export rows: render a PDF, zip a whole school,
record each outcome, and fail a job stuck in the way of a new request (the sweeper that hands on
abandoned jobs is `services.sweep`)."""

from __future__ import annotations

import logging
import shutil
import zipfile
from typing import IO

from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext

from classroom.services import ServiceError
from reports import conf, documents, files
from reports.files import storage_name, write_atomically
from reports.models import LIVE_STATUSES, Export, ExportStatus
from reports.services import queue
from reports.services.heartbeat import heartbeat
from reports.services.status import status_changed

logger = logging.getLogger(__name__)
ERROR_MAX = 1000


def _mark_rendering(export: Export) -> None:
    """One more attempt of `export` (locked by the caller) starts now."""
    now = timezone.now()
    export.status = ExportStatus.RENDERING
    export.started_at = export.started_at or now
    export.updated_at = now
    export.attempts += 1
    export.save(update_fields=["status", "started_at", "updated_at", "attempts"])
    status_changed(export)


def _being_rendered(export: Export) -> bool:
    """Another worker is on it: rendering, with a heartbeat fresher than `abandoned_after`."""
    return (
        export.status == ExportStatus.RENDERING
        and export.updated_at > timezone.now() - conf.abandoned_after()
    )


def _start(export_id: int) -> Export | None:
    """Mark the export rendering (one more attempt), or None when there is nothing to do: it is
    ready already (a repeated task), failed (waits for a retry), gone, or rendered right now by
    a live worker (a task sent twice, or redelivered while the sweeper's copy runs)."""
    with transaction.atomic():
        export = Export.objects.select_for_update().filter(pk=export_id).first()
        if export is None or export.status not in LIVE_STATUSES or _being_rendered(export):
            return None
        _mark_rendering(export)
        if export.parent_id:
            now = export.updated_at
            Export.objects.filter(pk=export.parent_id, status=ExportStatus.QUEUED).update(
                status=ExportStatus.RENDERING, started_at=now, updated_at=now
            )
        return export


def _reason(exc: Exception) -> str:
    if isinstance(exc, documents.ReportError | ServiceError):
        return str(exc)[:ERROR_MAX]
    return (
        gettext("The file could not be made (%(error)s)")
        % {"error": f"{type(exc).__name__}: {exc}"}
    )[:ERROR_MAX]


def _finish(export_id: int, *, name: str = "", error: str = "") -> Export | None:
    """Record the outcome of an attempt: ready with its file, or failed with the reason."""
    with transaction.atomic():
        export = Export.objects.select_for_update().filter(pk=export_id).first()
        if export is None or export.status != ExportStatus.RENDERING:
            # Finished by another attempt, or swept as stuck meanwhile: that outcome stands.
            return export
        now = timezone.now()
        export.status = ExportStatus.FAILED if error else ExportStatus.READY
        export.error = error
        export.finished_at = now
        export.updated_at = now
        if name:
            export.file.name = name
            export.file_deleted_at = None
        export.save()
        status_changed(export)
        if export.parent_id:
            _count_part(export)
        return export


def _count_part(part: Export) -> None:
    """Count a finished part on its parent (called once per part, under the part's lock, in
    the transaction that finished it). The part completing the set queues the ZIP."""
    parent = Export.objects.select_for_update().get(pk=part.parent_id)
    if parent.status not in LIVE_STATUSES:
        return
    if part.status == ExportStatus.READY:
        parent.parts_done += 1
    else:
        parent.parts_failed += 1
    parent.updated_at = timezone.now()
    if parent.parts_done + parent.parts_failed >= parent.parts_total:
        if parent.parts_failed:
            failed = parent.parts.filter(status=ExportStatus.FAILED).order_by("title")
            names = ", ".join(p.classroom.name for p in failed.select_related("classroom")[:5])
            parent.status = ExportStatus.FAILED
            parent.finished_at = parent.updated_at
            with translation.override(parent.language):
                parent.error = (
                    gettext(
                        "%(failed)s of %(total)s class reports failed (%(names)s). "
                        "First reason: %(reason)s"
                    )
                    % {
                        "failed": parent.parts_failed,
                        "total": parent.parts_total,
                        "names": names,
                        "reason": failed.first().error,
                    }
                )[:ERROR_MAX]
        else:
            queue.send_zip(parent.pk)
    parent.save()


def export_render(*, export_id: int) -> Export | None:
    """Render one PDF export. Safe to run twice: a ready export is left alone, and a second
    attempt of a rendering one writes the same file name. The file, and the reason of a
    failure, are in the language of the person who asked (`export.language`)."""
    export = _start(export_id)
    if export is None:
        return Export.objects.filter(pk=export_id).first()
    with translation.override(export.language):
        return _render(export, export_id)


def _render(export: Export, export_id: int) -> Export | None:
    try:
        with heartbeat(export_id):
            data = documents.render_pdf(export)
            name = storage_name(export)
            write_atomically(name, lambda f: f.write(data))
    except Exception as exc:
        logger.exception("Export %s failed", export_id)
        return _finish(export_id, error=_reason(exc))
    return _finish(export_id, name=name)


def _zip_name(part: Export, taken: set[str]) -> str:
    base = slugify(part.classroom.name if part.classroom else part.title) or f"class-{part.pk}"
    name, n = f"{base}.pdf", 2
    while name in taken:
        name, n = f"{base}-{n}.pdf", n + 1
    taken.add(name)
    return name


def export_zip(*, export_id: int) -> Export | None:
    """Zip a whole-school export's class PDFs, its school overview PDF and an index page."""
    with transaction.atomic():
        export = Export.objects.select_for_update().filter(pk=export_id).first()
        if export is None or export.status not in LIVE_STATUSES:
            return export
        if export.parts_done < export.parts_total:
            return export  # not every part is in: the last one queues this task again
        _mark_rendering(export)
    with translation.override(export.language):
        return _zip(export, export_id)


def _zip(export: Export, export_id: int) -> Export | None:
    try:
        with heartbeat(export_id):
            name = _write_zip(export)
    except Exception as exc:
        logger.exception("School export %s failed while zipping", export_id)
        return _finish(export_id, error=_reason(exc))
    return _finish(export_id, name=name)


def _write_zip(export: Export) -> str:
    """Write the ZIP under its export's file name; returns the name."""
    parts = list(export.parts.select_related("classroom__teacher").order_by("title", "pk"))
    taken: set[str] = {"index.html", "school-overview.pdf"}
    entries = [(part, _zip_name(part, taken)) for part in parts]
    overview = documents.render_pdf(export)
    index = render_to_string(
        "reports/zip_index.html",
        {"export": export, "entries": entries, "generated_at": timezone.localtime()},
    )

    def write(target: IO[bytes]) -> None:
        with zipfile.ZipFile(target, "w") as archive:
            archive.writestr("index.html", index, compress_type=zipfile.ZIP_DEFLATED)
            archive.writestr("school-overview.pdf", overview)
            for part, entry in entries:
                # PDFs are compressed already: stored, not deflated again; copied in
                # chunks so memory stays flat however big the school.
                with (
                    default_storage.open(part.file.name, "rb") as source,
                    archive.open(entry, "w") as sink,
                ):
                    shutil.copyfileobj(source, sink)

    name = storage_name(export)
    write_atomically(name, write)
    return name


def _stuck() -> Q:
    return Q(status=ExportStatus.RENDERING, updated_at__lt=timezone.now() - conf.stuck_after())


def export_fail_if_stuck(*, export_id: int) -> bool:
    """Mark one export failed if it is stuck (see `exports_sweep_stuck`); whether it was."""
    with transaction.atomic():
        # skip_locked: a row another transaction holds is being worked on, not stuck.
        export = (
            Export.objects.select_for_update(skip_locked=True)
            .filter(_stuck(), pk=export_id)
            .first()
        )
        if export is None:
            return False
        export.status = ExportStatus.FAILED
        with translation.override(export.language):
            export.error = gettext(
                "The worker stopped without finishing this export (no progress for "
                "%(minutes)s minutes). Try again."
            ) % {"minutes": int(conf.stuck_after().total_seconds() // 60)}
        export.finished_at = timezone.now()
        export.save(update_fields=["status", "error", "finished_at"])
        status_changed(export)
        if export.parent_id:
            _count_part(export)
        return True


def exports_remove_orphan_files() -> int:
    """Remove files left behind by export rows that no longer exist."""
    kept = set(Export.objects.exclude(file="").values_list("file", flat=True))
    return files.remove_orphans(kept)
