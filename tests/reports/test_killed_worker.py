"""A worker killed mid-render: its heartbeats stop, and the sweeper (run by Celery beat in the
next worker) queues the export again within seconds, long before Redis would redeliver the
unacknowledged task (the visibility timeout, 10 minutes). The next worker finishes the same
export, with exactly one file. Real worker processes, real PostgreSQL (the workers share the test
database), real Redis."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection

from reports import services
from reports.models import Export, ExportStatus
from tests.conftest import skip_without_server
from tests.reports.conftest import make_session
from tests.support.workers import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def _worker_env(media: Path) -> dict[str, str]:
    url = urlsplit(os.environ["DATABASE_URL"])
    # The same server, but the test database this test is running in.
    test_db = urlunsplit(url._replace(path="/" + settings.DATABASES["default"]["NAME"]))
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_TEST_NAME"}
    env.update(
        DATABASE_URL=test_db,
        REDIS_URL=settings.REDIS_URL,
        DJANGO_MEDIA_ROOT=str(media),
        SLOW_WRITE_SECONDS="30",
        # Redis would redeliver only after 10 minutes: the rescue must come from the sweeper.
        CELERY_VISIBILITY_TIMEOUT="600",
        REPORTS_HEARTBEAT_SECONDS="1",
        REPORTS_SWEEP_SECONDS="1",
        DJANGO_LOG_LEVEL="WARNING",
    )
    return env


def _start_worker(
    media: Path, app: str, name: str, log: Path, beat: bool = False
) -> subprocess.Popen:
    """A real worker process; `app` is the site's (`config`) or the one whose file writes are
    held back (`tests.reports.slow_worker`); `beat` runs Celery beat in it (the sweeper)."""
    celery = Path(sys.executable).with_name("celery")
    command = [
        str(celery),
        "-A",
        app,
        "worker",
        "--pool=solo",
        "-n",
        f"{name}@%h",
        "-l",
        "info",
    ]
    if beat:
        command += ["--beat"]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=_worker_env(media),
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_until(condition, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.1)


def _beaten(export: Export) -> bool:
    export.refresh_from_db()
    return export.started_at is not None and export.updated_at > export.started_at


def test_an_export_survives_its_worker_being_killed_mid_render(classroom, teacher, tmp_path):
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        skip_without_server("killing a worker needs PostgreSQL and Redis")
    media = Path(settings.MEDIA_ROOT)
    session = make_session(classroom, seed=6)
    first = _start_worker(
        media, app="tests.reports.slow_worker", name="doomed", log=tmp_path / "worker1.log"
    )
    second = None
    try:
        export, _ = services.export_request(target=session, by=teacher)
        wait_for(export, {ExportStatus.RENDERING}, timeout=60)
        # A heartbeat after the start: the worker is inside the render (slow_worker holds
        # the write 30 s).
        _wait_until(lambda: _beaten(export), timeout=60)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        export.refresh_from_db()
        assert export.status == ExportStatus.RENDERING and not export.file
        second = _start_worker(
            media, app="config", name="rescuer", log=tmp_path / "worker2.log", beat=True
        )
        wait_for(export, {ExportStatus.READY, ExportStatus.FAILED}, timeout=120)
    finally:
        _stop(first)
        if second is not None:
            _stop(second)
    log = (tmp_path / "worker2.log").read_text()
    assert export.status == ExportStatus.READY, f"{export.error}\n{log[-2000:]}"
    # Two attempts: the killed one, and the rescuer's after the sweeper queued it again (Redis
    # keeps the killed worker's task for 10 minutes, far beyond this wait).
    assert export.attempts == 2
    files = sorted(p.name for p in (media / "exports").iterdir())
    assert files == [Path(export.file.name).name], files
    assert Path(export.file.path).read_bytes().startswith(b"%PDF-")
    assert Export.objects.count() == 1
