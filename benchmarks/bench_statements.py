"""What PostgreSQL spends planning and running each written-out statement, unprepared.

    .venv/bin/python benchmarks/bench_statements.py [--runs 7] [--site-root ../before]

A statement is planned on every run until its pooled connection has prepared it and PostgreSQL
has settled on a generic plan (psycopg prepares after 5 runs, PostgreSQL plans the next 5 for
their parameters), and on every run behind PgBouncer, where prepared statements are off
(config/database.py). So a new connection (a restarted process, a stream process taking the
screens of one that died) or a district's pooler pays the planning each time. For each
statement of `games.statements` and `classroom.statements`, on one seeded class (15 teams at
3 tables, started, a device each): EXPLAIN (ANALYZE, SUMMARY) `--runs` times on one
connection, the median of its planning and execution times after the first (which also loads
the connection's catalog caches). PostgreSQL on loopback; its own database, dropped after.
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
from pathlib import Path

import harness


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--site-root", type=Path, default=harness.ROOT)
    parser.add_argument("--db-name", default="botbench_bench_statements")
    return parser.parse_args()


def statements_and_parameters(seeded) -> dict[str, tuple[str, list]]:
    """Each statement, with the parameters a device of the class (or its teacher) gives it."""
    from classroom import statements as classroom_statements
    from classroom.access import visible_class_params
    from classroom.models import DeviceBinding
    from games import statements
    from games.models import TableGame

    binding = DeviceBinding.objects.filter(session=seeded.session).order_by("pk").first()
    team = binding.student.memberships.get(session=seeded.session).team
    game = TableGame.objects.get(table_id=team.table_id)
    seat = statements.seat_params(binding.token, game.pk)
    return {
        "SEATED": (statements.SEATED, seat),
        "SEAT_VERSION": (statements.SEAT_VERSION, [*seat, binding.pk]),
        "SESSION_VERSIONS": (
            statements.SESSION_VERSIONS,
            [seeded.session.pk, *visible_class_params(seeded.teacher)],
        ),
        "LOCK": (statements.LOCK, [game.pk]),
        "FACTS": (statements.FACTS, [game.pk, "bench-move", game.pk, team.table_id]),
        "DEVICES_BY_TABLE": (classroom_statements.DEVICES_BY_TABLE, [seeded.session.pk]),
    }


def times(cursor, statement: str, parameters: list) -> tuple[float, float]:
    cursor.execute(f"EXPLAIN (ANALYZE, SUMMARY) {statement}", parameters)
    lines = [line for (line,) in cursor.fetchall()]

    def milliseconds(label: str) -> float:
        (line,) = [line for line in lines if line.startswith(label)]
        return float(line.split()[-2])

    return milliseconds("Planning Time:"), milliseconds("Execution Time:")


def main() -> int:
    args = parse_args()
    with harness.prepared_site(
        "botbench-statements-",
        db_name=args.db_name,
        redis_db=7,
        pool_max=2,
        cache_prefix=f"bench-statements-{secrets.token_hex(4)}",
        tree=args.site_root,
    ) as (env, _):
        harness.setup_django(env, args.site_root)
        from django.db import connection, transaction

        (seeded,) = harness.seed_classes(school="Statements", domain="statements.test", classes=1)
        print(f"tree: {args.site_root}; median of {args.runs - 1} runs after the first, ms")
        print(f"{'statement':18} {'planning':>9} {'execution':>10}")
        connection.ensure_connection()
        connection.connection.prepare_threshold = None  # every run planned, as unprepared
        for name, (statement, parameters) in statements_and_parameters(seeded).items():
            # LOCK locks the game's row: each run in a transaction of its own, rolled back.
            with connection.cursor() as cursor:
                runs = []
                for _ in range(args.runs):
                    with transaction.atomic():
                        runs.append(times(cursor, statement, parameters))
                        transaction.set_rollback(True)
            planning = statistics.median(p for p, _ in runs[1:])
            execution = statistics.median(e for _, e in runs[1:])
            print(f"{name:18} {planning:9.2f} {execution:10.2f}")
        harness.close_django_connections()
    return 0


if __name__ == "__main__":
    sys.exit(main())
