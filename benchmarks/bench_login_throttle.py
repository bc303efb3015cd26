"""A student's device page while clients hammer the login with wrong passwords, on the real stack
(gunicorn + PostgreSQL + Redis on loopback), before and after the login throttle.

    .venv/bin/python benchmarks/bench_login_throttle.py [--before REF] [--seconds 20]

One device loads its page (`/me`) back to back: first on a quiet server, then while `--attackers`
clients send wrong passwords for a teacher's account (or, with `--spray`, for a new e-mail address
each time). Prints the device page's p50/p95/mean in both phases and what the attackers were
answered. With `--before REF` the same run is made first on that commit of the code (exported with
`git archive`, run with this tree's .venv), and both are printed side by side.

Each run creates and migrates its own database (`--db-name`, dropped at the end), flushes its own
Redis db number before and after, starts gunicorn itself (3 workers x 4 threads) and
stops it. Passwords use Django's default hasher, as in production: its cost is the point.
"""

from __future__ import annotations

import argparse
import http.client
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
from load_players import percentile  # noqa: E402

TEACHER = "teacher@login-bench.test"
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')

SEED = """
import datetime
from django.http import HttpResponse
from classroom import services
from classroom.devices import DEVICE_COOKIE, set_device_cookie
from classroom.models import Classroom, GameKind, Role, School, Session, Student, User
school = School.objects.create(name="Login Bench School")
teacher = User.objects.create_user(
    "%(teacher)s", "the-real-passphrase-2026", school=school, role=Role.TEACHER
)
classroom = Classroom.objects.create(school=school, teacher=teacher, name="Class 1")
student = Student.objects.create(classroom=classroom, name="Ava")
session = services.session_open(
    session=Session.objects.create(
        classroom=classroom, date=datetime.date(2026, 12, 1), game=GameKind.BOT_BUILDERS
    ),
    by=teacher,
)
binding = services.device_join(session=session, student=student)
response = HttpResponse()
set_device_cookie(response, binding, secure=False)
print("COOKIE " + DEVICE_COOKIE + "=" + response.cookies[DEVICE_COOKIE].value)
"""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="a git ref to measure first, e.g. the commit before")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--attackers", type=int, default=4)
    parser.add_argument("--spray", action="store_true", help="a new e-mail for every guess")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--db-name", default="botbench_bench_login")
    parser.add_argument("--redis-db", type=int, default=9)
    return parser.parse_args()


@dataclass
class Phase:
    page: list[float] = field(default_factory=list)
    answers: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)


def device_loop(port: int, cookie: str, until: float, phase: Phase) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    while time.time() < until:
        started = time.perf_counter()
        try:
            conn.request("GET", "/me", headers={"Cookie": cookie})
            response = conn.getresponse()
            response.read()
        except OSError as exc:
            phase.errors.append(f"device: {exc}")
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            continue
        phase.page.append(time.perf_counter() - started)
        if response.status != 200:
            phase.errors.append(f"device page answered {response.status}")


def attacker_loop(port: int, until: float, phase: Phase, spray: bool, lock: threading.Lock):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request("GET", "/accounts/login/")
    response = conn.getresponse()
    page = response.read().decode()
    token = CSRF_INPUT.search(page)[1]
    cookie = response.getheader("Set-Cookie").split(";", 1)[0]
    guess = 0
    while time.time() < until:
        guess += 1
        email = f"guess{secrets.token_hex(6)}@login-bench.test" if spray else TEACHER
        body = urlencode(
            {"csrfmiddlewaretoken": token, "username": email, "password": f"wrong-{guess}"}
        )
        try:
            conn.request(
                "POST",
                "/accounts/login/",
                body=body,
                headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"},
            )
            response = conn.getresponse()
            response.read()
        except OSError as exc:
            with lock:
                phase.errors.append(f"attacker: {exc}")
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            continue
        with lock:
            phase.answers[response.status] += 1


def run_phase(port: int, cookie: str, args: argparse.Namespace, attackers: int) -> Phase:
    phase = Phase()
    lock = threading.Lock()
    until = time.time() + args.seconds
    threads = [threading.Thread(target=device_loop, args=(port, cookie, until, phase))]
    threads += [
        threading.Thread(target=attacker_loop, args=(port, until, phase, args.spray, lock))
        for _ in range(attackers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(args.seconds + 180)
    return phase


def measure(tree: Path, args: argparse.Namespace) -> tuple[Phase, Phase]:
    with harness.prepared_site(
        "botbench-login-bench-",
        db_name=args.db_name,
        redis_db=args.redis_db,
        pool_max=args.threads,
        cache_prefix="bench-login",
        log_level="ERROR",
        flush=True,
        tree=tree,
    ) as (env, var_dir):
        try:
            seeded = harness.manage(env, "shell", "-c", SEED % {"teacher": TEACHER}, cwd=tree)
            cookie = next(line[7:] for line in seeded.splitlines() if line.startswith("COOKIE "))
            with harness.gunicorn(
                "config.wsgi",
                env=env,
                workers=args.workers,
                threads=args.threads,
                port=args.port,
                cwd=tree,
                stderr=(Path(var_dir) / "gunicorn.log").open("w"),  # one warning per refused login
            ) as server:
                quiet = run_phase(server.port, cookie, args, attackers=0)
                attacked = run_phase(server.port, cookie, args, attackers=args.attackers)
            return quiet, attacked
        finally:
            shutil.rmtree(var_dir, ignore_errors=True)


def export(ref: str) -> Path:
    """The code at `ref`, in a temporary folder (the .venv stays this tree's)."""
    target = Path(tempfile.mkdtemp(prefix="botbench-login-before-"))
    archive = subprocess.run(
        ["git", "archive", ref], cwd=harness.ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def summary(name: str, phase: Phase) -> str:
    page = phase.page
    mean = statistics.fmean(page) * 1000 if page else float("nan")
    answers = ", ".join(f"{n}x {status}" for status, n in sorted(phase.answers.items()))
    return (
        f"{name:28} n={len(page):5}  p50={percentile(page, 50):7.1f} ms  "
        f"p95={percentile(page, 95):7.1f} ms  mean={mean:7.1f} ms"
        + (f"  | logins answered: {answers}" if answers else "")
        + (f"  | errors: {len(phase.errors)}" if phase.errors else "")
    )


def main() -> int:
    args = parse_args()
    kind = "a new e-mail each guess" if args.spray else f"the account {TEACHER}"
    print(
        f"device page /me; {args.attackers} clients sending wrong passwords for {kind}; "
        f"{args.seconds:.0f} s a phase; gunicorn {args.workers} workers x {args.threads} threads"
    )
    runs = []
    if args.before:
        before_tree = export(args.before)
        try:
            runs.append((f"before ({args.before})", measure(before_tree, args)))
        finally:
            shutil.rmtree(before_tree, ignore_errors=True)
    runs.append(("after (this tree)", measure(harness.ROOT, args)))
    failed = False
    for name, (quiet, attacked) in runs:
        print(summary(f"{name}, quiet", quiet))
        print(summary(f"{name}, attacked", attacked))
        failed = failed or bool(quiet.errors or attacked.errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
