"""A Celery worker in the test process, and waiting for an export to reach a status."""

import time

from celery.contrib.testing.worker import start_worker

from config.celery import app as celery_app
from reports.models import Export


def wait_for(export: Export, statuses: set[str], timeout: float = 90) -> Export:
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        export.refresh_from_db()
        if not seen or seen[-1] != export.status:
            seen.append(export.status)
        if export.status in statuses:
            export.seen = seen
            return export
        time.sleep(0.1)
    raise AssertionError(f"export {export.pk} still {export.status} after {timeout}s: {seen}")


def worker():
    return start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=20)
