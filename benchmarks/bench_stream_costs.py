"""What open streams cost a stream process, and what one phone flooding it costs the others.

    .venv/bin/python benchmarks/bench_stream_costs.py                  # this tree
    .venv/bin/python benchmarks/bench_stream_costs.py --site-root ../before

One uvicorn process (as `make run` serves: pages and streams in one process), on a PostgreSQL
database and Redis db of its own, one seeded class whose devices joined as the join page would
have them. Two parts:

1. **Idle streams**: threads, memory (RSS) and Redis connections of the process with one stream
   open, then with `--streams` (2,000) open, spread over the class's devices. The stream limits
   are raised for this part (every stream comes from 127.0.0.1 and a few devices): it measures
   what a stream costs, not how many one phone may hold.
2. **A flood**: one phone's cookie opens `--flood` (300) streams at once, `--rounds` (20)
   times, with the default limits, from a process of its own, while another phone re-loads its
   page one request after another and the rest of the class holds its streams open, as in a
   lesson. Prints the other phone's page p95 between and during the floods, and how many of each
   flood's opens were refused, opened, and still open after. Served as
   `make run` serves (`--flood-on make-run`, the default: pages and streams share the one
   process) or as compose serves (`--flood-on compose`: nginx from docker/nginx.conf, the page
   from granian, the streams from the stream tier, as benchmarks/topology.py starts them).
   `--control` sends the floods to a bare nginx that refuses everything instead: on a machine
   where the flooding client shares the cores, what the flooding alone costs the page. Then
   five more floods with nothing else sent, and the CPU each part took a flood (proxy, tiers,
   PostgreSQL, the flooding client and, with --control, its nginx): on a 2-core machine, what
   the page waited behind.

Run it on the tree before a change with `--site-root` (see README.md: alternate before/after).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from html import unescape
from pathlib import Path

import harness
import psutil
import topology

REDIS_DB = 7
REDIS_PORT = 6379  # harness.prepared_site's Redis
DB_NAME = "bench_stream_costs"
CPU_ROUNDS = 5  # floods with nothing else sent, to read what one costs each part
# A page load counts as between floods (the usual p95 the goal compares with) from this long
# after a flood's opens ended: the server is then done refusing, and the few streams a flood
# opened are only held.
SETTLE = 0.5


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--flood", type=int, default=300)
    parser.add_argument("--at-once", type=int, default=300, help="a flood's opens in flight")
    # A flood lasts 0.05-0.2 s: 5 rounds gave some 30 page loads during them, so their p95 was
    # nearly the slowest one; 20 give 100-150.
    parser.add_argument("--rounds", type=int, default=20, help="floods one after another")
    parser.add_argument("--page-loads", type=int, default=200, help="the other phone's, alone")
    parser.add_argument(
        "--flood-on",
        choices=("make-run", "compose"),
        default="make-run",
        help="one uvicorn process, or compose's topology behind nginx",
    )
    parser.add_argument(
        "--flooder-nice",
        type=int,
        default=19,
        help="the flooding process's niceness: 19 (the default) stands for a phone of its own, "
        "0 lets it take the server's cores as much as the server does (see --control)",
    )
    parser.add_argument(
        "--control",
        action="store_true",
        help="send the floods to a bare nginx that answers every request 429, not to the site: "
        "what the flooding client alone costs the other phone's page on this machine",
    )
    parser.add_argument("--site-root", type=Path, default=harness.ROOT)
    parser.add_argument("--redis-db", type=int, default=REDIS_DB)
    return parser.parse_args()


def uvicorn(env: dict[str, str], site_root: Path, port: int, **more: str) -> subprocess.Popen:
    command = [str(harness.PYTHON), "-m", "uvicorn", "config.asgi:application"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    process = subprocess.Popen(command, cwd=site_root, env={**env, **more})
    harness.wait_until_serving(port, process, "/healthz")
    return process


def threads_and_rss(pid: int) -> tuple[int, float]:
    process = psutil.Process(pid)
    return process.num_threads(), process.memory_info().rss / 2**20


async def request(port: int, path: str, cookie: str) -> tuple[asyncio.StreamReader, object]:
    """Sends a GET; returns the reader after the status line and headers, and the writer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        writer.close()
        raise RuntimeError(f"{path}: {status!r}")
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    return reader, writer


async def get_page(port: int, path: str, cookie: str) -> bytes:
    """The whole answer (status line, headers, body) of a GET on a connection of its own."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n"
        "Connection: close\r\n\r\n".encode()
    )
    answer = await asyncio.wait_for(reader.read(), 30)
    writer.close()
    if b" 200 " not in answer.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"{path}: {answer[:80]!r}")
    return answer


def stream_path(html: bytes) -> str:
    return unescape(re.search(r'data-sse-connect="([^"]+)"', html.decode()).group(1))


async def open_stream(port: int, path: str, cookie: str):
    reader, writer = await request(port, path, cookie)
    async for line in reader:  # up to the first event: the stream is listening
        if line.startswith(b"event: hello"):
            return reader, writer
    raise RuntimeError("a stream ended before saying hello")


async def page_time(port: int, cookie: str) -> float:
    started = time.perf_counter()
    await get_page(port, "/play/", cookie)
    return time.perf_counter() - started


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] * 1000


async def idle_streams(port: int, pid: int, paths: list[tuple[str, str]], count: int) -> None:
    first = await open_stream(port, *paths[0])
    threads_one, rss_one = threads_and_rss(pid)
    redis_one = harness.connections_to(pid, REDIS_PORT)
    opened = [first]
    for start in range(1, count, 100):  # a hundred at a time, as a class's screens arrive
        batch = [
            open_stream(port, *paths[i % len(paths)]) for i in range(start, min(count, start + 100))
        ]
        opened += await asyncio.gather(*batch)
    await asyncio.sleep(2)  # let the process settle (the streams' first pings are 20 s away)
    threads_all, rss_all = threads_and_rss(pid)
    redis_all = harness.connections_to(pid, REDIS_PORT)
    print(
        f"idle streams: 1 open: {threads_one} threads, {rss_one:.0f} MB RSS, "
        f"{redis_one} Redis connections"
    )
    print(
        f"idle streams: {len(opened)} open: {threads_all} threads, {rss_all:.0f} MB RSS, "
        f"{redis_all} Redis connections (+{threads_all - threads_one} threads, "
        f"+{rss_all - rss_one:.0f} MB, {(rss_all - rss_one) * 1024 / (len(opened) - 1):.0f} KB "
        f"a stream, +{redis_all - redis_one} Redis connections)"
    )
    for _, writer in opened:
        writer.close()


async def flood_rounds(
    port: int, flooder: tuple[str, str], count: int, rounds: int, at_once: int
) -> list:
    """`rounds` times: `count` opens from one cookie, `at_once` in flight; when the opens began
    and ended (`time.monotonic`, the same clock in every process), how many were refused,
    opened, and still open a moment after (the others were told `replaced`, or ended)."""

    async def still_open(reader) -> bool:
        try:
            async with asyncio.timeout(3):
                async for line in reader:
                    if line.startswith(b"event: replaced"):
                        return False
                return False  # ended
        except TimeoutError:
            return True

    gate = asyncio.Semaphore(at_once)

    async def one_open():
        async with gate:
            return await open_stream(port, *flooder)

    results = []
    for _ in range(rounds):
        started = time.monotonic()
        tries = await asyncio.gather(*[one_open() for _ in range(count)], return_exceptions=True)
        ended = time.monotonic()
        opened = [each for each in tries if not isinstance(each, Exception)]
        refused = [str(each) for each in tries if isinstance(each, Exception)]
        if any(" 429 " not in error for error in refused):
            raise RuntimeError(f"a flood's open failed otherwise than 429: {refused[:3]}")
        open_after = sum(await asyncio.gather(*[still_open(reader) for reader, _ in opened]))
        for _, writer in opened:
            writer.close()
        results.append((started, ended, len(refused), len(opened), open_after))
    return results


def flood_child(port, flooder, count, rounds, at_once, nice, out) -> None:
    """Floods `port`, or with None (--control) a bare nginx of its own. Puts the floods' results
    and the CPU seconds of this process and of its nginx (ended, so counted as its children).

    In a classroom the flooding phone computes on its own CPU. Here it shares two cores with
    every server part and the measuring phone, and at the same priority its own work was most
    of what the page waited behind (the control: x1.4-2.1). At `nice` 19 it runs on whatever
    the others leave idle, the nearest this machine comes to a phone of its own; each flood's
    duration is printed, so a flood slowed by it would show."""
    os.nice(nice)
    control = port is None
    with bare_refuser() if control else contextlib.nullcontext(port) as port:
        results = asyncio.run(flood_rounds(port, flooder, count, rounds, at_once))
    cpu = {"the flooding client": cpu_seconds(resource.RUSAGE_SELF)}
    if control:
        cpu["its nginx"] = cpu_seconds(resource.RUSAGE_CHILDREN)
    out.put((results, cpu))


def cpu_seconds(whose: int) -> float:
    usage = resource.getrusage(whose)
    return usage.ru_utime + usage.ru_stime


@contextlib.contextmanager
def streams_held(port: int, paths: list[tuple[str, str]]):
    """These screens hold their streams open for the block (from a thread and loop of their
    own), as a class's screens do through a lesson."""
    loop = asyncio.new_event_loop()
    opened = threading.Event()
    release = loop.create_future()

    async def hold() -> None:
        streams = await asyncio.gather(*(open_stream(port, *path) for path in paths))
        opened.set()
        await release
        for _, writer in streams:
            writer.close()

    holder = threading.Thread(target=loop.run_until_complete, args=(hold(),))
    holder.start()
    try:
        if not opened.wait(60):
            raise RuntimeError("the class's streams did not open")
        yield
    finally:
        loop.call_soon_threadsafe(release.set_result, None)
        holder.join()
        loop.close()


def flood(
    port: int, servers: dict, flooder: tuple[str, str], other: str, args: argparse.Namespace
) -> None:
    """The other phone's page loads, one after another, alone and then through the floods of a
    process of its own (so the flooder's client work does not slow the measuring). Then a few
    floods with nothing else sent, and the CPU each part took a flood (`servers`: each serving
    part's processes, name: a function listing them).

    The goal compares the loads during the floods with the loads between them, in the same
    seconds: on this shared machine a block of loads taken before the floods (still printed)
    met another moment's neighbours, so the ratio against it moved with the machine's drift."""
    count, rounds = args.flood, args.rounds
    alone = [asyncio.run(page_time(port, other)) for _ in range(args.page_loads)]
    loads = []  # (began, ended, took) on time.monotonic, the flooding process's clock too

    def load_the_page() -> None:
        began = time.monotonic()
        took = asyncio.run(page_time(port, other))
        loads.append((began, time.monotonic(), took))

    results, _ = floods(port, flooder, args, rounds, load_the_page)
    spans = [(started, ended) for started, ended, *_ in results]
    during = [took for began, ended, took in loads if overlaps(began, ended, spans)]
    settled = [(start, end + SETTLE) for start, end in spans]
    between = [took for began, ended, took in loads if not overlaps(began, ended, settled)]
    for started, ended, refused, opened, open_after in results:
        print(
            f"flood: {count} opens from one cookie took {ended - started:.2f} s: {refused} "
            f"refused (429), {opened} opened, {open_after} of them still open after"
        )
    print(
        f"flood: other phone's page p95 {p95(between):.0f} ms between the floods "
        f"({len(between)} loads, from {SETTLE} s after each), {p95(during):.0f} ms during "
        f"{rounds} floods ({len(during)} loads); ratio {p95(during) / p95(between):.2f} "
        f"(against {p95(alone):.0f} ms alone before them, {len(alone)} loads: "
        f"{p95(during) / p95(alone):.2f})"
    )
    durations = [ended - started for started, ended, *_ in results]
    print(
        f"flood: each flood's {count} opens took {statistics.median(durations):.2f} s "
        f"(median; {min(durations):.2f}-{max(durations):.2f})"
    )
    # The serving parts also work with no flood (the class's held streams, PostgreSQL's own
    # processes) through the seconds a flood round lasts (it waits to see what stayed open):
    # the same span with nothing sent is taken off, leaving what the floods cost.
    parts = {**servers, "PostgreSQL": lambda: topology.postgres_processes(DB_NAME)}
    started = time.perf_counter()
    with cpu_of(parts) as flooded:
        _, client = floods(port, flooder, args, CPU_ROUNDS, lambda: time.sleep(0.05))
    with cpu_of(parts) as idle:
        time.sleep(time.perf_counter() - started)
    spent = {**client, **{name: flooded[name] - idle[name] for name in parts}}
    print(
        f"flood: CPU a flood took ({CPU_ROUNDS} more, nothing else sent; the serving parts' "
        "less the same time idle), "
        + ", ".join(f"{name} {cpu * 1000 / CPU_ROUNDS:.0f} ms" for name, cpu in spent.items())
    )


@contextlib.contextmanager
def cpu_of(parts: dict):
    """CPU seconds each part's processes (name: a function listing them) spent in the block,
    filled in as it ends."""
    meters = {name: topology.CpuMeter(find) for name, find in parts.items()}
    for meter in meters.values():
        meter.start()
    spent: dict[str, float] = {}
    yield spent
    spent.update({name: meter.stop() for name, meter in meters.items()})


def overlaps(began: float, ended: float, spans: list[tuple[float, float]]) -> bool:
    return any(began <= end and ended >= start for start, end in spans)


def floods(port: int, flooder: tuple[str, str], args, rounds: int, meanwhile) -> tuple:
    """`rounds` floods from a process of their own (to the site, or with --control to a bare
    nginx of its own), `meanwhile()` called over and over until they end; returns their
    results and the CPU seconds of the flooding client and of its nginx."""
    fork = multiprocessing.get_context("fork")
    out = fork.Queue()
    target = None if args.control else port
    child = fork.Process(
        target=flood_child,
        args=(target, flooder, args.flood, rounds, args.at_once, args.flooder_nice, out),
    )
    child.start()
    while child.is_alive() and out.empty():
        meanwhile()
    answer = out.get(timeout=300)
    child.join()
    return answer


def main() -> int:
    args = parse_args()
    site_root = args.site_root.resolve()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(
        resource.RLIMIT_NOFILE, (max(soft, min(hard, 2 * args.streams + 1024)), hard)
    )
    print(f"tree: {site_root}")
    with harness.prepared_site(
        "bench-stream-costs-",
        db_name=DB_NAME,
        redis_db=args.redis_db,
        pool_max=8,
        cache_prefix="bench-stream-costs",
        flush=True,
        tree=site_root,
    ) as (env, _var_dir):
        harness.setup_django(env, site_root)
        [klass] = harness.seed_classes(school="Stream costs", domain="streams.bench", classes=1)
        cookies = [device.cookie for device in klass.devices]
        harness.close_django_connections()

        port = harness.free_port()
        unlimited = {
            "BOTBENCH_STREAMS_PER_DEVICE": "100000",
            "BOTBENCH_STREAMS_PER_ADDRESS": "100000",
            "BOTBENCH_STREAM_OPEN_BURST": "100000",
        }
        server = uvicorn(env, site_root, port, **unlimited)
        try:
            paths = [(stream_path(asyncio.run(get_page(port, "/play/", c))), c) for c in cookies]
            asyncio.run(idle_streams(port, server.pid, paths, args.streams))
        finally:
            harness.stop(server)

        print(f"flood on: {args.flood_on}")
        with flood_target(args.flood_on, env, site_root) as (port, servers):
            paths = [(stream_path(asyncio.run(get_page(port, "/play/", c))), c) for c in cookies]
            # The rest of the class is in the lesson: its screens' streams are open throughout.
            with streams_held(port, paths[2:]):
                flood(port, servers, paths[0], cookies[1], args)
    return 0


@contextlib.contextmanager
def bare_refuser():
    """An nginx of one worker that answers every request 429 at once: the --control flood's
    target. Yields its port."""
    prefix = Path(tempfile.mkdtemp(prefix="botbench-refuser-"))
    port = harness.free_port()
    (prefix / "nginx.conf").write_text(
        "worker_processes 1;\nevents { worker_connections 4096; }\nhttp {\n"
        f"{harness.temp_paths(prefix)}    access_log off;\n"
        f"    server {{ listen 127.0.0.1:{port}; location / {{ return 429; }} }}\n}}\n"
    )
    command = ["nginx", "-p", str(prefix), "-e", str(prefix / "error.log")]
    command += ["-c", str(prefix / "nginx.conf"), "-g", f"daemon off; pid {prefix}/nginx.pid;"]
    process = subprocess.Popen(command)
    try:
        harness.wait_until_serving(port, process, "/")
        yield port
    finally:
        harness.stop(process)
        shutil.rmtree(prefix, ignore_errors=True)


@contextlib.contextmanager
def flood_target(served_by: str, env: dict[str, str], site_root: Path):
    """The port a flood and the other phone's pages go to, and the serving processes by part
    (see `flood`)."""
    if served_by == "compose":
        # The tree's own docker/: its proxy's limits are part of what a flood meets.
        with topology.topology(env, cwd=site_root, deployment=site_root) as served:
            yield (
                served.proxy.port,
                {
                    "proxy": served.proxy_processes,
                    "web tier": served.web[0].processes,
                    "stream tier": served.streams[0].processes,
                },
            )
        return
    port = harness.free_port()
    server = uvicorn(env, site_root, port)
    try:
        yield port, {"site": lambda: [psutil.Process(server.pid)]}
    finally:
        harness.stop(server)


if __name__ == "__main__":
    sys.exit(main())
