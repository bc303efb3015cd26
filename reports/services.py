"""Every write to export rows. The row is the truth the pages show: it is saved before its task is
sent (`transaction.on_commit`), its status moves queued -> rendering -> ready | failed, and each
step is taken under the row's lock, so running a task twice, or two workers racing after a
redelivery, can neither double a file nor count a part twice.

Files have deterministic names (the export's id) and are written to a temporary file then renamed
over the target, so a render repeated after a killed worker replaces the same single file.

The whole-school ZIP fans out without a Celery chord (the site keeps no result backend): one class
export per class, each counting itself on the parent row when it finishes; the part that
completes the count queues the ZIP task (see `_count_part`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import time
import zipfile
from typing import IO

from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.text import slugify

from classroom import push
from classroom.models import Classroom, School, Session, Student, User
from classroom.services import ServiceError
from reports import conf, documents, files, selectors
from reports.files import storage_name, write_atomically
from reports.models import LIVE_STATUSES, Export, ExportKind, ExportStatus

logger = logging.getLogger(__name__)
ERROR_MAX = 1000


def parameters_hash(kind: str, parameters: dict) -> str:
    canonical = json.dumps({"kind": kind, **parameters}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _send_render(export_id: int) -> None:
    from reports import tasks

    transaction.on_commit(lambda: tasks.render_export.delay(export_id))


def _send_zip(export_id: int) -> None:
    from reports import tasks

    transaction.on_commit(lambda: tasks.zip_school_export.delay(export_id))


def _describe(
    target: Session | Classroom | Student | School,
) -> tuple[str, dict, School, Classroom | None, str]:
    """(kind, parameters, school, class, title) for the thing to export."""
    if isinstance(target, Session):
        c = target.classroom
        return ExportKind.SESSION, {"session": target.pk}, c.school, c, f"{c.name}: {target}"
    if isinstance(target, Classroom):
        return (
            ExportKind.CLASS,
            {"classroom": target.pk},
            target.school,
            target,
            f"{target.name}: class progress",
        )
    if isinstance(target, Student):
        c = target.classroom
        return (
            ExportKind.STUDENT,
            {"student": target.pk},
            c.school,
            c,
            f"{target.name} ({c.name}): student progress",
        )
    if isinstance(target, School):
        title = f"{target.name}: all classes"
        return ExportKind.SCHOOL_ZIP, {"school": target.pk}, target, None, title
    raise ServiceError("This cannot be exported.")


def export_request(
    *, target: Session | Classroom | Student | School, by: User
) -> tuple[Export, bool]:
    """Queue a PDF (or, for a school, the ZIP of every class) of `target`, which the caller has
    already been allowed to read (reports.access). Returns (export, created): a second click
    while the first job is queued or rendering gets the first job back, created=False. The
    database's partial unique constraint decides that, not a check before the insert."""
    exports_sweep_stuck()
    kind, params, school, classroom, title = _describe(target)
    if kind == ExportKind.SCHOOL_ZIP and by.school_id != school.pk:
        raise ServiceError("Only the school's administrators can export the whole school.")
    digest = parameters_hash(kind, params)
    classes = selectors.school_classes_to_export(school) if kind == ExportKind.SCHOOL_ZIP else []
    if kind == ExportKind.SCHOOL_ZIP and not classes:
        raise ServiceError("This school has no classes to export yet.")
    for _ in range(3):
        try:
            with transaction.atomic():
                export = Export(
                    kind=kind,
                    parameters=params,
                    parameters_hash=digest,
                    requested_by=by,
                    school=school,
                    classroom=classroom,
                    title=title[:200],
                    parts_total=len(classes),
                )
                # Constraints are the database's to check (at insert, race-free).
                export.full_clean(validate_constraints=False)
                export.save()
                if kind == ExportKind.SCHOOL_ZIP:
                    _fan_out(export, classes, by)
                else:
                    _send_render(export.pk)
                return export, True
        except IntegrityError:
            live = Export.objects.filter(
                kind=kind,
                parameters_hash=digest,
                requested_by=by,
                parent__isnull=True,
                status__in=LIVE_STATUSES,
            ).first()
            if live is not None:
                return live, False
            # The live job finished between the failed insert and the look-up: insert again.
    raise ServiceError("This export is being started by another click: try again in a moment.")


def _fan_out(parent: Export, classes: list[Classroom], by: User) -> None:
    parts = Export.objects.bulk_create(
        Export(
            kind=ExportKind.CLASS,
            parameters={"classroom": c.pk},
            parameters_hash=parameters_hash(ExportKind.CLASS, {"classroom": c.pk}),
            requested_by=by,
            school=parent.school,
            classroom=c,
            title=f"{c.name}: class progress"[:200],
            parent=parent,
        )
        for c in classes
    )
    for part in parts:
        _send_render(part.pk)


# -- the work --------------------------------------------------------------------------------


def _start(export_id: int) -> Export | None:
    """Mark the export rendering (one more attempt), or None when there is nothing to do: it is
    ready already (a repeated task), failed (waits for a retry) or gone."""
    with transaction.atomic():
        export = Export.objects.select_for_update().filter(pk=export_id).first()
        if export is None or export.status not in LIVE_STATUSES:
            return None
        now = timezone.now()
        export.status = ExportStatus.RENDERING
        export.started_at = export.started_at or now
        export.updated_at = now
        export.attempts += 1
        export.save(update_fields=["status", "started_at", "updated_at", "attempts"])
        _changed(export)
        if export.parent_id:
            Export.objects.filter(pk=export.parent_id, status=ExportStatus.QUEUED).update(
                status=ExportStatus.RENDERING, started_at=now, updated_at=now
            )
        return export


def _reason(exc: Exception) -> str:
    if isinstance(exc, documents.ReportError | ServiceError):
        return str(exc)[:ERROR_MAX]
    return f"The file could not be made ({type(exc).__name__}: {exc})"[:ERROR_MAX]


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
        _changed(export)
        if export.parent_id:
            _count_part(export)
        return export


def _changed(export: Export) -> None:
    """The export's status box (and its parent's, for a part) shows the new state at once."""
    topics = [push.export_topic(export.pk)]
    if export.parent_id:
        topics.append(push.export_topic(export.parent_id))
    push.touch_after_commit(*topics)


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
            parent.error = (
                f"{parent.parts_failed} of {parent.parts_total} class reports failed ({names}). "
                f"First reason: {failed.first().error}"
            )[:ERROR_MAX]
        else:
            _send_zip(parent.pk)
    parent.save()


def export_render(*, export_id: int) -> Export | None:
    """Render one PDF export. Safe to run twice: a ready export is left alone, and a second
    attempt of a rendering one writes the same file name."""
    export = _start(export_id)
    if export is None:
        return Export.objects.filter(pk=export_id).first()
    try:
        data = documents.render_pdf(export)
        delay = conf.render_delay()
        if delay:
            time.sleep(delay)  # tests only: a window to kill the worker mid-render
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
        now = timezone.now()
        export.status = ExportStatus.RENDERING
        export.started_at = export.started_at or now
        export.updated_at = now
        export.attempts += 1
        export.save(update_fields=["status", "started_at", "updated_at", "attempts"])
        _changed(export)
    try:
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
    except Exception as exc:
        logger.exception("School export %s failed while zipping", export_id)
        return _finish(export_id, error=_reason(exc))
    return _finish(export_id, name=name)


# -- what people do with exports ------------------------------------------------------------


def export_retry(*, export: Export, by: User) -> Export:
    """Queue a failed export again (a school ZIP: its failed parts, or just the ZIP step)."""
    with transaction.atomic():
        export = Export.objects.select_for_update().get(pk=export.pk)
        if export.status != ExportStatus.FAILED:
            raise ServiceError("Only a failed export can be tried again.")
        now = timezone.now()
        export.status = ExportStatus.QUEUED
        export.error = ""
        export.finished_at = None
        export.updated_at = now
        failed_parts = []
        if export.kind == ExportKind.SCHOOL_ZIP:
            failed_parts = list(export.parts.select_for_update().exclude(status=ExportStatus.READY))
            export.parts_failed = 0
            export.parts_done = export.parts_total - len(failed_parts)
        try:
            with transaction.atomic():
                export.save()
        except IntegrityError:
            raise ServiceError(
                "The same export is already queued or rendering: see the list of exports."
            ) from None
        _changed(export)
        for part in failed_parts:
            part.status = ExportStatus.QUEUED
            part.error = ""
            part.finished_at = None
            part.updated_at = now
            part.save(update_fields=["status", "error", "finished_at", "updated_at"])
            _send_render(part.pk)
        if export.kind != ExportKind.SCHOOL_ZIP:
            _send_render(export.pk)
        elif not failed_parts:
            _send_zip(export.pk)
        return export


def _delete_stored(name: str) -> None:
    if name:
        default_storage.delete(name)


def export_delete_file(*, export: Export, by: User) -> Export:
    """Delete a finished export's file (the row stays, listed as deleted). Parts' files of a
    school ZIP go with it."""
    with transaction.atomic():
        export = Export.objects.select_for_update().get(pk=export.pk)
        if export.is_live:
            raise ServiceError("This export is still being made: wait until it is ready.")
        if not export.file:
            raise ServiceError("This export has no file to delete.")
        names = [export.file.name]
        names += [p.file.name for p in export.parts.exclude(file="")]
        export.parts.exclude(file="").update(file="", file_deleted_at=timezone.now())
        export.file = ""
        export.file_deleted_at = timezone.now()
        export.save(update_fields=["file", "file_deleted_at"])
        transaction.on_commit(lambda: [_delete_stored(n) for n in names])
        return export


def exports_sweep_stuck() -> int:
    """Mark failed every rendering job with no progress for `conf.stuck_after()` (a worker died
    and the broker did not hand its task on). Returns how many were marked. Parts count on
    their parent like any failure."""
    cutoff = timezone.now() - conf.stuck_after()
    stuck = Q(status=ExportStatus.RENDERING, updated_at__lt=cutoff)
    swept = 0
    for pk in Export.objects.filter(stuck).order_by("parent_id", "pk").values_list("pk", flat=True):
        with transaction.atomic():
            # skip_locked: a row another transaction holds is being worked on, not stuck.
            export = Export.objects.select_for_update(skip_locked=True).filter(stuck, pk=pk).first()
            if export is None:
                continue
            export.status = ExportStatus.FAILED
            export.error = (
                "The worker stopped without finishing this export (no progress for "
                f"{int(conf.stuck_after().total_seconds() // 60)} minutes). Try again."
            )
            export.finished_at = timezone.now()
            export.save(update_fields=["status", "error", "finished_at"])
            if export.parent_id:
                _count_part(export)
            swept += 1
    return swept


def exports_remove_orphan_files() -> int:
    """Remove files left behind by export rows that no longer exist."""
    kept = set(Export.objects.exclude(file="").values_list("file", flat=True))
    return files.remove_orphans(kept)
