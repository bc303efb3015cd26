"""Team devices playing through a fault in the middle of the run:

    .venv/bin/python benchmarks/bench_faults.py [--fault redis-down] [--outage 12] [--seconds 45]

`--classes` classes of 15 team devices (3 tables of 5 teams a class) load their page, poll every
`--poll` seconds (1.5 s: the rate of a screen whose stream is not heard, the poll path every
screen falls back on), and the device whose turn it is posts its move as soon as its screen shows
the buttons. The web tier is granian, as docker/compose.yaml serves it, on loopback PostgreSQL and
a private Redis:

- `redis-down`: the Redis server (a private one on --redis-port, with its data saved) shuts down
  for --outage seconds, then starts again with the keys it had;
- `redis-full`: Redis reaches `maxmemory` (noeviction) for --outage seconds: it refuses writes;
- `pg-kill`: every PostgreSQL connection of the site is ended every 2 s for --outage seconds.
Prints requests/s, the poll's and the move's percentiles and the errors (there must be none), and
compares the moves the devices saw accepted with the rows in the database (none lost, none
doubled).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
from load_players import Device, Player, Stats, percentile  # noqa: E402


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--fault", choices=["redis-down", "redis-full", "pg-kill"], default="redis-down"
    )
    parser.add_argument("--outage", type=float, default=12.0)
    parser.add_argument("--seconds", type=float, default=45.0)
    parser.add_argument("--classes", type=int, default=2)
    parser.add_argument("--teams", type=int, default=15, help="team devices per class")
    parser.add_argument("--table-size", type=int, default=5)
    parser.add_argument("--poll", type=float, default=1.5, help="seconds between polls")
    # As docker/compose.yaml serves the web tier.
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=3)
    parser.add_argument("--db-name", default="botbench_bench_faults")
    parser.add_argument("--redis-port", type=int, default=8150)
    return parser.parse_args()


def seed(args: argparse.Namespace, env: dict[str, str]) -> list[Device]:
    """Classes, open sessions, teams at tables, one joined device a team; tables started."""
    harness.setup_django(env)
    classes = harness.seed_classes(
        school="Load Test Elementary",
        domain="load.test",
        classes=args.classes,
        teams=args.teams,
        table_size=args.table_size,
    )
    return [
        Device(cookie=device.cookie, label=f"class {c + 1} team {t + 1}")
        for c, seeded in enumerate(classes)
        for t, device in enumerate(seeded.devices)
    ]


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


class Redis:
    def __init__(self, port: int, folder: str) -> None:
        self.port, self.folder, self.process = port, folder, None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no", "--dir", self.folder],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        for _ in range(100):
            if self.cli("ping") == "PONG":
                return
            time.sleep(0.1)
        raise RuntimeError("the private redis-server did not start")

    def cli(self, *command: str) -> str:
        done = subprocess.run(
            ["redis-cli", "-p", str(self.port), *command], capture_output=True, text=True
        )
        return done.stdout.strip()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.cli("shutdown", "save")
            self.process.wait(20)


def end_connections(db_name: str) -> int:
    import psycopg

    with psycopg.connect(harness.PG_ADMIN_URL, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
            [db_name],
        ).fetchall()
    return sum(1 for (ended,) in rows if ended)


def fault(args: argparse.Namespace, redis: Redis, log: list[str]) -> None:
    time.sleep(args.seconds / 3)
    started = time.time()
    log.append(f"fault {args.fault} for {args.outage:.0f} s")
    if args.fault == "redis-down":
        redis.stop()
        time.sleep(args.outage)
        redis.start()
    elif args.fault == "redis-full":
        redis.cli("config", "set", "maxmemory-policy", "noeviction")
        redis.cli("config", "set", "maxmemory", "1")
        time.sleep(args.outage)
        redis.cli("config", "set", "maxmemory", "0")
    else:
        ended = 0
        while time.time() < started + args.outage:
            ended += end_connections(args.db_name)
            time.sleep(2)
        log.append(f"ended {ended} PostgreSQL connections")
    log.append(f"fault over after {time.time() - started:.1f} s")


def main() -> int:
    args = parse_args()
    var_dir = tempfile.mkdtemp(prefix="botbench-faults-")
    redis = Redis(args.redis_port, var_dir)
    redis.start()
    try:
        with harness.prepared_site(
            "botbench-faults-",
            db_name=args.db_name,
            redis_db=0,
            redis_port=args.redis_port,
            pool_max=args.threads,
            cache_prefix="bench-load",
        ) as (env, _):
            devices = seed(args, env)
            from django.db import connections

            connections.close_all()  # back to the pool, which checks it before the count below
            with harness.granian(
                "config.wsgi:application", env=env, workers=args.workers, threads=args.threads
            ) as server:
                stats, log = Stats(), []
                deadline = time.time() + args.seconds
                players = [Player(d, server.port, deadline, stats, args.poll) for d in devices]
                breaker = threading.Thread(target=fault, args=(args, redis, log), daemon=True)
                started = time.perf_counter()
                for player in players:
                    player.start()
                breaker.start()
                for player in players:
                    player.join(args.seconds + 60)
                breaker.join(args.outage + 30)
                print("\n".join(log))
                report(stats, time.perf_counter() - started, len(devices))
                from games.models import Move

                refused = sum(1 for e in stats.errors if ": move " in e)
                accepted = len(stats.moves) - refused
                stored = Move.objects.filter(by_robot=False).count()
                print(f"moves accepted by the server: {accepted}, stored: {stored}")
                return 1 if stats.errors or stored != accepted else 0
    finally:
        redis.stop()


if __name__ == "__main__":
    sys.exit(main())
