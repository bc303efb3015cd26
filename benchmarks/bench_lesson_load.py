"""A lesson load measured from outside, on compose's topology: how many classes this machine
holds with every move on every screen of its table within the goals.

    .venv/bin/python benchmarks/bench_lesson_load.py [--steps 25,50,100,150] [--seconds 30]
    .venv/bin/python benchmarks/bench_lesson_load.py --processes 2   # 2 web + 2 stream nodes

What runs (benchmarks/topology.py, the launcher the failover test uses too): nginx from the repo's
docker/nginx.conf (its upstreams pointed at loopback ports) in front of the web tier (granian,
compose's command) and the stream tier (compose's command), on this machine's PostgreSQL (a
database of its own, dropped after) and a redis-server of its own (so its CPU is this run's).
`--processes N` runs N web and N stream nodes, each with one worker (the same number of worker
processes as compose's one node of each with two), listed in nginx's upstreams as a scaled
compose service's containers are.

A class: 15 team phones at 3 tables of 5, the projector grid and the teacher's tables page.
Every phone joins over /join (the room code, then its name; its own X-Forwarded-For address,
as behind compose's TLS proxy, one hop); the teacher's screens carry a signed-in cookie made at
seeding (a password check for 150 teachers would only slow the start). Each screen then holds
its own connections, as a browser does: one client session of its own, its page, one event
stream, a fetch of its region on each `changed` (one in flight, one more queued, as htmx does),
and the region's own poll every 10 s.

Each table moves on a fixed schedule, every `--every` seconds (default 8: a brisk class) from its
own random phase, whatever the answers: the phone whose screen shows the move buttons taps one
(a tick when no phone shows them, say a screen not yet current, is counted as skipped). For each
move, propagation runs from the tap until the LAST other screen showing the table (its phones,
the projector grid, the teacher's page) shows that version, read from the page (the `v` its
region's poll URL holds). A move not on every one of them within 10 s is an error; so is every
request that fails, answers an error, or is unfinished when its 10 s timeout (or the end) comes.

Per step, after every screen has its page and stream: 10 s idle (streams open, the 10 s polls
only), then `--seconds` of moves; then up to 10 s for the last moves and requests to finish.
CPU is counted for every server process: the web and stream nodes, nginx, PostgreSQL (this
database's backends and the server's own processes) and Redis; the generator's own CPU and the
whole machine's, with its load average before and after, are printed beside it: on a shared
machine, a figure is only as good as the load it was taken under.

Goals: propagation p95 <= 300 ms, move p95 <= 150 ms, fetch p95 <= 100 ms, 0 errors. The
largest class count holding all of them is printed at the end, with each step's CPU per move,
per fetch and per idle screen for the capacity model in benchmarks/README.md.
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
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
import topology  # noqa: E402
from load_players import FORM, MOVE_URL, PAGE_TOKEN, choose, percentile  # noqa: E402

POLL = re.compile(r'data-hx-get="([^"]+/poll/[^"]+)"')
STREAM = re.compile(r'data-sse-connect="([^"]+)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
GOALS = {"propagation": 300.0, "move": 150.0, "fetch": 100.0}
TIMEOUT = 10.0  # every request's, and a move's to reach every screen
# A join or page while the whole school arrives (not measured): a join the client gave up on
# may still be done by the server, and its name then taken, so it gets longer.
ARRIVAL_TIMEOUT = 60.0
SLOW_POLL = 10.0  # the region's own `every 10s` (classroom/templatetags/live_region.py)
IDLE_SECONDS = 10.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="25,50,100,150")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured moves a step")
    parser.add_argument("--every", type=float, default=8.0, help="seconds between a table's moves")
    parser.add_argument("--processes", type=int, default=1, help="web and stream nodes each")
    parser.add_argument("--db-name", default="botbench_bench_lesson")
    parser.add_argument(
        "--site-root",
        type=Path,
        default=harness.ROOT,
        help="a checkout of BotBench to serve (e.g. an older commit, to measure the before), run"
        " as this checkout's docker/ runs the site (compose's commands, nginx.conf)",
    )
    return parser.parse_args()


def shown_versions(html: str) -> dict[int, int] | None:
    """{game: version} the region drawn in `html` shows (its poll URL's `v`), None if none."""
    match = POLL.search(html)
    if match is None:
        return None
    shown = parse_qs(urlsplit(unescape(match[1])).query).get("v", [""])[0]
    versions = {}
    for part in shown.split("~")[0].split("-"):
        game, _, version = part.partition(".")
        if game.isdigit() and version.isdigit():
            versions[int(game)] = int(version)
    return versions


@dataclass(eq=False)
class Screen:
    kind: str  # phone, grid or desk
    page: str
    address: str
    cookie: str = ""
    student: int = 0
    code: str = ""
    html: str = ""
    token: str = ""  # the page's CSRF token, which htmx sends with every request
    shown: dict[int, int] = field(default_factory=dict)
    http: object = None
    fetching: bool = False
    again: bool = False
    drawn: int = 0  # regions drawn so far
    tapped: int = -1  # the drawing whose button was last tapped: never tapped twice


@dataclass
class Move:
    game: int
    sent: float
    version: int = 0
    waiting: set = field(default_factory=set)  # screens not yet showing it
    done: float = 0.0


@dataclass
class Stats:
    times: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    recording: bool = True

    def add(self, kind: str, seconds: float) -> None:
        if self.recording:
            self.times.setdefault(kind, []).append(seconds)

    def count(self, kind: str) -> None:
        if self.recording:
            self.counts[kind] = self.counts.get(kind, 0) + 1

    def error(self, text: str) -> None:
        if self.recording:
            self.errors.append(text)


class Lesson:
    """The screens of a step's classes, the tables' schedules and the figures."""

    def __init__(self, base: str, rooms: list[list[Screen]], every: float):
        self.base, self.rooms, self.every = base, rooms, every
        self.stats = Stats()
        self.moves: list[Move] = []
        self.pending: dict[int, list[Move]] = {}  # game -> its moves not yet on every screen
        self.watchers: dict[int, list[Screen]] = {}  # game -> screens showing it
        self.inflight: set[asyncio.Task] = set()
        self.opened = 0
        self.stop = float("inf")

    # -- requests -------------------------------------------------------------------------------

    async def request(self, screen: Screen, kind: str, method: str, path: str, **kw):
        """(status, text, response) of one request with its timeout; None when it failed (an
        error, counted)."""
        import aiohttp

        started = time.perf_counter()
        headers = {"X-Forwarded-For": screen.address, **kw.pop("headers", {})}
        if screen.cookie:
            headers["Cookie"] = screen.cookie
        limit = ARRIVAL_TIMEOUT if kind in ("join", "page") else TIMEOUT
        try:
            async with asyncio.timeout(limit):
                async with screen.http.request(
                    method, self.base + path, headers=headers, allow_redirects=False, **kw
                ) as response:
                    text = await response.text()
        except (TimeoutError, aiohttp.ClientError) as exc:
            self.stats.error(f"{screen.kind} {kind}: {type(exc).__name__}")
            return None
        took = time.perf_counter() - started
        self.stats.add(kind, took)
        for name in ("csrftoken", "botbench_browser", "botbench_device"):
            morsel = response.cookies.get(name)
            if morsel is not None and f"{name}=" not in screen.cookie:
                screen.cookie = "; ".join(filter(None, [screen.cookie, f"{name}={morsel.value}"]))
        if response.status >= 400:
            self.stats.error(f"{screen.kind} {kind} {response.status}")
        return response.status, text, response

    def track(self, coroutine) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.inflight.add(task)
        task.add_done_callback(self.finished)
        return task

    def finished(self, task: asyncio.Task) -> None:
        self.inflight.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.stats.error(f"generator: {task.exception()!r}")

    # -- a screen -------------------------------------------------------------------------------

    async def join(self, screen: Screen) -> bool:
        """The join page, the room code, the name: the device cookie the site sets."""
        answer = await self.request(screen, "join", "GET", f"/join?code={screen.code}")
        if answer is None or answer[0] != 200:
            return False
        token = CSRF.search(answer[1])[1]
        body = {"csrfmiddlewaretoken": token, "code": screen.code, "student": screen.student}
        answer = await self.request(
            screen,
            "join",
            "POST",
            "/join",
            data=body,
            headers={"Referer": f"{self.base}/join"},
        )
        return answer is not None and answer[0] == 302 and "botbench_device=" in screen.cookie

    async def arrive(self, screen: Screen) -> None:
        """Join (a phone not yet joined), load the page, open the stream; then live. A join or
        page that fails is tried again twice, 2 s later, as a student taps again (each failure
        is counted among the arrival's errors)."""
        for attempt in range(3):
            if attempt:
                await asyncio.sleep(2)
            joined = screen.kind != "phone" or "botbench_device=" in screen.cookie
            if not joined and not await self.join(screen):
                continue
            answer = await self.request(screen, "page", "GET", screen.page)
            if answer is not None and answer[0] == 200:
                screen.token = PAGE_TOKEN.search(answer[1])[1]
                break
        else:
            return
        self.show(screen, answer[1])
        for game in screen.shown:
            self.watchers.setdefault(game, []).append(screen)
        stream = unescape(STREAM.search(screen.html)[1])
        poll = asyncio.get_running_loop().create_task(self.slow_poll(screen))
        try:
            await self.listen(screen, stream)
        finally:
            poll.cancel()

    def show(self, screen: Screen, html: str) -> None:
        versions = shown_versions(html)
        if versions is None:
            return
        screen.html = html
        screen.drawn += 1
        now = time.perf_counter()
        for game, version in versions.items():
            if version > screen.shown.get(game, -1):
                screen.shown[game] = version
                for move in self.pending.get(game, ()):
                    if move.version and version >= move.version and screen in move.waiting:
                        move.waiting.discard(screen)
                        if not move.waiting:
                            move.done = now
                self.pending[game] = [m for m in self.pending.get(game, ()) if m.waiting]

    async def fetch(self, screen: Screen, kind: str) -> None:
        """The region, as the page's poll URL asks for it (one in flight, one more queued)."""
        if screen.fetching:
            screen.again = True
            return
        screen.fetching = True
        try:
            while True:
                screen.again = False
                answer = await self.request(
                    screen,
                    kind,
                    "GET",
                    unescape(POLL.search(screen.html)[1]),
                    headers={"HX-Request": "true"},
                )
                if answer is not None and answer[0] == 200:
                    self.show(screen, answer[1])
                if not screen.again:
                    return
        finally:
            screen.fetching = False

    async def slow_poll(self, screen: Screen) -> None:
        while True:
            await asyncio.sleep(SLOW_POLL)
            self.track(self.fetch(screen, "poll"))

    async def listen(self, screen: Screen, path: str) -> None:
        import aiohttp

        headers = {"Accept": "text/event-stream", "X-Forwarded-For": screen.address}
        headers["Cookie"] = screen.cookie
        try:
            async with screen.http.get(self.base + path, headers=headers) as response:
                if response.status != 200:
                    self.stats.error(f"{screen.kind} stream {response.status}")
                    return
                event = ""
                hello = False
                while True:
                    timeout = None if hello else TIMEOUT
                    async with asyncio.timeout(timeout):
                        raw = await response.content.readline()
                    if not raw:
                        self.stats.error(f"{screen.kind} stream ended")
                        return
                    line = raw.decode().rstrip("\n")
                    if line.startswith("event:"):
                        event = line[6:].strip()
                    elif line == "" and event:
                        if event == "hello" and not hello:
                            hello = True
                            self.opened += 1
                        elif event == "changed":
                            self.stats.count("events")
                            self.track(self.fetch(screen, "fetch"))
                        event = ""
        except (TimeoutError, aiohttp.ClientError) as exc:
            self.stats.error(f"{screen.kind} stream: {type(exc).__name__}")

    # -- the tables -----------------------------------------------------------------------------

    async def table(self, game: int, phones: list[Screen]) -> None:
        """Every `every` seconds from a random phase, whatever happened to the last move."""
        start = time.perf_counter() + random.uniform(0, self.every)
        tick = 0
        while True:
            at = start + tick * self.every
            if at >= self.stop:
                return
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            tick += 1
            mover = next((p for p in phones if p.tapped != p.drawn and FORM.search(p.html)), None)
            if mover is None:
                self.stats.count("skipped ticks")
                continue
            self.track(self.move(game, mover))

    async def move(self, game: int, mover: Screen) -> None:
        action, version, move_id = choose(FORM.findall(mover.html))
        path = MOVE_URL.search(mover.html)[1]
        body = {
            "action": unescape(action),
            "version": version,
            "client_move_id": move_id,
        }
        move = Move(game, time.perf_counter())
        move.waiting = {s for s in self.watchers.get(game, []) if s is not mover}
        self.moves.append(move)
        self.pending.setdefault(game, []).append(move)
        mover.tapped = mover.drawn
        answer = await self.request(
            mover,
            "move",
            "POST",
            path,
            data=body,
            headers={
                "HX-Request": "true",
                "X-CSRFToken": mover.token,
                "Referer": f"{self.base}/play/",
            },
        )
        if answer is None:
            move.waiting.clear()
            return
        status, text, _ = answer
        if status != 200 or "alert-error" in text:
            alert = re.search(r'role="alert">([^<]+)', text)
            self.stats.error(f"move {status} {alert and alert[1]}")
            move.waiting.clear()
            self.show(mover, text)
            return  # refused: nothing to propagate, and no propagation sample
        versions = shown_versions(text) or {}
        move.version = versions.get(game, int(version) + 1)
        self.show(mover, text)
        # Screens that already show it (their fetch overtook this answer) are done with it.
        for screen in list(move.waiting):
            if screen.shown.get(game, -1) >= move.version:
                move.waiting.discard(screen)
        if not move.waiting and not move.done:
            move.done = time.perf_counter()


# -- a step ---------------------------------------------------------------------------------------


def seed(classes: int, env: dict[str, str], site_root: Path) -> list[list[Screen]]:
    """`classes` classes with started tables, their phones not yet joined; 17 screens each."""
    harness.setup_django(env, site_root)
    from django.test import Client

    rooms = []
    for c, seeded in enumerate(
        harness.seed_classes(
            school="Lesson Load Elementary", domain="lesson.test", classes=classes, join=False
        )
    ):
        session = seeded.session
        desk = Client()
        desk.force_login(seeded.teacher)
        teacher = f"sessionid={desk.cookies['sessionid'].value}"
        address = lambda n, c=c: f"10.{c // 200}.{c % 200}.{n + 1}"  # noqa: E731
        screens = [
            Screen("phone", "/play/", address(n), student=d.student, code=session.room_code)
            for n, d in enumerate(seeded.devices)
        ]
        screens.append(
            Screen("grid", f"/play/sessions/{session.pk}/projector/", address(100), teacher)
        )
        screens.append(
            Screen("desk", f"/play/sessions/{session.pk}/tables/", address(100), teacher)
        )
        rooms.append(screens)
    harness.close_django_connections()
    return rooms


class Meters:
    """CPU seconds of every server process by part, and of the generator and the machine."""

    def __init__(self, running: topology.Topology, db_name: str, redis_port: int):
        import psutil

        self.running = running

        def nodes(tier):
            return lambda: [p for n in tier for p in n.processes()]

        def redis():
            return [
                p
                for p in psutil.process_iter(["name", "cmdline"])
                if p.info["name"] == "redis-server"
                and f":{redis_port}" in " ".join(p.info["cmdline"] or [])
            ]

        self.parts = {
            "web": topology.CpuMeter(nodes(running.web)),
            "stream": topology.CpuMeter(nodes(running.streams)),
            "nginx": topology.CpuMeter(running.proxy_processes),
            "postgres": topology.CpuMeter(lambda: topology.postgres_processes(db_name)),
            "redis": topology.CpuMeter(redis),
        }

    def start(self) -> None:
        import psutil

        for meter in self.parts.values():
            meter.start()
        self.wall = time.perf_counter()
        self.mine = own_cpu()
        self.machine = psutil.cpu_times()

    def stop(self) -> dict[str, float]:
        """CPU seconds a second of each part (1.0 = one core busy), 'servers' their sum."""
        import psutil

        wall = time.perf_counter() - self.wall
        rates = {name: meter.stop() / wall for name, meter in self.parts.items()}
        rates["servers"] = sum(rates.values())
        rates["generator"] = (own_cpu() - self.mine) / wall
        now = psutil.cpu_times()
        idle = (now.idle + now.iowait) - (self.machine.idle + self.machine.iowait)
        rates["machine"] = (sum(now) - sum(self.machine) - idle) / wall
        rates["seconds"] = wall
        return rates


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def run_step(base: str, rooms: list[list[Screen]], args, meters: Meters) -> dict:
    import aiohttp

    lesson = Lesson(base, rooms, args.every)
    screens = [s for room in rooms for s in room]
    load_before = topology.load_average()
    arrivals = []
    started = time.perf_counter()
    for screen in screens:
        # A browser's own connections (six at most to one host, kept alive), its own cookies.
        screen.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=6),
            cookie_jar=aiohttp.DummyCookieJar(),
            timeout=aiohttp.ClientTimeout(total=None, sock_connect=TIMEOUT),
        )
        screen.shown, screen.html, screen.drawn, screen.tapped = {}, "", 0, -1
        arrivals.append(asyncio.create_task(lesson.arrive(screen)))
        # A school's screens arrive over a minute or so, not in one instant.
        await asyncio.sleep(0.01)
    # Every screen with its page and stream (or given up): the lesson's start is not measured.
    # (A screen whose arrival failed has its task done, its error counted.)
    while time.perf_counter() - started < 600:
        if lesson.opened + sum(task.done() for task in arrivals) >= len(screens):
            break
        await asyncio.sleep(0.5)
    warm_up = time.perf_counter() - started
    stream_mb = (
        sum(p.memory_info().rss for n in meters.running.streams for p in n.processes()) / 2**20
    )
    arrival = lesson.stats
    # From here every error counts against the goals; the idle time's figures are not kept.
    lesson.stats = Stats(recording=True)
    meters.start()
    await asyncio.sleep(IDLE_SECONDS)
    idle = meters.stop()
    lesson.stats = Stats(recording=True, errors=lesson.stats.errors)
    meters.start()
    lesson.stop = time.perf_counter() + args.seconds
    tables = []
    for room in rooms:
        games = {}
        for screen in room:
            if screen.kind == "phone" and screen.shown:
                games.setdefault(next(iter(screen.shown)), []).append(screen)
        tables += [asyncio.create_task(lesson.table(g, p)) for g, p in games.items()]
    await asyncio.sleep(args.seconds)
    busy = meters.stop()
    load_after = topology.load_average()
    # The last moves' screens and the requests still out get their time, then count.
    drain = time.perf_counter() + TIMEOUT
    while time.perf_counter() < drain and (
        lesson.inflight or any(m.waiting and not m.done for m in lesson.moves)
    ):
        await asyncio.sleep(0.1)
    stats = lesson.stats
    for task in list(lesson.inflight):
        stats.error("unfinished request")
        task.cancel()
    for move in lesson.moves:
        if move.done:
            stats.add("propagation", move.done - move.sent)
            if move.done - move.sent > TIMEOUT:
                stats.error(f"move on every screen only after {TIMEOUT:.0f} s")
        elif move.version:
            stats.error(f"move not on {len(move.waiting)} screen(s) within {TIMEOUT:.0f} s")
    opened = lesson.opened
    for task in [*arrivals, *tables]:
        task.cancel()
    await asyncio.gather(*arrivals, *tables, return_exceptions=True)
    for screen in screens:
        await screen.http.close()
    return {
        "stats": stats,
        "moves": len(lesson.moves),
        "screens": len(screens),
        "opened": opened,
        "warm_up": warm_up,
        "idle": idle,
        "arrival": arrival,
        "stream_mb": stream_mb,
        "busy": busy,
        "load": (load_before, load_after),
    }


def describe(values: list[float]) -> str:
    return (
        f"n={len(values):6} p50={percentile(values, 50):7.1f} p95={percentile(values, 95):7.1f}"
        f" p99={percentile(values, 99):7.1f} ms"
    )


def meets_goals(result: dict) -> bool:
    times = result["stats"].times
    return not result["stats"].errors and all(
        times.get(kind) and percentile(times[kind], 95) <= limit for kind, limit in GOALS.items()
    )


def cpu_line(rates: dict[str, float]) -> str:
    parts = ", ".join(
        f"{name} {100 * rates[name]:.0f}"
        for name in ("web", "stream", "nginx", "postgres", "redis")
    )
    return (
        f"servers {100 * rates['servers']:.0f} % of a core ({parts}); generator"
        f" {100 * rates['generator']:.0f} %; whole machine {100 * rates['machine']:.0f} %"
    )


def costs(result: dict) -> dict[str, float]:
    """Server CPU milliseconds: per idle screen a second (its stream, its 10 s poll), per move
    (the tap, and each screen's fetch and wake it causes), per fetch (the web tier's share of a
    move's fan-out, divided among its fetches), all tiers counted."""
    idle, busy = result["idle"], result["busy"]
    screens = result["opened"] or 1
    moves = result["moves"] or 1
    fetches = len(result["stats"].times.get("fetch", [])) or 1
    extra = (busy["servers"] - idle["servers"]) * busy["seconds"]
    web_extra = (busy["web"] - idle["web"]) * busy["seconds"]
    return {
        "idle screen": 1000 * idle["servers"] / screens,
        "move": 1000 * extra / moves,
        "fetch": 1000 * web_extra / fetches,
    }


def main() -> int:
    args = parse_args()
    steps = [int(s) for s in args.steps.split(",")]
    with (
        topology.private_redis() as redis_port,
        harness.prepared_site(
            "botbench-lesson-",
            db_name=args.db_name,
            redis_db=0,
            redis_port=redis_port,
            pool_max=10,  # settings.py's default, which compose keeps
            cache_prefix=f"bench-lesson-{secrets.token_hex(4)}",
            tree=args.site_root,
        ) as (env, _var_dir),
    ):
        env["BOTBENCH_PROXY_HOPS"] = "1"  # as compose: one TLS proxy in front
        started = time.perf_counter()
        rooms = seed(max(steps), env, args.site_root)
        print(f"seeded {max(steps)} classes in {time.perf_counter() - started:.0f} s")
        nodes = args.processes
        with topology.topology(
            env,
            web=nodes,
            streams=nodes,
            web_workers=None if nodes == 1 else 1,
            stream_workers=None if nodes == 1 else 1,
            cwd=args.site_root,
        ) as running:
            meters = Meters(running, args.db_name, redis_port)
            shape = (
                "compose's: 1 web node (granian, 2 workers) + 1 stream node (2 workers)"
                if nodes == 1
                else f"{nodes} web + {nodes} stream nodes, 1 worker each"
            )
            print(f"topology: nginx (docker/nginx.conf) -> {shape}; {os.cpu_count()} cores")
            best = 0
            for count in steps:
                result = asyncio.run(run_step(running.url, rooms[:count], args, meters))
                report(count, result, args)
                if meets_goals(result):
                    best = count
            print(f"\nlargest class count holding the goals: {best or 'none'}")
    return 0


def report(count: int, result: dict, args) -> None:
    stats = result["stats"]
    ok = meets_goals(result)
    before, after = result["load"]
    print(
        f"\n== {count} classes ({result['screens']} screens, {result['opened']} streams open;"
        f" pages and streams in {result['warm_up']:.0f} s), a move a table every"
        f" {args.every:g} s for {args.seconds:g} s: {result['moves']} moves,"
        f" {stats.counts.get('skipped ticks', 0)} ticks skipped, errors {len(stats.errors)}"
        f" -> {'holds' if ok else 'misses'} the goals"
    )
    print(f"  machine: before {before}; after {after}")
    print(f"  CPU idle ({IDLE_SECONDS:g} s): {cpu_line(result['idle'])}")
    print(f"  CPU moving: {cpu_line(result['busy'])}")
    for kind in ("propagation", "move", "fetch", "poll"):
        print(f"  {kind:12} {describe(stats.times.get(kind, []))}")
    arrival = result["arrival"]
    for kind in ("join", "page"):
        print(f"  {kind:12} {describe(arrival.times.get(kind, []))} (arriving, not measured)")
    if arrival.errors:
        print(f"  arriving: {len(arrival.errors)} errors, the first: {arrival.errors[0]}")
    cost = costs(result)
    print(
        f"  server CPU: {cost['idle screen']:.2f} ms a second per idle screen,"
        f" {cost['move']:.0f} ms per move with its fan-out, {cost['fetch']:.1f} ms per fetch"
    )
    idle, busy, moves = result["idle"], result["busy"], result["moves"] or 1
    print(
        "  by tier, ms per move with its fan-out / ms a second per idle screen: "
        + ", ".join(
            f"{tier} {1000 * (busy[tier] - idle[tier]) * busy['seconds'] / moves:.1f}"
            f" / {1000 * idle[tier] / (result['opened'] or 1):.3f}"
            for tier in ("web", "stream", "nginx", "postgres", "redis")
        )
    )
    print(f"  stream tier memory with the streams open: {result['stream_mb']:.0f} MB")
    kinds: dict[str, int] = {}
    for error in stats.errors:
        kinds[error] = kinds.get(error, 0) + 1
    for error, n in sorted(kinds.items(), key=lambda item: -item[1])[:6]:
        print(f"  error x{n}: {error}")


if __name__ == "__main__":
    sys.exit(main())
