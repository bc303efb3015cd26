"""A second web process serving this test's database (uvicorn, ASGI, unless told another
command), and a small reader of its Server-Sent Events, for the server-push tests."""

from __future__ import annotations

import asyncio
import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


def run_alone[T](coroutine: Coroutine[object, object, T]) -> T:
    """`asyncio.run` in a thread of its own: a browser test earlier in the run leaves
    Playwright's event loop running in the main thread, where asyncio.run refuses to start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    """The URL of the test database this process uses (SQLite file or PostgreSQL)."""
    config = connection.settings_dict
    if config["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{config['NAME']}"
    user = config.get("USER") or "postgres"
    auth = f"{user}:{config['PASSWORD']}" if config.get("PASSWORD") else user
    return f"postgres://{auth}@{config['HOST']}:{config['PORT'] or 5432}/{config['NAME']}"


def cookie_header(client: Client) -> str:
    return "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())


def stream_path(html: str) -> str:
    import re

    return unescape(re.search(r'data-sse-connect="([^"]+)"', html).group(1))


def uvicorn_command(port: int) -> list[str]:
    uvicorn = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1"]
    return [*uvicorn, "--port", str(port), "--log-level", "warning"]


@dataclass
class StreamServer:
    """A server of the site in its own process (uvicorn unless `command`, a function of the
    port), on the test database and this test's cache prefix."""

    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None
    command: Callable[[int], list[str]] = uvicorn_command
    # More environment for the server (e.g. its stream limits).
    env: dict[str, str] = field(default_factory=dict)

    def start(self) -> StreamServer:
        env = dict(os.environ)
        env.update(
            DATABASE_URL=database_url(),
            BOTBENCH_CACHE_PREFIX=cache.key_prefix,
            DJANGO_SECRET_KEY=settings.SECRET_KEY,
            DJANGO_DEBUG="1",
            DJANGO_SETTINGS_MODULE="config.settings",
        )
        if settings.REDIS_URL:
            env["REDIS_URL"] = settings.REDIS_URL
        env.update(self.env)
        self.process = subprocess.Popen(self.command(self.port), cwd=ROOT, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("The stream server stopped at start")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("The stream server did not start within a minute")

    def threads(self) -> int:
        """The OS threads the server process runs now."""
        status = Path(f"/proc/{self.process.pid}/status").read_text().splitlines()
        return int(next(line.split()[1] for line in status if line.startswith("Threads:")))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


class EventReader:
    """One open stream: `next_event()` returns (name, data) or raises TimeoutError."""

    def __init__(self, port: int, path: str, cookies: str = "", timeout: float = 60.0):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.conn.request("GET", path, headers={"Cookie": cookies, "Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.content_type = self.response.getheader("Content-Type", "")

    def next_event(self) -> tuple[str, str] | None:
        """The next event, or None when the server ended the stream."""
        name, data = "message", []
        while True:
            try:
                raw = self.response.readline()
            except TimeoutError:
                raise
            except OSError:
                return None
            if not raw:
                return None
            line = raw.decode().rstrip("\n")
            if line == "":
                if data or name != "message":
                    return name, "\n".join(data)
                continue
            field_name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if field_name == "event":
                name = value
            elif field_name == "data":
                data.append(value)

    def wait_for(
        self, wanted: str, seen: list | None = None, *, pings: int | None = None
    ) -> tuple[str, str]:
        """Read events until one named `wanted` (the others go to `seen`). With `pings`, fail
        after that many pings instead: the stream is alive, and the event is not coming."""
        while True:
            event = self.next_event()
            if event is None:
                raise AssertionError(f"The stream ended before an event {wanted!r}")
            if seen is not None:
                seen.append(event)
            if event[0] == wanted:
                return event
            if event[0] == "ping" and pings is not None:
                pings -= 1
                if pings < 0:
                    raise AssertionError(f"The stream went on pinging without an event {wanted!r}")

    def close(self) -> None:
        self.conn.close()
