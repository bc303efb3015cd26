"""Live screens' requests beside bare Django, under WSGI and ASGI, with wrk, in one run.

    .venv/bin/python benchmarks/bench_live_serving.py [--seconds 5] [--rounds 3]

For each server (gunicorn gthread = WSGI; gunicorn with uvicorn workers = ASGI; same worker
count) and each request, wrk runs `--seconds` at `--connections`; rounds interleave the requests
so a busy moment of the shared machine hits them all. Requests:

- bare: bare Django 204 (startproject's middleware, one cache.get): benchmarks/bare_site.py
- poll-unchanged: a team device's poll when nothing changed (204, no query)
- device-redraw: the same poll with a stale fingerprint (permission check + region)
- grid-redraw: the teacher's projector grid, re-drawn
- page: the teacher's tables dashboard page (a whole ordinary page)

Prints requests/s (median and range of the rounds) and each request's ratio to bare under the
same server. PostgreSQL + Redis on loopback: creates its own database (`botbench_bench_serving`,
dropped after) and uses Redis db `--redis-db` with its own key prefix.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_classroom_load import (  # noqa: E402
    ROOT,
    drop_database,
    free_port,
    recreate_database,
    wait_for,
)

GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
SERVERS = {
    "wsgi": ["--worker-class", "gthread"],
    "asgi": ["--worker-class", "uvicorn_worker.UvicornWorker"],
}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--servers", default="wsgi,asgi")
    parser.add_argument("--db-name", default="botbench_bench_serving")
    parser.add_argument("--redis-db", type=int, default=7)
    parser.add_argument(
        "--site-root",
        type=Path,
        default=ROOT,
        help="a checkout of BotBench to serve (e.g. an older commit, to measure the before)",
    )
    return parser.parse_args()


def server_env(args: argparse.Namespace, var_dir: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{args.db_name}",
        DATABASE_POOL_MAX=str(args.threads + 2),
        REDIS_URL=f"redis://127.0.0.1:6379/{args.redis_db}",
        BOTBENCH_CACHE_PREFIX=f"bench-serving-{secrets.token_hex(4)}",
        BOTBENCH_VAR_DIR=var_dir,
        DJANGO_STATIC_ROOT=str(Path(var_dir) / "static"),
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(40),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env


def seed(env: dict[str, str], site_root: Path) -> dict[str, tuple[str, str]]:
    """One class (15 teams at 3 tables, started); returns {name: (path, cookie)}."""
    os.environ.update(env)
    sys.path.insert(0, str(site_root))
    import datetime

    import django

    django.setup()
    from django.test import Client

    from classroom import services as classroom_services
    from classroom.models import (
        Classroom,
        GameKind,
        Role,
        School,
        Session,
        Student,
        Table,
        Team,
        TeamMembership,
        User,
    )
    from games import services

    school = School.objects.create(name="Serving Bench Elementary")
    teacher = User.objects.create_user(
        "teacher@serving.test", "not-used-password-0", school=school, role=Role.TEACHER
    )
    classroom = Classroom.objects.create(
        school=school, teacher=teacher, name="Class 1", school_year="2026-27"
    )
    session = Session.objects.create(
        classroom=classroom, date=datetime.date(2026, 12, 1), game=GameKind.BOT_BUILDERS
    )
    session = classroom_services.session_open(session=session, by=teacher)
    device = None
    for t in range(15):
        number = t // 5 + 1
        table, _ = Table.objects.get_or_create(session=session, number=number)
        student = Student.objects.create(classroom=classroom, name=f"Student {t + 1}")
        team = Team.objects.create(
            session=session, number=t + 1, name=f"Team {t + 1}", table=table, seat_position=t % 5
        )
        TeamMembership.objects.create(session=session, team=team, student=student)
        binding = classroom_services.device_join(session=session, student=student)
        if device is None:
            device = Client()
            from django.http import HttpResponse

            from classroom.devices import DEVICE_COOKIE, set_device_cookie

            response = HttpResponse()
            set_device_cookie(response, binding, secure=False)
            device.cookies[DEVICE_COOKIE] = response.cookies[DEVICE_COOKIE].value
    services.session_start_tables(session=session, by=teacher)
    desk = Client()
    desk.force_login(teacher)

    def cookie(client: Client) -> str:
        return "; ".join(f"{k}={m.value}" for k, m in client.cookies.items())

    html = device.get("/play/", HTTP_HOST="127.0.0.1").content.decode()
    poll = re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', html).group(1).replace("&amp;", "&")
    grid = desk.get(f"/play/sessions/{session.pk}/projector/", HTTP_HOST="127.0.0.1")
    grid_poll = re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', grid.content.decode()).group(1)
    grid_poll = grid_poll.replace("&amp;", "&")
    return {
        "poll-unchanged": (poll, cookie(device)),
        "device-redraw": (re.sub(r"v=[^&]+", "v=stale", poll), cookie(device)),
        "grid-redraw": (re.sub(r"v=[^&]+", "v=stale", grid_poll), cookie(desk)),
        "page": (f"/play/sessions/{session.pk}/tables/", cookie(desk)),
    }


def wait_until_serving(port: int, process: subprocess.Popen, timeout: float = 60) -> None:
    """Any HTTP answer will do (the bare site has no /healthz)."""
    import http.client

    deadline = time.time() + timeout
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError("a server exited during start-up")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("a server did not answer in time")


def wrk(args, port: int, path: str, cookie: str, htmx: bool) -> float:
    command = ["wrk", "-t1", f"-c{args.connections}", f"-d{int(args.seconds)}s", "--latency"]
    if cookie:
        command += ["-H", f"Cookie: {cookie}"]
    if htmx:
        command += ["-H", "HX-Request: true"]
    out = subprocess.run(
        [*command, f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, check=True
    ).stdout
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non_2xx:
        raise RuntimeError(f"{path}: {non_2xx.group(1)} error responses\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def start(kind: str, args, env, app: str, port: int, cwd: Path) -> subprocess.Popen:
    extra = ["--threads", str(args.threads)] if kind == "wsgi" else []
    return subprocess.Popen(
        [str(GUNICORN), app, "--bind", f"127.0.0.1:{port}", "--workers", str(args.workers)]
        + SERVERS[kind]
        + extra
        + ["--log-level", "warning"],
        cwd=cwd,
        env=env,
    )


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def main() -> int:
    args = parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk)")
        return 1
    var_dir = tempfile.mkdtemp(prefix="botbench-serving-")
    env = server_env(args, var_dir)
    recreate_database(args.db_name)
    results: dict[tuple[str, str], list[float]] = {}
    try:
        for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            subprocess.run(
                [sys.executable, "manage.py", *command],
                cwd=args.site_root,
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )
        targets = seed(env, args.site_root)
        bare_env = {**env, "DJANGO_SETTINGS_MODULE": "bare_site"}
        for kind in args.servers.split(","):
            site_port, bare_port = free_port(), free_port()
            app = "config.wsgi:application" if kind == "wsgi" else "config.asgi:application"
            bare_app = "bare_site:application" if kind == "wsgi" else "bare_site:asgi_application"
            site = start(kind, args, env, app, site_port, args.site_root)
            bare = start(kind, args, bare_env, bare_app, bare_port, ROOT / "benchmarks")
            try:
                wait_for(site_port, site, timeout=120)
                wait_until_serving(bare_port, bare)
                for _ in range(args.rounds):
                    rate = wrk(args, bare_port, "/", "", False)
                    results.setdefault((kind, "bare"), []).append(rate)
                    for name, (path, cookie) in targets.items():
                        rate = wrk(args, site_port, path, cookie, name != "page")
                        results.setdefault((kind, name), []).append(rate)
            finally:
                stop(site)
                stop(bare)
        print(
            f"{args.workers} workers ({args.threads} threads under WSGI), wrk -c"
            f"{args.connections} {args.seconds:.0f} s, {args.rounds} rounds, median [range]"
        )
        for kind in args.servers.split(","):
            bare = statistics.median(results[(kind, "bare")])
            for name in ["bare", *targets]:
                rates = results[(kind, name)]
                median = statistics.median(rates)
                print(
                    f"{kind:4} {name:15} {median:8.0f} req/s [{min(rates):.0f}-{max(rates):.0f}]"
                    f"  {median / bare:5.3f} of bare"
                )
        if "wsgi" in args.servers and "asgi" in args.servers:
            for name in targets:
                ratio = statistics.median(results[("asgi", name)]) / statistics.median(
                    results[("wsgi", name)]
                )
                print(f"asgi/wsgi {name:15} {ratio:5.2f}")
        return 0
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(args.db_name)


if __name__ == "__main__":
    sys.exit(main())
