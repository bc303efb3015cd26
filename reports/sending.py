"""Getting export work to a worker, and showing that a worker is still on it.

Sends happen after the row commits (`transaction.on_commit`). A send that fails (Redis down) is
logged and dropped, never raised: the row stays queued, which is the truth, and the sweeper
(`exports_sweep_stuck`, run by Celery beat every REPORTS_SWEEP_SECONDS) sends it again. A task
sent twice is harmless: services start an export only once (see `services._start`).

While a worker renders, a thread touches the row's `updated_at` every REPORTS_HEARTBEAT_SECONDS,
so the sweeper can tell a long render from a worker that died (no heartbeat for three beats) and
hand the export on after seconds rather than after Redis's visibility timeout (10 minutes).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction
from django.utils import timezone

from reports import conf
from reports.models import Export, ExportStatus

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


@contextmanager
def heartbeat(export_id: int) -> Iterator[None]:
    """Touch the rendering export's row every few seconds while the block runs."""
    every = conf.heartbeat_seconds()
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(every):
                try:
                    Export.objects.filter(pk=export_id, status=ExportStatus.RENDERING).update(
                        updated_at=timezone.now()
                    )
                except Exception:  # noqa: BLE001 - a missed beat only makes the sweeper act
                    logger.warning("Export %s: heartbeat failed", export_id, exc_info=True)
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=beat, name=f"export-{export_id}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=every + 10)
