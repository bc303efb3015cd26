"""Exports whose work was lost, handed on: Celery beat runs `exports_sweep_stuck` every
REPORTS_SWEEP_SECONDS (the worker runs with `--beat`), and `manage.py sweep_exports` runs it from
cron or by hand.

- A rendering export whose worker stopped sending heartbeats (killed, out of memory, the machine
  gone) is queued again at once, rather than when Redis redelivers its task after the visibility
  timeout; after REPORTS_MAX_ATTEMPTS attempts it is marked failed with the reason.
- A queued export no worker started for REPORTS_RESEND_SECONDS has its task sent again (the
  send may have failed while Redis was down).
- An export still rendering REPORTS_STUCK_MINUTES after it first started is marked failed.
A task sent twice does no harm: `work._start` starts an export only when no live worker is
on it, and a ready export is never rendered again.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from reports import conf
from reports.models import Export, ExportKind, ExportStatus
from reports.services import queue, work
from reports.services.status import status_changed


@dataclass
class Swept:
    requeued: int = 0  # its worker died: queued again
    resent: int = 0  # queued but never started: its task sent again
    failed: int = 0  # out of attempts, or rendering too long

    def __str__(self) -> str:
        return (
            f"{self.requeued} requeued (worker stopped), {self.resent} sent again "
            f"(never started), {self.failed} marked failed"
        )


# A whole-school export waits on its parts (each swept on its own) until every one is counted.
_WAITING_ON_PARTS = Q(
    kind=ExportKind.SCHOOL_ZIP, parts_total__gt=F("parts_done") + F("parts_failed")
)


def _send(export: Export) -> None:
    if export.kind == ExportKind.SCHOOL_ZIP:
        queue.send_zip(export.pk)
    else:
        queue.send_render(export.pk)


def _fail(export: Export, reason: str) -> None:
    """`reason` is already in the export's language (see `_sweep_one`)."""
    export.status = ExportStatus.FAILED
    export.error = reason
    export.finished_at = timezone.now()
    export.save(update_fields=["status", "error", "finished_at"])
    status_changed(export)
    if export.parent_id:
        work._count_part(export)


def _sweep_one(export: Export, swept: Swept) -> None:
    # A reason is for the person who asked: in their language.
    with translation.override(export.language):
        _sweep(export, swept)


def _sweep(export: Export, swept: Swept) -> None:
    now = timezone.now()
    if export.status == ExportStatus.RENDERING:
        if export.started_at and export.started_at < now - conf.stuck_after():
            minutes = int(conf.stuck_after().total_seconds() // 60)
            _fail(
                export,
                ngettext(
                    "This export was still not finished after %(minutes)s minute. Try again.",
                    "This export was still not finished after %(minutes)s minutes. Try again.",
                    minutes,
                )
                % {"minutes": minutes},
            )
            swept.failed += 1
        elif export.updated_at < now - conf.abandoned_after():
            if export.attempts >= conf.max_attempts():
                _fail(
                    export,
                    gettext(
                        "The worker stopped without finishing this export, %(attempts)s times. "
                        "Try again; if it keeps failing, tell your administrator."
                    )
                    % {"attempts": export.attempts},
                )
                swept.failed += 1
            else:
                export.status = ExportStatus.QUEUED
                export.updated_at = now
                export.save(update_fields=["status", "updated_at"])
                status_changed(export)
                _send(export)
                swept.requeued += 1
    elif export.status == ExportStatus.QUEUED and export.updated_at < now - conf.resend_after():
        export.updated_at = now
        export.save(update_fields=["updated_at"])
        _send(export)
        swept.resent += 1


def exports_sweep_stuck() -> Swept:
    now = timezone.now()
    candidates = (
        Q(status=ExportStatus.RENDERING, updated_at__lt=now - conf.abandoned_after())
        | Q(status=ExportStatus.RENDERING, started_at__lt=now - conf.stuck_after())
        | Q(status=ExportStatus.QUEUED, updated_at__lt=now - conf.resend_after())
    )
    pks = (
        Export.objects.filter(candidates)
        .exclude(_WAITING_ON_PARTS)
        .order_by("parent_id", "pk")
        .values_list("pk", flat=True)
    )
    swept = Swept()
    for pk in pks:
        with transaction.atomic():
            # skip_locked: a row another transaction holds is being worked on, not stuck.
            export = (
                Export.objects.select_for_update(skip_locked=True)
                .filter(pk=pk)
                .exclude(_WAITING_ON_PARTS)
                .first()
            )
            if export is not None:
                _sweep_one(export, swept)
    return swept
