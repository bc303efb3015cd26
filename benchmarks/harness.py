"""What the benchmarks that measure the real stack share: a PostgreSQL database and a Redis db of
their own, the site's environment, demo classes seeded through the services, and gunicorn
processes started, awaited and stopped.

Not named bench_*: `make bench` runs every benchmarks/bench_*.py, and this is not a benchmark.
"""

from __future__ import annotations

import datetime
import http.client
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Collection, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
GRANIAN = ROOT / ".venv" / "bin" / "granian"
PG_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
WORKER_CLASS = {"wsgi": "gthread", "asgi": "uvicorn_worker.UvicornWorker"}
# Method, path, status, time inside the server (gunicorn: microseconds; granian: milliseconds
# with a decimal point); no field holds a space, so access_times() splits a line on spaces.
ACCESS_LOG_FORMAT = "%(m)s %(U)s %(s)s %(D)s"
GRANIAN_ACCESS_LOG_FORMAT = "%(method)s %(path)s %(status)d %(dt_ms).3f"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def recreate_database(name: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def flush_redis(db: int, port: int = 6379) -> None:
    import redis

    redis.Redis(host="127.0.0.1", port=port, db=db).flushdb()


def close_django_connections() -> None:
    """Hands back the connections a seeding in this process opened, if it ran at all."""
    if "django.db" not in sys.modules:
        return
    from django.apps import apps
    from django.db import connections

    if apps.ready:
        connections.close_all()


@contextmanager
def scratch_database(name: str, *, keep: bool = False) -> Iterator[None]:
    """A new, empty database for the block, dropped after it unless `keep`."""
    recreate_database(name)
    try:
        yield
    finally:
        if not keep:
            # The seeding's connections are this process's own: closed, not cut by FORCE.
            close_django_connections()
            drop_database(name)


def manage(env: dict[str, str], *command: str, cwd: Path = ROOT) -> str:
    """Runs manage.py of the tree `cwd` with this tree's interpreter; returns what it printed."""
    return subprocess.run(
        [str(PYTHON), "manage.py", *command],
        cwd=cwd,
        env=env,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout


@contextmanager
def prepared_site(
    var_prefix: str,
    *,
    db_name: str,
    redis_db: int,
    pool_max: int,
    cache_prefix: str,
    log_level: str = "WARNING",
    redis_port: int = 6379,
    flush: bool = False,
    keep_db: bool = False,
    tree: Path = ROOT,
) -> Iterator[tuple[dict[str, str], str]]:
    """The site of `tree` migrated into a new database `db_name`, with its static files collected
    into a new var folder: yields the environment to run it with (production settings, on
    loopback PostgreSQL and Redis) and that folder. The database is dropped after the block
    unless `keep_db`. With `flush` the Redis db is emptied before and after, for a benchmark
    that has it to itself; the others keep apart by `cache_prefix`."""
    var_dir = tempfile.mkdtemp(prefix=var_prefix)
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{db_name}",
        DATABASE_POOL_MAX=str(pool_max),
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/{redis_db}",
        BOTBENCH_CACHE_PREFIX=cache_prefix,
        BOTBENCH_VAR_DIR=var_dir,
        DJANGO_STATIC_ROOT=str(Path(var_dir) / "static"),
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(40),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_LOG_LEVEL=log_level,
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    if flush:
        flush_redis(redis_db, redis_port)
    try:
        with scratch_database(db_name, keep=keep_db):
            manage(env, "migrate", "--noinput", cwd=tree)
            manage(env, "collectstatic", "--noinput", cwd=tree)
            yield env, var_dir
    finally:
        if flush:
            flush_redis(redis_db, redis_port)


def setup_django(env: dict[str, str], site_root: Path = ROOT) -> None:
    """Django in this process, on the database the servers will use: seeding goes through the
    site's own services, so the rows are the ones a lesson makes."""
    os.environ.update(env)
    sys.path.insert(0, str(site_root))
    import django

    # Celery's Django fix-up puts the working directory first on sys.path as the app loads:
    # from this checkout, an older `site_root` would be seeded with this checkout's code.
    here = os.getcwd()
    os.chdir(site_root)
    try:
        django.setup()
    finally:
        os.chdir(here)


class JoinedDevice(NamedTuple):
    cookie: str  # a Cookie header naming the team's device, as the join page set it ("": none)
    table: int
    student: int = 0


@dataclass
class SeededClass:
    teacher: Any
    session: Any
    devices: list[JoinedDevice]


def seed_classes(
    *,
    school: str,
    domain: str,
    classes: int,
    teams: int = 15,
    table_size: int = 5,
    join: bool = True,
) -> list[SeededClass]:
    """Classes with an open Bot-Builders session, `teams` teams of one student seated at tables
    of `table_size`, one joined device a team (unless not `join`: the devices then join over
    the site's /join, and each JoinedDevice names its student and no cookie), and the tables'
    games started. Needs setup_django() first."""
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

    school_row = School.objects.create(name=school)
    seeded = []
    for c in range(classes):
        teacher = User.objects.create_user(
            f"teacher{c}@{domain}", "not-used-password-0", school=school_row, role=Role.TEACHER
        )
        classroom = Classroom.objects.create(
            school=school_row, teacher=teacher, name=f"Class {c + 1}", school_year="2026-27"
        )
        session = Session.objects.create(
            classroom=classroom, date=datetime.date(2026, 12, 1), game=GameKind.BOT_BUILDERS
        )
        session = classroom_services.session_open(session=session, by=teacher)
        tables, devices = {}, []
        for t in range(teams):
            number = t // table_size + 1
            if number not in tables:
                tables[number] = Table.objects.create(session=session, number=number)
            student = Student.objects.create(classroom=classroom, name=f"Student {t + 1}")
            team = Team.objects.create(
                session=session,
                number=t + 1,
                name=f"Team {t + 1}",
                table=tables[number],
                seat_position=t % table_size,
            )
            TeamMembership.objects.create(session=session, team=team, student=student)
            if not join:
                devices.append(JoinedDevice("", tables[number].pk, student.pk))
                continue
            binding = classroom_services.device_join(session=session, student=student)
            response = HttpResponse()
            set_device_cookie(response, binding, secure=False)
            cookie = f"{DEVICE_COOKIE}={response.cookies[DEVICE_COOKIE].value}"
            devices.append(JoinedDevice(cookie, tables[number].pk, student.pk))
        services.session_start_tables(session=session, by=teacher)
        seeded.append(SeededClass(teacher, session, devices))
    return seeded


class Server(NamedTuple):
    process: subprocess.Popen
    port: int


@contextmanager
def gunicorn(
    app: str,
    *,
    env: dict[str, str],
    workers: int,
    worker_class: str = WORKER_CLASS["wsgi"],
    threads: int | None = None,
    log_level: str = "warning",
    access_log: Path | None = None,
    options: Collection[str] = (),
    port: int = 0,
    cwd: Path = ROOT,
    stderr: Any = None,
    ready_path: str = "/healthz",
) -> Iterator[Server]:
    """A gunicorn serving `app` on loopback (on a free port unless `port`) for the block, from
    the moment `ready_path` answers; stopped however the block ends."""
    port = port or free_port()
    command = [str(GUNICORN), app, "--bind", f"127.0.0.1:{port}", "--workers", str(workers)]
    command += ["--worker-class", worker_class]
    if threads is not None:
        command += ["--threads", str(threads)]
    command += ["--log-level", log_level]
    if access_log is not None:
        command += ["--access-logfile", str(access_log), "--access-logformat", ACCESS_LOG_FORMAT]
    with _serving([*command, *options], port, env, cwd, ready_path, stderr) as server:
        yield server


@contextmanager
def _serving(
    command: list[str], port: int, env: dict[str, str], cwd: Path, ready_path: str, stderr: Any
) -> Iterator[Server]:
    """`command`, a server on `port`, from the moment `ready_path` answers; stopped however the
    block ends."""
    process = subprocess.Popen(command, cwd=cwd, env=env, stderr=stderr)
    try:
        wait_until_serving(port, process, ready_path)
        yield Server(process, port)
    finally:
        stop(process)


@contextmanager
def granian(
    app: str,
    *,
    env: dict[str, str],
    workers: int,
    threads: int,
    access_log: Path | None = None,
    port: int = 0,
    cwd: Path = ROOT,
    ready_path: str = "/healthz",
) -> Iterator[Server]:
    """granian serving the WSGI `app` on loopback, as docker/compose.yaml runs the web tier
    (`threads` blocking threads a worker run the application), for the block. With
    `access_log`, each request is logged there in GRANIAN_ACCESS_LOG_FORMAT."""
    port = port or free_port()
    command = [str(GRANIAN), app, "--interface", "wsgi", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--workers", str(workers), "--blocking-threads", str(threads)]
    command += ["--log-level", "warning"]
    if access_log is not None:
        config = access_log.with_suffix(".logging.json")
        config.write_text(
            json.dumps(
                {
                    "version": 1,
                    "disable_existing_loggers": False,
                    "formatters": {"plain": {"format": "%(message)s"}},
                    "handlers": {
                        "file": {
                            "class": "logging.FileHandler",
                            "filename": str(access_log),
                            "formatter": "plain",
                        }
                    },
                    "loggers": {
                        "granian.access": {
                            "handlers": ["file"],
                            "level": "INFO",
                            "propagate": False,
                        }
                    },
                }
            )
        )
        command += ["--access-log", "--access-log-fmt", GRANIAN_ACCESS_LOG_FORMAT]
        command += ["--log-config", str(config)]
    with _serving(command, port, env, cwd, ready_path, None) as server:
        yield server


def web_tier(
    server: str,
    *,
    env: dict[str, str],
    workers: int,
    threads: int,
    access_log: Path | None = None,
    cwd: Path = ROOT,
    worker_class: str = WORKER_CLASS["wsgi"],
) -> AbstractContextManager[Server]:
    """The site's WSGI tier (pages, polls, moves) under `server`: granian, as compose serves it,
    or gunicorn (threaded workers unless `worker_class`), to compare."""
    if server == "granian":
        return granian(
            "config.wsgi:application",
            env=env,
            workers=workers,
            threads=threads,
            access_log=access_log,
            cwd=cwd,
        )
    return gunicorn(
        "config.wsgi:application",
        env=env,
        workers=workers,
        worker_class=worker_class,
        threads=threads if worker_class == "gthread" else None,
        access_log=access_log,
        cwd=cwd,
    )


@contextmanager
def proxy(
    conf: Path, *, web: int | Collection[int], stream: int | Collection[int], port: int = 0
) -> Iterator[Server]:
    """nginx run from the site's own main configuration (docker/nginx.conf of the tree served,
    the file compose mounts as /etc/nginx/nginx.conf) in front of the web tier on port(s) `web`
    and the stream tier on `stream`, on a free port of loopback; stopped however the block ends.
    Only addresses and the files nginx writes change: every limit and location is compose's.
    On `port` if given (a free one otherwise). Several ports make an upstream of several
    servers, as compose's DNS name does for a service scaled to several containers
    (`docker compose up --scale stream=2`)."""
    if shutil.which("nginx") is None:
        raise RuntimeError("nginx is not installed (apt-get install nginx-light)")
    port = port or free_port()
    prefix = Path(tempfile.mkdtemp(prefix="botbench-proxy-"))
    text = conf.read_text()
    for service, target in (("web:8000", web), ("stream:8001", stream)):
        if f"server {service};" not in text:
            raise RuntimeError(f"{conf} names no upstream {service}")
        ports = [target] if isinstance(target, int) else list(target)
        servers = "\n        ".join(f"server 127.0.0.1:{p};" for p in ports)
        text = text.replace(f"server {service};", servers)
    text, listens = re.subn(r"listen \d+", f"listen 127.0.0.1:{port}", text)
    text, https = re.subn(r"^http \{", "http {\n" + temp_paths(prefix), text, flags=re.M)
    if listens != 1 or https != 1:
        raise RuntimeError(f"{conf} is not a main configuration with one server")
    # Every file nginx writes is in `prefix`: nothing of the machine's own nginx is touched.
    text = re.sub(
        r"^(\s*)error_log [^;]+;", rf"\1error_log {prefix}/error.log warn;", text, flags=re.M
    )
    text = re.sub(r"^(\s*)access_log [^;]+;", r"\1access_log off;", text, flags=re.M)
    (prefix / "nginx.conf").write_text(text)
    process = subprocess.Popen(
        [
            "nginx",
            *("-p", str(prefix), "-e", str(prefix / "error.log")),
            *("-c", str(prefix / "nginx.conf")),
            *("-g", f"daemon off; pid {prefix}/nginx.pid;"),
        ]
    )
    try:
        wait_until_serving(port, process, "/healthz")
        yield Server(process, port)
    finally:
        stop(process)
        shutil.rmtree(prefix, ignore_errors=True)


def connections_to(pid: int, port: int) -> int:
    """The process's open TCP connections to `port` on this machine (Redis's, say)."""
    import psutil

    return sum(
        1
        for each in psutil.Process(pid).net_connections("tcp")
        if each.raddr and each.raddr.port == port and each.status == psutil.CONN_ESTABLISHED
    )


def temp_paths(prefix: Path) -> str:
    return "".join(
        f"    {kind}_temp_path {prefix}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )


def stop(process: subprocess.Popen, timeout: float = 30) -> None:
    """Ends a server gracefully (gunicorn writes out its access log then), or kills it."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wait_until_serving(port: int, process: subprocess.Popen, path: str) -> None:
    """Returns once `path` answers. From /healthz only 200 or 503 will do: 503 says a store it
    checks is down, which still shows the site loaded and serving (a benchmark that needs the
    stores finds out from its own requests); another path (the bare site has no /healthz) may
    answer anything. Generous, as start-up on a machine busy with other work is slow."""
    deadline = time.time() + 120
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server for port {port} exited during start-up")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            if path != "/healthz" or response.status in (200, 503):
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server for port {port} did not answer in time")


def access_times(log: Path) -> list[tuple[str, float]]:
    """(path, seconds inside the server) of each request an ACCESS_LOG_FORMAT (gunicorn) or
    GRANIAN_ACCESS_LOG_FORMAT log holds."""
    lines = log.read_text().splitlines() if log.exists() else []
    times = []
    for line in lines:
        parts = line.split()
        if len(parts) == 4:
            took = parts[3]
            seconds = float(took) / 1e3 if "." in took else int(took) / 1e6
            times.append((parts[1], seconds))
    return times


def database_of_its_own(tmp: Path, suffix: str) -> str:
    """Point this process (and the workers it starts) at a database and broker of their own:
    `<name>_<suffix>` on the PostgreSQL server of `DATABASE_URL` (made anew, dropped by
    `drop_database_of_its_own`), else a SQLite file in `tmp`. Returns a description for the
    report."""
    from urllib.parse import urlsplit, urlunsplit

    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        import psycopg

        parts = urlsplit(url)
        name = f"{parts.path.lstrip('/') or 'botbench'}_{suffix}"
        admin = urlunsplit(parts._replace(path="/postgres"))
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{name}"))
        os.environ["BENCH_DROP_DATABASE"] = f"{admin} {name}"
        database = f"PostgreSQL ({name})"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp / 'bench.sqlite3'}"
        database = "SQLite (temporary file)"
    if not os.environ.get("REDIS_URL"):
        os.environ["BOTBENCH_BROKER_URL"] = f"sqla+sqlite:///{tmp / 'broker.sqlite3'}"
        broker = "SQLite broker (temporary file)"
    else:
        broker = f"Redis ({os.environ['REDIS_URL']})"
    os.environ["DJANGO_MEDIA_ROOT"] = str(tmp / "media")
    os.environ["DJANGO_LOG_LEVEL"] = "WARNING"
    return f"{database}, {broker}"


def drop_database_of_its_own() -> None:
    """Drop the database `database_of_its_own` made, if it made one."""
    spec = os.environ.get("BENCH_DROP_DATABASE")
    if not spec:
        return
    import psycopg

    admin, name = spec.split(" ", 1)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name]
        )
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
