"""A classroom load run against the real stack: gunicorn + PostgreSQL + Redis on loopback.

    .venv/bin/python benchmarks/bench_classroom_load.py [--seconds 60]

10 classes x 15 team devices (3 tables of 5 teams a class) poll every 2 s like the device page
does, and the device whose turn it is posts its move as soon as its screen shows the buttons
(it picks among the buttons shown: BOT!, install, draw from the pile, discard). Prints
requests/s, p50/p95/p99 of the poll and of a move, and the errors (must be zero).

It creates and migrates its own database (`botbench_bench_load`, dropped at the end), uses its
own Redis db number (flushed before and after), starts gunicorn itself and stops it.
"""

from __future__ import annotations

import argparse
import http.client
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_players import Device, Player, Stats, percentile  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
PG_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--teams", type=int, default=15, help="team devices per class")
    parser.add_argument("--table-size", type=int, default=5)
    parser.add_argument("--poll", type=float, default=2.0, help="seconds between polls")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--db-name", default="botbench_bench_load")
    parser.add_argument("--redis-db", type=int, default=9)
    parser.add_argument("--keep-db", action="store_true")
    return parser.parse_args()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(args: argparse.Namespace, var_dir: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{args.db_name}",
        DATABASE_POOL_MAX=str(args.threads),
        REDIS_URL=f"redis://127.0.0.1:6379/{args.redis_db}",
        BOTBENCH_CACHE_PREFIX="bench-load",
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


def recreate_database(name: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def flush_redis(db: int) -> None:
    import redis

    redis.Redis(host="127.0.0.1", port=6379, db=db).flushdb()


def manage(env: dict[str, str], *command: str) -> None:
    subprocess.run(
        [str(PYTHON), "manage.py", *command],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def seed(args: argparse.Namespace, env: dict[str, str]) -> list[Device]:
    """Classes, open sessions, teams at tables, one joined device a team; tables started."""
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import datetime

    import django

    django.setup()
    from django.http import HttpResponse

    from classroom import services as classroom_services
    from classroom.devices import DEVICE_COOKIE, set_device_cookie
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

    school = School.objects.create(name="Load Test Elementary")
    devices = []
    for c in range(args.classes):
        teacher = User.objects.create_user(
            f"teacher{c}@load.test", "not-used-password-0", school=school, role=Role.TEACHER
        )
        classroom = Classroom.objects.create(
            school=school, teacher=teacher, name=f"Class {c + 1}", school_year="2026-27"
        )
        session = Session.objects.create(
            classroom=classroom, date=datetime.date(2026, 12, 1), game=GameKind.BOT_BUILDERS
        )
        session = classroom_services.session_open(session=session, by=teacher)
        tables = {}
        for t in range(args.teams):
            number = t // args.table_size + 1
            if number not in tables:
                tables[number] = Table.objects.create(session=session, number=number)
            student = Student.objects.create(classroom=classroom, name=f"Student {t + 1}")
            team = Team.objects.create(
                session=session,
                number=t + 1,
                name=f"Team {t + 1}",
                table=tables[number],
                seat_position=t % args.table_size,
            )
            TeamMembership.objects.create(session=session, team=team, student=student)
            binding = classroom_services.device_join(session=session, student=student)
            response = HttpResponse()
            set_device_cookie(response, binding, secure=False)
            cookie = f"{DEVICE_COOKIE}={response.cookies[DEVICE_COOKIE].value}"
            devices.append(Device(cookie=cookie, label=f"class {c + 1} team {t + 1}"))
        services.session_start_tables(session=session, by=teacher)
    return devices


def report(stats: Stats, seconds: float, devices: int) -> None:
    total = len(stats.polls) + len(stats.moves) + len(stats.pages)
    print(
        f"devices: {devices}, run: {seconds:.0f} s, requests: {total}, "
        f"{total / seconds:.1f} requests/s"
    )
    for name, values in (("poll", stats.polls), ("move", stats.moves)):
        print(
            f"{name:5} n={len(values):6}  p50={percentile(values, 50):7.1f} ms  "
            f"p95={percentile(values, 95):7.1f} ms  p99={percentile(values, 99):7.1f} ms  "
            f"mean={statistics.fmean(values) * 1000 if values else float('nan'):7.1f} ms"
        )
    print(f"polls answered 204 (unchanged, no database query): {stats.unchanged}")
    print(f"errors: {len(stats.errors)}")
    for error in stats.errors[:10]:
        print(f"  {error}")


def server_report(log: Path) -> None:
    """The same percentiles as gunicorn measured them: time inside the server only, without
    the load generator's own waiting (it shares the machine's CPUs with the server)."""
    kinds: dict[str, list[float]] = {"poll": [], "move": []}
    for line in log.read_text().splitlines():
        parts = line.split()
        if len(parts) != 4:
            continue
        kind = (
            "poll"
            if parts[1].startswith("/play/poll/")
            else ("move" if parts[1].endswith("/move/") else None)
        )
        if kind:
            kinds[kind].append(int(parts[3]) / 1e6)
    print("server side (gunicorn's request time):")
    for name, values in kinds.items():
        print(
            f"{name:5} n={len(values):6}  p50={percentile(values, 50):7.1f} ms  "
            f"p95={percentile(values, 95):7.1f} ms  p99={percentile(values, 99):7.1f} ms"
        )


def wait_for(port: int, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn exited during start-up")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status in (200, 503):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer in time")


def main() -> int:
    args = parse_args()
    var_dir = tempfile.mkdtemp(prefix="botbench-load-")
    env = server_env(args, var_dir)
    print(f"database {args.db_name}, redis db {args.redis_db}, var {var_dir}")
    recreate_database(args.db_name)
    flush_redis(args.redis_db)
    gunicorn = None
    try:
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        started = time.perf_counter()
        devices = seed(args, env)
        print(f"seeded {len(devices)} devices in {time.perf_counter() - started:.1f} s")
        port = free_port()
        gunicorn = subprocess.Popen(
            [
                str(GUNICORN),
                "config.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(args.workers),
                "--worker-class",
                "gthread",
                "--threads",
                str(args.threads),
                "--log-level",
                "warning",
                "--access-logfile",
                str(Path(var_dir) / "access.log"),
                "--access-logformat",
                "%(m)s %(U)s %(s)s %(D)s",
            ],
            cwd=ROOT,
            env=env,
        )
        wait_for(port, gunicorn)
        stats = Stats()
        deadline = time.time() + args.seconds
        players = [Player(d, port, deadline, stats, args.poll) for d in devices]
        run_started = time.perf_counter()
        for player in players:
            player.start()
        for player in players:
            player.join(args.seconds + 60)
        report(stats, time.perf_counter() - run_started, len(devices))
        gunicorn.terminate()
        gunicorn.wait(20)
        server_report(Path(var_dir) / "access.log")
        return 1 if stats.errors else 0
    finally:
        if gunicorn is not None and gunicorn.poll() is None:
            gunicorn.terminate()
            gunicorn.wait(20)
        flush_redis(args.redis_db)
        if not args.keep_db:
            from django.db import connections

            connections.close_all()
            drop_database(args.db_name)


if __name__ == "__main__":
    sys.exit(main())
