"""A realistic lesson load on server push: classes of 15 team phones, a projector grid and a
teacher dashboard, 3 tables a class, a move every 15-30 s per table.

    .venv/bin/python benchmarks/bench_lesson_load.py [--steps 10,25,50,100,150] [--seconds 60]
    .venv/bin/python benchmarks/bench_lesson_load.py --idle-streams 1700
    .venv/bin/python benchmarks/bench_lesson_load.py --site-root ../before  # an older checkout

Screens connect like the browser: the page, then its event stream, and on each `changed`
event a fetch of the region through the poll URL (plus the 10 s fallback poll). A share of the
screens (`--poll-only`) cannot hold a stream and polls every 1.5 s instead. The generator is one
asyncio loop (aiohttp), not a thread a screen; its own CPU is printed beside the server's.

Each step measures `--seconds` from when every screen has its page: the start of a lesson, when
the whole class loads its pages at once, is left out (its length is printed). The tables are
already under way then, each at its own point (its first move 0-30 s in), so moves come at their
steady rate for the whole window. For each step it prints percentiles measured by the client
(time to answer; a move's propagation from the move being sent to each other screen of its
table holding the redrawn region: `propagation` for the screens that learned of it by their
stream, `polled` for those that polled first, mostly the poll-only ones, which poll every
1.5 s; region fetches also by screen: phone, grid, dashboard) and, with `--server-times`, by
the server (the time its access log gives a request), errors, and CPU (the web and stream
tiers', the goal's "server CPU"; beside it PostgreSQL's and Redis's, and the whole machine's,
which includes what else this shared machine runs); the generator's loop lag (how late its
10 ms sleeps wake: time that every client figure includes but the server did not spend); then
the largest class count meeting the goals (move p95 <= 150 ms, fetch p95 <= 100 ms,
propagation p95 <= 300 ms on the streams, 0 errors, server CPU <= 80 %).

Pages, polls, fetches and moves reuse kept-alive connections, and each connection stays with
the worker process that accepted it, busy or not: with 3 gunicorn workers at 100 classes the
busiest did about twice the work of the least busy one. `--connection-per-request` opens one
for each instead, as nginx's `proxy_pass` does to an upstream without `keepalive`, so whichever
worker is free takes the next request: the workers' loads even out, but the connections cost
more than the balance gains (at 100 classes, client move p95 312 ms beside 213 ms kept alive),
which is why docker/nginx.conf keeps its connections alive. Streams are long-lived either way.

`--idle-streams N` opens N streams (the screens of N/17 classes) with nothing happening and
reports the server's memory and CPU with them open.

`--proxy` puts nginx in front of both tiers with the served tree's own docker/nginx.conf (its
upstreams pointed at the benchmark's servers), so every request takes compose's path; nginx's
CPU is printed beside the server's.

Serving as in production (docker/compose.yaml): granian (WSGI, 2 workers x 3 threads that run
Django unless `--workers`/`--threads`; `--web-server gunicorn` serves the web tier with gunicorn's
threaded workers instead, to compare) for pages, polls and moves, gunicorn with uvicorn workers
(ASGI) for the streams; PostgreSQL + Redis on loopback; its own database
(`botbench_bench_lesson`, dropped after) and Redis db `--redis-db`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import resource
import secrets
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
from load_players import FORM, MOVE_URL, PREFERENCES, percentile  # noqa: E402

POLL = re.compile(r'data-hx-get="([^"]+/poll/[^"]+)"')
STREAM = re.compile(r'data-sse-connect="([^"]+)"')
# The servers beside the site's: their CPU is printed apart from the goal's "server CPU".
STORES = {"postgres", "redis-server"}
GOALS = {"move": 150.0, "fetch": 100.0, "propagation": 300.0}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="10,25,50,100,150")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time a step")
    parser.add_argument("--poll-only", type=float, default=0.1, help="share of polling screens")
    # As docker/compose.yaml serves the web tier.
    parser.add_argument("--workers", type=int, default=2, help="web workers")
    parser.add_argument("--threads", type=int, default=3, help="threads a web worker")
    parser.add_argument(
        "--web-server",
        choices=["granian", "gunicorn"],
        default="granian",
        help="the web tier's server: granian as compose runs it, or gunicorn as it did before",
    )
    parser.add_argument(
        "--worker-class",
        default="gthread",
        help="with --web-server gunicorn: its worker class (sync: no threads)",
    )
    parser.add_argument(
        "--connection-per-request", action="store_true", help="no kept-alive web connections"
    )
    parser.add_argument(
        "--server-times",
        action="store_true",
        help="the web tier logs each request and its own times are printed (compose's keeps no"
        " access log: its proxy logs every request)",
    )
    parser.add_argument(
        "--proxy",
        action="store_true",
        help="through nginx with the served tree's docker/nginx.conf, as compose serves the site",
    )
    parser.add_argument("--idle-streams", type=int, default=0)
    parser.add_argument("--db-name", default="botbench_bench_lesson")
    parser.add_argument("--redis-db", type=int, default=7)
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument(
        "--site-root",
        type=Path,
        default=harness.ROOT,
        help="a checkout of BotBench to serve (e.g. an older commit, to measure the before)",
    )
    return parser.parse_args()


@dataclass
class Screen:
    kind: str  # device, grid or desk
    cookie: str
    page: str
    tables: list[int]
    push: bool
    html: str = ""
    seen: dict[int, int] = field(default_factory=dict)


@dataclass
class TableClock:
    moves: int = 0
    sent_at: float = 0.0


@dataclass
class Stats:
    times: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    events: int = 0

    def add(self, kind: str, seconds: float) -> None:
        self.times.setdefault(kind, []).append(seconds)


def seed(classes: int, env: dict[str, str], site_root: Path) -> list[list[Screen]]:
    """`classes` classes with started tables; for each, its 17 screens."""
    harness.setup_django(env, site_root)
    from django.test import Client

    from games.models import TableGame

    rooms = []
    for seeded in harness.seed_classes(
        school="Lesson Load Elementary", domain="lesson.test", classes=classes
    ):
        session = seeded.session
        game_of = dict(TableGame.objects.filter(session=session).values_list("table_id", "pk"))
        desk = Client()
        desk.force_login(seeded.teacher)
        teacher_cookie = f"sessionid={desk.cookies['sessionid'].value}"
        games = list(game_of.values())
        screens = [
            Screen("device", device.cookie, "/play/", [game_of[device.table]], True)
            for device in seeded.devices
        ]
        screens.append(
            Screen("grid", teacher_cookie, f"/play/sessions/{session.pk}/projector/", games, True)
        )
        screens.append(
            Screen("desk", teacher_cookie, f"/play/sessions/{session.pk}/tables/", games, True)
        )
        rooms.append(screens)
    return rooms


class Generator:
    def __init__(self, ports: tuple[int, int], stats: Stats, clocks: dict, stop: float):
        self.base = f"http://127.0.0.1:{ports[0]}"
        self.stream_base = f"http://127.0.0.1:{ports[1]}"
        self.stats, self.clocks, self.stop = stats, clocks, stop
        self.loaded = 0  # screens that have their page
        self.listening = 0  # screens whose stream is open
        # Pages, polls and moves: with --connection-per-request a session of their own that
        # keeps no connection alive; None sends them on the streams' session.
        self.web = None

    async def get(self, http, screen: Screen, path: str, kind: str):
        started = time.perf_counter()
        headers = {"Cookie": screen.cookie}
        if kind != "page":
            headers["HX-Request"] = "true"
        import aiohttp

        for attempt in range(2):
            try:
                async with (self.web or http).get(self.base + path, headers=headers) as response:
                    text = await response.text()
                break
            except aiohttp.ServerDisconnectedError:
                # A kept-alive connection the server closed meanwhile: browsers retry a GET too.
                if attempt:
                    raise
        if "csrftoken" in response.cookies and "csrftoken" not in screen.cookie:
            screen.cookie += f"; csrftoken={response.cookies['csrftoken'].value}"
        took = time.perf_counter() - started
        self.stats.add(kind, took)
        if kind == "fetch":
            self.stats.add(f"{kind} ({screen.kind})", took)
        if response.status not in (200, 204):
            self.stats.errors.append(f"{screen.kind} {kind} {response.status}")
        return response.status, text

    async def fetch(self, http, screen: Screen, kind: str) -> None:
        match = POLL.search(screen.html)
        status, text = await self.get(http, screen, unescape(match[1]), kind)
        if status == 200 and 'id="live"' in text:
            screen.html = text
            now = time.perf_counter()
            for table in screen.tables:
                clock = self.clocks.get(table)
                if clock and clock.moves > screen.seen.get(table, 0):
                    screen.seen[table] = clock.moves
                    # A stream's event or a poll (a poll-only screen's 1.5 s one, or a stream's
                    # 10 s fallback that came first): the goal is the stream's.
                    how = "propagation" if kind == "fetch" else "polled"
                    self.stats.add(how, now - clock.sent_at)
        elif status == 204 and "HX-Refresh" in text:
            self.stats.errors.append(f"{screen.kind} refresh")

    async def run_screen(self, http, screen: Screen) -> None:
        try:
            status, screen.html = await self.get(http, screen, screen.page, "page")
            self.loaded += 1
            for table in screen.tables:
                screen.seen[table] = self.clocks.setdefault(table, TableClock()).moves
            if not screen.push:
                while time.perf_counter() < self.stop:
                    await asyncio.sleep(1.5)
                    await self.fetch(http, screen, "poll")
                return
            stream = unescape(STREAM.search(screen.html)[1])
            fallback = asyncio.create_task(self.slow_poll(http, screen))
            try:
                await self.listen(http, screen, stream)
            finally:
                fallback.cancel()
        except (asyncio.CancelledError, TimeoutError):
            pass
        except Exception as exc:  # noqa: BLE001 - counted, never fatal
            self.stats.errors.append(f"{screen.kind}: {exc!r}")

    async def slow_poll(self, http, screen: Screen) -> None:
        await asyncio.sleep(random.uniform(0, 10))
        while time.perf_counter() < self.stop:
            await self.fetch(http, screen, "poll")
            await asyncio.sleep(10)

    async def listen(self, http, screen: Screen, stream: str) -> None:
        headers = {"Cookie": screen.cookie, "Accept": "text/event-stream"}
        remaining = self.stop - time.perf_counter()
        async with http.get(self.stream_base + stream, headers=headers) as response:
            if response.status != 200:
                said = (await response.text())[:120]
                self.stats.errors.append(f"{screen.kind} stream {response.status} {said!r}")
                return
            self.listening += 1
            event = ""
            while time.perf_counter() < self.stop:
                try:
                    raw = await asyncio.wait_for(response.content.readline(), remaining + 1)
                except TimeoutError:
                    return
                if not raw:
                    self.stats.errors.append(f"{screen.kind} stream ended")
                    return
                line = raw.decode().rstrip("\n")
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line == "" and event:
                    if event == "changed":
                        self.stats.events += 1
                        await self.fetch(http, screen, "fetch")
                    event = ""

    async def run_table(self, http, devices: list[Screen], table: int) -> None:
        clock = self.clocks.setdefault(table, TableClock())
        # Each table at its own point of the lesson: the moves come at their steady rate from
        # the measured window's first second (each table's first move 15-45 s in left the
        # window's first 15 s quiet, averaging the server's CPU down by a third).
        await asyncio.sleep(random.uniform(0, 30))
        while time.perf_counter() < self.stop:
            mover = next((d for d in devices if FORM.search(d.html)), None)
            if mover is None:  # the table's turn is a robot's, or its game is over
                await asyncio.sleep(random.uniform(15, 30))
                continue
            forms = FORM.findall(mover.html)
            token, action, version, move_id = choose(forms)
            body = urlencode(
                {
                    "csrfmiddlewaretoken": token,
                    "action": unescape(action),
                    "version": version,
                    "client_move_id": move_id,
                }
            )
            headers = {
                "Cookie": mover.cookie,
                "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded",
                "Referer": f"{self.base}/play/",
            }
            clock.moves += 1
            clock.sent_at = time.perf_counter()
            mover.seen[table] = clock.moves
            path = MOVE_URL.search(mover.html)[1]
            web = self.web or http
            async with web.post(self.base + path, data=body, headers=headers) as response:
                text = await response.text()
            self.stats.add("move", time.perf_counter() - clock.sent_at)
            if response.status != 200 or "alert-error" in text:
                alert = re.search(r'role="alert">([^<]+)', text)
                self.stats.errors.append(f"move {response.status} {alert and alert[1]}")
            else:
                mover.html = text
            await asyncio.sleep(random.uniform(15, 30))


async def watch_lag(stats: Stats, stop: float) -> None:
    """How late the generator's own loop wakes (a 10 ms sleep's overshoot): time a screen's
    answer waited for the generator, not the server, which every client figure includes."""
    while time.perf_counter() < stop:
        asked = time.perf_counter()
        await asyncio.sleep(0.01)
        stats.add("loop lag", time.perf_counter() - asked - 0.01)


def choose(forms):
    for pattern in PREFERENCES:
        for token, action, version, move_id, label in forms:
            if re.search(pattern, unescape(label)):
                return token, action, version, move_id
    raise AssertionError("no button")


def server_processes(master_pids: list[int]):
    import psutil

    processes = []
    for pid in master_pids:
        master = psutil.Process(pid)
        processes += [master, *master.children(recursive=True)]
    return processes


def cpu_seconds(processes) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
            total += times.user + times.system
        except Exception:  # noqa: BLE001, S112 - a worker that went away
            continue
    return total


def store_processes():
    """PostgreSQL's and Redis's processes (the whole servers: other databases share them)."""
    import psutil

    return [p for p in psutil.process_iter(["name"]) if p.info["name"] in STORES]


def machine_busy() -> tuple[float, float]:
    """(busy, all) CPU seconds of the whole machine so far: what else runs shows here too."""
    import psutil

    times = psutil.cpu_times()
    idle = times.idle + getattr(times, "iowait", 0.0)
    return sum(times) - idle, sum(times)


def rss_mb(processes) -> float:
    total = 0
    for process in processes:
        try:
            total += process.memory_info().rss
        except Exception:  # noqa: BLE001, S112
            continue
    return total / 2**20


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def run_step(
    ports, rooms, args, master_pids, var_dir: str, since: dict, proxy_pids=()
) -> dict:
    import aiohttp

    stats = Stats()
    clocks: dict[int, TableClock] = {}
    connect = 15.0
    # Until every screen has its page: then the measured time starts (see below).
    generator = Generator(ports, stats, clocks, time.perf_counter() + 3600)
    rng = random.Random(len(rooms))
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=None)
    web_connector = aiohttp.TCPConnector(limit=0, force_close=True)
    async with (
        aiohttp.ClientSession(
            connector=connector, cookie_jar=aiohttp.DummyCookieJar(), timeout=timeout
        ) as http,
        aiohttp.ClientSession(
            connector=web_connector, cookie_jar=aiohttp.DummyCookieJar(), timeout=timeout
        ) as web,
    ):
        generator.web = web if args.connection_per_request else None
        tasks = []
        for screens in rooms:
            for screen in screens:
                screen.push = rng.random() >= args.poll_only
                screen.seen = {}
                tasks.append(asyncio.create_task(generator.run_screen(http, screen)))
                await asyncio.sleep(connect / (len(rooms) * 17))  # screens arrive over 15 s
        # Measure from when every screen has its page (and opened its stream), not from when the
        # last one arrived: a class's 17 screens loading at once is the start of a lesson, not
        # its steady state, and at 50 classes the pages alone took longer than the 15 s.
        screens = len(tasks)
        started = time.perf_counter()
        while generator.loaded < screens and time.perf_counter() - started < 300:
            await asyncio.sleep(0.2)
        warm_up = time.perf_counter() - started
        await asyncio.sleep(2)  # the last streams connect
        for key in list(stats.times):
            stats.times[key] = []
        server_times(var_dir, since)  # the server's log from here on
        stop = generator.stop = time.perf_counter() + args.seconds
        processes, stores = server_processes(master_pids), store_processes()
        streams_tier = server_processes(master_pids[1:])
        proxies = server_processes(list(proxy_pids))
        cpu0, mine0, wall0 = cpu_seconds(processes), own_cpu(), time.perf_counter()
        streams0 = cpu_seconds(streams_tier)
        stores0, proxy0, machine0 = cpu_seconds(stores), cpu_seconds(proxies), machine_busy()
        tasks.append(asyncio.create_task(watch_lag(stats, stop)))
        for screens in rooms:
            for table in sorted({s.tables[0] for s in screens if s.kind == "device"}):
                devices = [s for s in screens if s.kind == "device" and s.tables == [table]]
                tasks.append(asyncio.create_task(generator.run_table(http, devices, table)))
        await asyncio.sleep(max(0.0, stop - time.perf_counter()))
        wall = time.perf_counter() - wall0
        cpu, mine = cpu_seconds(processes) - cpu0, own_cpu() - mine0
        streams_cpu = cpu_seconds(streams_tier) - streams0
        stores_cpu = cpu_seconds(stores) - stores0
        proxy_cpu = cpu_seconds(proxies) - proxy0
        busy, total = (now - then for now, then in zip(machine_busy(), machine0, strict=True))
        memory = rss_mb(processes)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    cores = os.cpu_count() or 1
    return {
        "stats": stats,
        "warm_up": warm_up,
        "server_cpu": 100 * cpu / (wall * cores),
        "streams_cpu": 100 * streams_cpu / (wall * cores),
        "generator_cpu": 100 * mine / (wall * cores),
        "stores_cpu": 100 * stores_cpu / (wall * cores),
        "proxy_cpu": 100 * proxy_cpu / (wall * cores),
        "machine_busy": 100 * busy / total,
        "memory": memory,
    }


def server_times(var_dir: str, since: dict[str, int]) -> dict[str, list[float]]:
    """The web tier's times inside the server (its access log) for the requests logged after the
    previous step's."""
    kinds: dict[str, list[float]] = {"move": [], "fetch/poll": []}
    logged = harness.access_times(Path(var_dir) / "access.log")
    for path, seconds in logged[since.get("log", 0) :]:
        if path.endswith("/move/"):
            kinds["move"].append(seconds)
        elif path.startswith("/play/poll/"):
            kinds["fetch/poll"].append(seconds)
    since["log"] = len(logged)
    return kinds


def describe(values: list[float]) -> str:
    return (
        f"n={len(values):6} p50={percentile(values, 50):7.1f} p95={percentile(values, 95):7.1f}"
        f" p99={percentile(values, 99):7.1f} ms"
    )


def meets_goals(result: dict) -> bool:
    times = result["stats"].times
    return (
        not result["stats"].errors
        and result["server_cpu"] <= 80
        and all(percentile(times.get(k, []), 95) <= limit for k, limit in GOALS.items())
    )


async def idle(ports, rooms, master_pids, seconds: float) -> None:
    import aiohttp

    processes = server_processes(master_pids)
    # The web tier grows too, by serving the 1,700 pages (its caches of drawings and templates),
    # not by holding streams: the stream tier is told apart.
    streams_tier = server_processes(master_pids[1:])
    before, streams_before = rss_mb(processes), rss_mb(streams_tier)
    stop = time.perf_counter() + 3600
    stats = Stats()
    generator = Generator(ports, stats, {}, stop)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(
        connector=connector, cookie_jar=aiohttp.DummyCookieJar()
    ) as http:
        tasks = []
        for screens in rooms:
            for screen in screens:
                screen.push = True
                tasks.append(asyncio.create_task(generator.listen_only(http, screen)))
                await asyncio.sleep(0.005)
        # Measure once every stream is open: loading 1,700 pages and opening their streams is
        # a minute of work for the server, and it is not what idle streams cost.
        started = time.perf_counter()
        while generator.listening < len(tasks) and time.perf_counter() - started < 300:
            await asyncio.sleep(0.5)
        await asyncio.sleep(5)
        processes = server_processes(master_pids)
        cpu0, wall0 = cpu_seconds(processes), time.perf_counter()
        await asyncio.sleep(seconds)
        cpu = cpu_seconds(processes) - cpu0
        wall = time.perf_counter() - wall0
        after, streams_after = rss_mb(processes), rss_mb(streams_tier)
        opened = sum(1 for task in tasks if not task.done())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(
        f"idle streams: {opened} open, server memory {before:.0f} MB before, {after:.0f} MB with"
        f" them ({after - before:+.0f} MB; the stream tier {streams_before:.0f} ->"
        f" {streams_after:.0f} MB, {streams_after - streams_before:+.0f} MB); server CPU"
        f" {100 * cpu / wall:.1f} % of one core over"
        f" {wall:.0f} s; errors {len(stats.errors)}"
    )


async def _listen_only(self, http, screen: Screen) -> None:
    status, screen.html = await self.get(http, screen, screen.page, "page")
    stream = unescape(STREAM.search(screen.html)[1])
    await self.listen(http, screen, stream)


Generator.listen_only = _listen_only


def main() -> int:
    args = parse_args()
    steps = [int(s) for s in args.steps.split(",")]
    classes = -(-args.idle_streams // 17) if args.idle_streams else max(steps)
    with harness.prepared_site(
        "botbench-lesson-",
        db_name=args.db_name,
        redis_db=args.redis_db,
        pool_max=8,
        cache_prefix=f"bench-lesson-{secrets.token_hex(4)}",
        keep_db=args.keep_db,
        tree=args.site_root,
    ) as (env, var_dir):
        started = time.perf_counter()
        rooms = seed(classes, env, args.site_root)
        print(f"seeded {classes} classes in {time.perf_counter() - started:.0f} s")
        with (
            harness.web_tier(
                args.web_server,
                env=env,
                workers=args.workers,
                threads=args.threads,
                worker_class=args.worker_class,
                access_log=Path(var_dir) / "access.log" if args.server_times else None,
                cwd=args.site_root,
            ) as pages,
            harness.gunicorn(
                "config.asgi:application",
                env=env,
                workers=1,
                worker_class=harness.WORKER_CLASS["asgi"],
                options=["--graceful-timeout", "5"],
                cwd=args.site_root,
            ) as streams,
            ExitStack() as stack,
        ):
            ports = (pages.port, streams.port)
            pids, proxy_pids = [pages.process.pid, streams.process.pid], []
            if args.proxy:
                conf = args.site_root / "docker" / "nginx.conf"
                proxy = stack.enter_context(harness.proxy(conf, web=ports[0], stream=ports[1]))
                ports, proxy_pids = (proxy.port, proxy.port), [proxy.process.pid]
            if args.idle_streams:
                asyncio.run(idle(ports, rooms, pids, 60))
                return 0
            best, since = 0, {}
            for count in steps:
                result = asyncio.run(
                    run_step(ports, rooms[:count], args, pids, var_dir, since, proxy_pids)
                )
                stats = result["stats"]
                server_side = server_times(var_dir, since)
                ok = meets_goals(result)
                print(
                    f"\n== {count} classes ({count * 17} screens, {args.poll_only:.0%} polling,"
                    f" every page loaded in {result['warm_up']:.0f} s, then measured):"
                    f" server CPU {result['server_cpu']:.0f} % of the machine (stream tier"
                    f" {result['streams_cpu']:.0f} %), generator CPU"
                    f" {result['generator_cpu']:.0f} %, PostgreSQL + Redis CPU"
                    f" {result['stores_cpu']:.0f} %,"
                    + (f" nginx CPU {result['proxy_cpu']:.0f} %," if args.proxy else "")
                    + " the machine busy"
                    f" {result['machine_busy']:.0f} %,"
                    f" server memory {result['memory']:.0f} MB,"
                    f" {stats.events} events, errors {len(stats.errors)}"
                    f" -> {'meets' if ok else 'misses'} the goals"
                )
                for kind in ("move", "fetch", "poll", "propagation", "polled", "page", "loop lag"):
                    print(f"  client {kind:12} {describe(stats.times.get(kind, []))}")
                for screen in ("device", "grid", "desk"):
                    kind = f"fetch ({screen})"
                    print(f"    {kind:14} {describe(stats.times.get(kind, []))}")
                for kind, values in server_side.items() if args.server_times else ():
                    print(f"  server {kind:12} {describe(values)}")
                for error in stats.errors[:5]:
                    print(f"  error: {error}")
                if ok:
                    best = count
            print(f"\nlargest class count meeting the goals: {best or 'none'}")
            return 0


if __name__ == "__main__":
    sys.exit(main())
