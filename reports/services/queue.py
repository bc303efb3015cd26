"""Sending the export tasks, always once the transaction that saved their row commits (the
row is the truth; a task sent before it exists would find nothing).

A send that fails (Redis down) is logged and dropped, never raised: the row stays queued, which
is the truth, and the sweeper (`services.sweep`, run by Celery beat every REPORTS_SWEEP_SECONDS)
sends it again. A task sent twice is harmless: `work._start` starts an export only once.
"""

from __future__ import annotations

import logging

from django.db import transaction

logger = logging.getLogger(__name__)


def _send(task_name: str, export_id: int) -> None:
    from reports import tasks

    task = getattr(tasks, task_name)
    try:
        task.delay(export_id)
    except Exception:  # noqa: BLE001 - the broker is down; the sweeper sends it again
        logger.warning(
            "Export %s: could not reach the broker; it stays queued for the sweeper",
            export_id,
            exc_info=True,
        )


def send_render(export_id: int) -> None:
    transaction.on_commit(lambda: _send("render_export", export_id))


def send_zip(export_id: int) -> None:
    transaction.on_commit(lambda: _send("zip_school_export", export_id))
