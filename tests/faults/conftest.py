"""Faults during a lesson, made real: a private `redis-server` on a port of its own (never the
shared one) that a test can fill, stop and start again, and PostgreSQL connections ended with
pg_terminate_backend. Every fault test needs PostgreSQL, the production database."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import redis
from django.db import connection

from config import cache as degrading_cache
from config.celery import app as celery_app
from games import live
from tests.conftest import skip_without_server, wait_until

PORTS = range(8140, 8150)


def _free_port() -> int:
    for port in PORTS:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1} for a private Redis")


class PrivateRedis:
    """A redis-server of the test's own. `stop()` shuts it down saving its data (a production
    Redis with persistence comes back with the keys it had: possibly stale ones)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = _free_port()
        self.process: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=5)

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", "no",
                "--daemonize", "no",
                "--dir", str(self.folder),
                "--dbfilename", "dump.rdb",
            ],
            stdout=(self.folder / "redis.log").open("a"),
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        wait_until(self._answers, 20, f"the private redis-server on port {self.port} answers")

    def _answers(self) -> bool:
        try:
            return bool(self.client().ping())
        except redis.ConnectionError:
            return False

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(redis.ConnectionError):  # it closes the connection as it goes
            self.client().shutdown(save=True)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def refuse_writes(self) -> None:
        """`maxmemory` reached: every command that may grow memory is refused (OOM)."""
        self.client().config_set("maxmemory-policy", "noeviction")
        self.client().config_set("maxmemory", 1)

    def accept_writes(self) -> None:
        self.client().config_set("maxmemory", 0)


def _use_broker(url: str) -> None:
    celery_app.conf.broker_url = url
    # Connections are pooled per URL: drop the pools so the next send uses `url`.
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def private_redis(settings, tmp_path) -> Iterator[PrivateRedis]:
    """A private Redis serving as this test's cache and Celery broker."""
    if connection.vendor != "postgresql":
        skip_without_server("fault tests run on PostgreSQL")
    if shutil.which("redis-server") is None:
        skip_without_server("fault tests start a private redis-server")
    server = PrivateRedis(tmp_path)
    server.start()
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.DegradingRedisCache",
            "LOCATION": server.url(),
            "KEY_PREFIX": "faults",
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
        }
    }
    previous_broker = celery_app.conf.broker_url
    _use_broker(server.url(1))
    try:
        yield server
    finally:
        _use_broker(previous_broker)
        server.stop()
        # Process-wide memory of the faults: none may leak into the next test.
        degrading_cache._Health.paused_until = 0.0
        live._unsent.clear()


def connect_outside_the_pool(dbname: str | None = None) -> psycopg.Connection:
    """A connection of the test's own to the test database's server (to `dbname`, the test
    database unless told), in autocommit, outside Django's pool."""
    params = connection.settings_dict
    return psycopg.connect(
        host=params["HOST"] or None,
        port=params["PORT"] or None,
        user=params["USER"] or None,
        password=params["PASSWORD"] or None,
        dbname=dbname or params["NAME"],
        autocommit=True,
    )


def end_server_processes(admin: psycopg.Connection, pids: list[int]) -> set[int]:
    """pg_terminate_backend each of `pids`; return those it ended, once they have exited (it
    only signals a process: a restart has them gone before the site's next request)."""
    rows = admin.execute(
        "SELECT pid, pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [pids]
    ).fetchall()
    ended = [pid for pid, done in rows if done]

    def exited() -> bool:
        alive = admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [ended]
        ).fetchone()[0]
        return alive == 0

    wait_until(exited, timeout=30, what="the ended server processes exit")
    return set(ended)
