"""Compose's topology on loopback, for the load benchmark and the tests that kill a process of it:
nginx from the repo's own docker/nginx.conf in front of N web servers (granian, WSGI) and M
stream servers (the ASGI tier), each started with the command docker/compose.yaml gives its
service, on PostgreSQL and Redis of this machine.

Each server is a "node": its own port, listed in nginx's upstream as compose's DNS lists every
container of a scaled service (`docker compose up --scale web=2 --scale stream=2`). A node can be
killed (SIGKILL, master and workers at once) as a machine dies.

Not named bench_*: `make bench` runs every benchmarks/bench_*.py. The tests import it (after
putting benchmarks/ on sys.path), so there is one launcher for both.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import harness

ROOT = harness.ROOT
# A backend's title: "postgres: [<cluster>: ]<user> <database> <client address>(<port>) <state>".
BACKEND = re.compile(r"^postgres: (?:\S+: )?\S+ (?P<database>\S+) (\d[\d.]*\(\d+\)|\[local\])")
COMPOSE = ROOT / "docker" / "compose.yaml"
BIN = ROOT / ".venv" / "bin"


def compose_command(service: str, compose: Path = COMPOSE) -> list[str]:
    """The command docker/compose.yaml runs `service` with."""
    import yaml

    return list(yaml.safe_load(compose.read_text())["services"][service]["command"])


def _set(command: list[str], option: str, value: str) -> list[str]:
    """`command` with `option`'s value replaced (added when the command has none)."""
    command = list(command)
    if option in command:
        command[command.index(option) + 1] = value
    else:
        command += [option, value]
    return command


def on_loopback(command: list[str], port: int, workers: int | None) -> list[str]:
    """A compose command bound to 127.0.0.1:`port` (granian and uvicorn take --host/--port,
    gunicorn --bind), with `workers` processes unless None, run from this tree's virtualenv."""
    if "--bind" in command:
        command = _set(command, "--bind", f"127.0.0.1:{port}")
    else:
        command = _set(_set(command, "--host", "127.0.0.1"), "--port", str(port))
    if workers is not None:
        command = _set(command, "--workers", str(workers))
    if (BIN / command[0]).exists():
        command[0] = str(BIN / command[0])
    return command


@dataclass
class Node:
    """One server of a tier: its master process and port."""

    tier: str
    process: subprocess.Popen
    port: int

    def processes(self) -> list:
        import psutil

        try:
            master = psutil.Process(self.process.pid)
            return [master, *master.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def kill(self) -> None:
        """SIGKILL the master and every worker at once: nothing closes gracefully, as when a
        machine or a container dies."""
        for process in self.processes():
            try:
                process.send_signal(signal.SIGKILL)
            except Exception:  # noqa: BLE001, S112 - gone already
                continue
        self.process.wait()


@dataclass
class Topology:
    proxy: harness.Server
    web: list[Node]
    streams: list[Node]
    stores: list = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.proxy.port}"

    def proxy_processes(self) -> list:
        import psutil

        master = psutil.Process(self.proxy.process.pid)
        return [master, *master.children(recursive=True)]


@contextmanager
def _node(tier: str, command: list[str], port: int, env: dict[str, str], cwd: Path):
    # Compose keeps the stream tier's access log on its standard output: kept, and dropped here.
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL)
    try:
        harness.wait_until_serving(port, process, "/healthz")
        yield Node(tier, process, port)
    finally:
        harness.stop(process)


@contextmanager
def topology(
    env: dict[str, str],
    *,
    web: int = 1,
    streams: int = 1,
    web_workers: int | None = None,
    stream_workers: int | None = None,
    cwd: Path = ROOT,
    deployment: Path = ROOT,
) -> Iterator[Topology]:
    """`web` web nodes and `streams` stream nodes (each with compose's worker count unless
    given) of the tree `cwd`, run as `deployment`/docker/ (compose.yaml's commands, nginx.conf)
    runs them, behind that nginx, for the block. This checkout's docker/ by default, also for an
    older tree: a before/after then compares the code, not the deployment."""
    # The proxy's address is the site's: nginx passes Host without the port, so the pages'
    # Origin (with it) must be trusted as compose's BOTBENCH_ORIGINS is.
    port = harness.free_port()
    env = dict(env)
    origins = [env["DJANGO_CSRF_TRUSTED_ORIGINS"]] if env.get("DJANGO_CSRF_TRUSTED_ORIGINS") else []
    origins += [f"http://127.0.0.1:{port}", f"http://localhost:{port}"]
    env["DJANGO_CSRF_TRUSTED_ORIGINS"] = ",".join(origins)
    web_command = compose_command("web", deployment / "docker" / "compose.yaml")
    stream_command = compose_command("stream", deployment / "docker" / "compose.yaml")
    with ExitStack() as stack:
        webs, streams_ = [], []
        for n in range(web + streams):
            tier, base, workers = (
                ("web", web_command, web_workers)
                if n < web
                else ("stream", stream_command, stream_workers)
            )
            node_port = harness.free_port()
            command = on_loopback(base, node_port, workers)
            node = stack.enter_context(_node(tier, command, node_port, env, cwd))
            (webs if tier == "web" else streams_).append(node)
        proxy = stack.enter_context(
            harness.proxy(
                deployment / "docker" / "nginx.conf",
                web=[n.port for n in webs],
                stream=[n.port for n in streams_],
                port=port,
            )
        )
        yield Topology(proxy, webs, streams_)


@contextmanager
def private_redis() -> Iterator[int]:
    """A redis-server of its own on a free port (persisting as compose's does, to a temporary
    folder), so its CPU is this run's alone; yields the port."""
    port = harness.free_port()
    folder = tempfile.mkdtemp(prefix="botbench-redis-")
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--appendonly", "yes"]
        + ["--dir", folder, "--save", ""],
        stdout=subprocess.DEVNULL,
    )
    try:
        import redis

        deadline = time.monotonic() + 30
        while True:
            try:
                redis.Redis(port=port).ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.1)
        yield port
    finally:
        harness.stop(process)


def postgres_processes(database: str) -> list:
    """PostgreSQL's processes that work for `database`: its backends, and the server's own
    (checkpointer, WAL writer, ...), which other databases on this server share."""
    import psutil

    found = []
    for process in psutil.process_iter(["name", "cmdline"]):
        if "postgres" not in (process.info["name"] or ""):
            continue
        line = " ".join(process.info["cmdline"] or [])
        backend = BACKEND.match(line)
        if backend is None or backend["database"] == database:
            found.append(process)
    return found


class CpuMeter:
    """CPU seconds that processes spent between start() and stop(); a process first seen at
    stop() counts whole (a database backend opened meanwhile)."""

    def __init__(self, find) -> None:
        self.find = find
        self.before: dict[int, float] = {}

    @staticmethod
    def _cpu(process) -> float | None:
        try:
            times = process.cpu_times()
            return times.user + times.system
        except Exception:  # noqa: BLE001 - gone
            return None

    def start(self) -> None:
        self.before = {}
        for process in self.find():
            cpu = self._cpu(process)
            if cpu is not None:
                self.before[process.pid] = cpu

    def stop(self) -> float:
        total = 0.0
        for process in self.find():
            cpu = self._cpu(process)
            if cpu is not None:
                total += cpu - self.before.get(process.pid, 0.0)
        return total


def load_average() -> str:
    """The machine's 1-minute load and how busy it was before: printed beside every figure."""
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores"
