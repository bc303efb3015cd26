"""`make run` (scripts/run-dev) stops everything on Ctrl-C: the site, the Celery worker and the
worker's pool processes, as a teacher ending a lesson expects (a worker left behind keeps its
broker and its port's neighbour busy, and the next `make run` starts a second one)."""

import os
import signal
import subprocess
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import free_port, wait_until

ROOT = Path(__file__).resolve().parents[2]
# Generous: on a busy machine the worker and uvicorn's reloader take seconds each to start, and
# Celery's warm shutdown waits for its pool.
START_TIMEOUT = 180
STOP_TIMEOUT = 90


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def answers(port: int) -> bool:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)  # noqa: S310
    except urllib.error.HTTPError:
        return True  # 503 (a store still starting) is still the site answering
    except OSError:
        return False
    return True


@pytest.mark.worker
def test_ctrl_c_stops_the_site_the_worker_and_its_pool(tmp_path):
    port = free_port()
    # `make run`'s embedded defaults, in a directory of the test's own (SQLite, the SQLite
    # broker, the file cache): nothing shared with a `make run` on this machine or with CI's
    # PostgreSQL and Redis.
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "BOTBENCH_BROKER_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(HOST="127.0.0.1", PORT=str(port), BOTBENCH_VAR_DIR=str(tmp_path))
    # Its own session, as a terminal runs `make run`: Ctrl-C signals that whole process group.
    run = subprocess.Popen(
        [str(ROOT / "scripts" / "run-dev")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    output: list[str] = []
    reader = threading.Thread(target=lambda: output.extend(run.stdout), daemon=True)
    reader.start()
    try:
        wait_until(lambda: answers(port), START_TIMEOUT, "the site to answer")
        wait_until(lambda: any(" ready." in line for line in output), START_TIMEOUT, "the worker")
        os.killpg(run.pid, signal.SIGINT)
        run.wait(STOP_TIMEOUT)
        wait_until(lambda: not group_alive(run.pid), STOP_TIMEOUT, "every process to stop")
        assert not answers(port)
    finally:
        if group_alive(run.pid):
            os.killpg(run.pid, signal.SIGKILL)
        run.wait(10)
        reader.join(10)
