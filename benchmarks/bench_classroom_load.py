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
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
from load_players import Device, Player, Stats, percentile  # noqa: E402


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


def server_report(log: Path) -> None:
    """The same percentiles as gunicorn measured them: time inside the server only, without
    the load generator's own waiting (it shares the machine's CPUs with the server)."""
    kinds: dict[str, list[float]] = {"poll": [], "move": []}
    for path, seconds in harness.access_times(log):
        kind = (
            "poll"
            if path.startswith("/play/poll/")
            else ("move" if path.endswith("/move/") else None)
        )
        if kind:
            kinds[kind].append(seconds)
    print("server side (gunicorn's request time):")
    for name, values in kinds.items():
        print(
            f"{name:5} n={len(values):6}  p50={percentile(values, 50):7.1f} ms  "
            f"p95={percentile(values, 95):7.1f} ms  p99={percentile(values, 99):7.1f} ms"
        )


def main() -> int:
    args = parse_args()
    with harness.prepared_site(
        "botbench-load-",
        db_name=args.db_name,
        redis_db=args.redis_db,
        pool_max=args.threads,
        cache_prefix="bench-load",
        flush=True,
        keep_db=args.keep_db,
    ) as (env, var_dir):
        print(f"database {args.db_name}, redis db {args.redis_db}, var {var_dir}")
        started = time.perf_counter()
        devices = seed(args, env)
        print(f"seeded {len(devices)} devices in {time.perf_counter() - started:.1f} s")
        access_log = Path(var_dir) / "access.log"
        with harness.gunicorn(
            "config.wsgi",
            env=env,
            workers=args.workers,
            threads=args.threads,
            access_log=access_log,
        ) as server:
            stats = Stats()
            deadline = time.time() + args.seconds
            players = [Player(d, server.port, deadline, stats, args.poll) for d in devices]
            run_started = time.perf_counter()
            for player in players:
                player.start()
            for player in players:
                player.join(args.seconds + 60)
            report(stats, time.perf_counter() - run_started, len(devices))
            harness.stop(server.process)  # gunicorn writes out its access log as it ends
        server_report(access_log)
        return 1 if stats.errors else 0


if __name__ == "__main__":
    sys.exit(main())
