"""What people do with exports: ask for one (a second click gets the first job back), try a
failed one again, delete a finished one's file."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.core.files.storage import default_storage
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from classroom.access import is_school_admin
from classroom.models import Classroom, School, Session, Student, User
from classroom.services import ServiceError
from reports import selectors
from reports.models import LIVE_STATUSES, Export, ExportKind, ExportStatus
from reports.services import queue, work
from reports.services.status import status_changed


def parameters_hash(kind: str, parameters: dict) -> str:
    canonical = json.dumps({"kind": kind, **parameters}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _describe(
    target: Session | Classroom | Student | School,
) -> tuple[str, dict, School, Classroom | None, str]:
    """(kind, parameters, school, class, title) for the thing to export."""
    if isinstance(target, Session):
        c = target.classroom
        title = gettext("%(class)s: %(session)s") % {"class": c.name, "session": target}
        return ExportKind.SESSION, {"session": target.pk}, c.school, c, title
    if isinstance(target, Classroom):
        return (
            ExportKind.CLASS,
            {"classroom": target.pk},
            target.school,
            target,
            _class_title(target),
        )
    if isinstance(target, Student):
        c = target.classroom
        return (
            ExportKind.STUDENT,
            {"student": target.pk},
            c.school,
            c,
            gettext("%(student)s (%(class)s): student progress")
            % {"student": target.name, "class": c.name},
        )
    if isinstance(target, School):
        title = gettext("%(school)s: all classes") % {"school": target.name}
        return ExportKind.SCHOOL_ZIP, {"school": target.pk}, target, None, title
    raise ServiceError(gettext("This cannot be exported."))


def _class_title(classroom: Classroom) -> str:
    return gettext("%(class)s: class progress") % {"class": classroom.name}


def request_language(language: str | None = None) -> str:
    """The language the export is asked in (`language`, else the active one: the page's), one
    the site offers."""
    try:
        return translation.get_supported_language_variant(
            language or translation.get_language() or settings.LANGUAGE_CODE
        )
    except LookupError:
        return settings.LANGUAGE_CODE


def export_request(
    *, target: Session | Classroom | Student | School, by: User, language: str | None = None
) -> tuple[Export, bool]:
    """Queue a PDF (or, for a school, the ZIP of every class) of `target`, which the caller has
    already been allowed to read (reports.access), in `language` (default: the active one, the
    language of the page the person clicked on; the worker renders the file in it). Returns
    (export, created): a second click while the first job is queued or rendering gets the first
    job back, created=False. The
    database's partial unique constraint decides that, not a check before the insert. Stuck
    jobs are the sweeper's (`manage.py sweep_exports`); only the one job standing in the way of
    this request is failed here when it is stuck, so a dead worker never blocks a new click."""
    language = request_language(language)
    with translation.override(language):
        kind, params, school, classroom, title = _describe(target)
    if kind == ExportKind.SCHOOL_ZIP and not is_school_admin(by, school):
        raise ServiceError(gettext("Only the school's administrators can export the whole school."))
    digest = parameters_hash(kind, params)
    classes = selectors.school_classes_to_export(school) if kind == ExportKind.SCHOOL_ZIP else []
    if kind == ExportKind.SCHOOL_ZIP and not classes:
        raise ServiceError(gettext("This school has no classes to export yet."))
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
                    language=language,
                    parts_total=len(classes),
                )
                # Constraints are the database's to check (at insert, race-free).
                export.full_clean(validate_constraints=False)
                export.save()
                if kind == ExportKind.SCHOOL_ZIP:
                    _fan_out(export, classes, by)
                else:
                    queue.send_render(export.pk)
                return export, True
        except IntegrityError:
            live = Export.objects.filter(
                kind=kind,
                parameters_hash=digest,
                requested_by=by,
                parent__isnull=True,
                status__in=LIVE_STATUSES,
            ).first()
            if live is not None and not work.export_fail_if_stuck(export_id=live.pk):
                return live, False
            # The live job finished (or was stuck and is now failed) between the failed insert
            # and the look-up: insert again.
    raise ServiceError(
        gettext("This export is being started by another click: try again in a moment.")
    )


def _fan_out(parent: Export, classes: list[Classroom], by: User) -> None:
    with translation.override(parent.language):
        titles = {c.pk: _class_title(c)[:200] for c in classes}
    parts = Export.objects.bulk_create(
        Export(
            kind=ExportKind.CLASS,
            parameters={"classroom": c.pk},
            parameters_hash=parameters_hash(ExportKind.CLASS, {"classroom": c.pk}),
            requested_by=by,
            school=parent.school,
            classroom=c,
            title=titles[c.pk],
            language=parent.language,
            parent=parent,
        )
        for c in classes
    )
    for part in parts:
        queue.send_render(part.pk)


def export_retry(*, export: Export, by: User) -> Export:
    """Queue a failed export again (a school ZIP: its failed parts, or just the ZIP step)."""
    with transaction.atomic():
        export = Export.objects.select_for_update().get(pk=export.pk)
        if export.status != ExportStatus.FAILED:
            raise ServiceError(gettext("Only a failed export can be tried again."))
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
                gettext("The same export is already queued or rendering: see the list of exports.")
            ) from None
        status_changed(export)
        for part in failed_parts:
            part.status = ExportStatus.QUEUED
            part.error = ""
            part.finished_at = None
            part.updated_at = now
            part.save(update_fields=["status", "error", "finished_at", "updated_at"])
            queue.send_render(part.pk)
        if export.kind != ExportKind.SCHOOL_ZIP:
            queue.send_render(export.pk)
        elif not failed_parts:
            queue.send_zip(export.pk)
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
            raise ServiceError(gettext("This export is still being made: wait until it is ready."))
        if not export.file:
            raise ServiceError(gettext("This export has no file to delete."))
        names = [export.file.name]
        names += [p.file.name for p in export.parts.exclude(file="")]
        export.parts.exclude(file="").update(file="", file_deleted_at=timezone.now())
        export.file = ""
        export.file_deleted_at = timezone.now()
        export.save(update_fields=["file", "file_deleted_at"])
        transaction.on_commit(lambda: [_delete_stored(n) for n in names])
        return export
