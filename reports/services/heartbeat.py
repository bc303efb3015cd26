"""While a worker renders, a thread touches the export's `updated_at` every
REPORTS_HEARTBEAT_SECONDS, so the sweeper can tell a long render from a worker that died (no
heartbeat for three beats) and hand the export on after seconds rather than after Redis's
visibility timeout (10 minutes)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection
from django.utils import timezone

from reports import conf
from reports.models import Export, ExportStatus

logger = logging.getLogger(__name__)


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
