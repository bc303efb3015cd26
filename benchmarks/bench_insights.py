"""How long the insights pages take, side by side with the plain class report: a class of 30
students over 40 sessions, and the same pages in a school of 60 such classes.

    .venv/bin/python benchmarks/bench_insights.py [--sessions 40] [--classes 60] [--runs 5]
        [--profile]

The class is seeded like `manage.py seed_report_demo` (real robot-played games, teach-backs,
assessments; every 5th session plays 3 Laws), with planted sentences in Spanish and English so
the hints' rules have real work to do. The school's other classes are copies of that class
made row by row (seeding 60 x 40 sessions by playing them would take over an hour and measure
nothing about reports). Each page is fetched with Django's test client as a signed-in teacher
(or the administrator), so the timings include the access check, the queries, the analysis
and the template, but no network; the number of queries of each page is printed beside it.

With DATABASE_URL naming PostgreSQL, the data goes to a database of its own on that server
(`<name>_bench_insights`, created and dropped here); otherwise to a temporary SQLite file.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import harness  # noqa: E402

# -- data ------------------------------------------------------------------------------------

PLANTS = [
    ("en", {"senses_with": "drive wheels"}),
    ("es", {"senses_with": "Ruedas motrices"}),
    ("en", {"senses_with": "propeller"}),
    ("es", {"because": "es muy bonito"}),
    ("en", {"powered_by": "solar panel"}),
    ("es", {"senses_with": "cámara"}),
]


def _plant(classroom) -> None:
    """Some teams of each session write like a real class: Spanish, wrong parts, no purpose."""
    from games.models import TeachBack

    for index, teachback in enumerate(
        TeachBack.objects.filter(team__session__classroom=classroom).order_by("pk")
    ):
        if index % 3:
            continue
        language, changes = PLANTS[(index // 3) % len(PLANTS)]
        for field, value in changes.items():
            setattr(teachback, field, value)
        teachback.language = language
        teachback.save()


def _copy(model, rows, **remap):
    """bulk_create copies of `rows` with their foreign keys remapped ({attname: {old: new}});
    returns {old pk: new pk}."""
    olds = [row.pk for row in rows]
    for row in rows:
        row.pk = None
        row.id = None
        for attname, mapping in remap.items():
            setattr(row, attname, mapping[getattr(row, attname)])
    made = model.objects.bulk_create(rows, batch_size=500)
    return {old: new.pk for old, new in zip(olds, made, strict=True)}


def clone_class(source, name: str):
    """A copy of `source` (students, sessions, tables, teams, games, teach-backs, rubric,
    assessments and scores) in the same school."""
    from classroom.models import Classroom, Session, Student, Table, Team, TeamMembership
    from games.models import (
        Assessment,
        CriterionScore,
        Rubric,
        RubricCriterion,
        TableGame,
        TeachBack,
    )

    classroom = Classroom.objects.get(pk=source.pk)
    classroom.pk = None
    classroom.name = name
    classroom.save()
    c = {source.pk: classroom.pk}
    students = _copy(Student, list(Student.objects.filter(classroom=source)), classroom_id=c)
    sessions = _copy(Session, list(Session.objects.filter(classroom=source)), classroom_id=c)
    Present = Session.present.through
    _copy(
        Present,
        list(Present.objects.filter(session__classroom=source)),
        session_id=sessions,
        student_id=students,
    )
    tables = _copy(
        Table, list(Table.objects.filter(session__classroom=source)), session_id=sessions
    )
    teams = _copy(
        Team,
        list(Team.objects.filter(session__classroom=source)),
        session_id=sessions,
        table_id={**tables, None: None},
    )
    _copy(
        TeamMembership,
        list(TeamMembership.objects.filter(session__classroom=source)),
        session_id=sessions,
        team_id=teams,
        student_id=students,
    )
    games = _copy(
        TableGame,
        list(TableGame.objects.filter(session__classroom=source)),
        session_id=sessions,
        table_id=tables,
    )
    rubrics = _copy(Rubric, list(Rubric.objects.filter(classroom=source)), classroom_id=c)
    criteria = _copy(
        RubricCriterion,
        list(RubricCriterion.objects.filter(rubric__classroom=source)),
        rubric_id=rubrics,
    )
    teachbacks = _copy(
        TeachBack,
        list(TeachBack.objects.filter(team__session__classroom=source)),
        team_id=teams,
        game_id=games,
    )
    assessments = _copy(
        Assessment,
        list(Assessment.objects.filter(teachback__team__session__classroom=source)),
        teachback_id=teachbacks,
        rubric_id=rubrics,
    )
    _copy(
        CriterionScore,
        list(CriterionScore.objects.filter(assessment__teachback__team__session__classroom=source)),
        assessment_id=assessments,
        criterion_id=criteria,
    )
    return classroom


# -- timing ----------------------------------------------------------------------------------


def _time(client, url: str, runs: int) -> tuple[float, float, float, int]:
    """Median and worst ms of `runs` GETs (after one warm-up), the median of this process's
    CPU ms (on SQLite the whole cost; on PostgreSQL all but the server's; a busy machine
    stretches the wall clock, much less the CPU), and the queries of one (counted by a wrapper
    around the connection's execute: the request itself clears query logs)."""
    from django.db import connection

    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    executed = []

    def count(execute, sql, params, many, context):
        executed.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        client.get(url)
    times, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        assert response.status_code == 200
    return statistics.median(times), max(times), statistics.median(cpu), len(executed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--classes", type=int, default=60)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--profile",
        action="store_true",
        help="after the timings, profile one school overview with pyinstrument and print it",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        where = harness.database_of_its_own(Path(tmp_name), "bench_insights")
        try:
            _run(args, where)
        finally:
            harness.drop_database_of_its_own()


def _run(args, where: str) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from classroom.models import Classroom, GameKind, Role, School, User
    from reports.demo import seed_class

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    print(f"bench_insights: {where}; {os.cpu_count()} CPUs")
    call_command("migrate", verbosity=0)
    school = School.objects.create(name="Benchmark Elementary")
    teacher = User.objects.create_user("t@bench.test", "x", school=school, role=Role.TEACHER)
    admin = User.objects.create_user("a@bench.test", "x", school=school, role=Role.ADMINISTRATOR)
    started = time.perf_counter()
    big = Classroom.objects.create(school=school, teacher=teacher, name="Class 01")
    seed_class(big, students=args.students, sessions=args.sessions, seed=7)
    _plant(big)
    print(
        f"seeded a class of {args.students} x {args.sessions} sessions in "
        f"{time.perf_counter() - started:.0f} s"
    )
    session = big.sessions.filter(game=GameKind.BOT_BUILDERS).order_by("-date").first()
    client = Client()
    client.force_login(teacher)
    pages = [
        ("class report (plain)", f"/reports/classes/{big.pk}/"),
        ("class insights", f"/reports/classes/{big.pk}/insights/"),
        ("session report (plain)", f"/reports/sessions/{session.pk}/"),
        ("session insights", f"/reports/sessions/{session.pk}/insights/"),
        ("class insights XLSX", f"/reports/classes/{big.pk}/insights.xlsx"),
    ]

    def measure(title: str, who) -> None:
        print(f"\n{title} (median / worst of {args.runs}, median CPU, queries):")
        for name, url in pages:
            median, worst, cpu, queries = _time(who, url, args.runs)
            print(
                f"  {name:24} {median:7.0f} ms  {worst:7.0f} ms  {cpu:7.0f} ms CPU"
                f"  {queries:3} queries"
            )

    measure(f"one class of {args.students} over {args.sessions} sessions", client)
    started = time.perf_counter()
    for number in range(2, args.classes + 1):
        clone_class(big, f"Class {number:02d}")
    if connection.vendor == "postgresql":
        # The planner's statistics, as autovacuum would leave them after such an insert: with
        # the stale ones of an empty database it picks nested loops over whole tables.
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    print(
        f"\ncopied it into a school of {args.classes} classes in "
        f"{time.perf_counter() - started:.0f} s"
    )
    measure(f"the same class in a school of {args.classes} classes, as its teacher", client)
    admin_client = Client()
    admin_client.force_login(admin)
    last = Classroom.objects.filter(school=school).order_by("-pk").first()
    pages[:] = [
        ("school overview (plain)", "/reports/school/"),
        ("class report (plain)", f"/reports/classes/{last.pk}/"),
        ("class insights", f"/reports/classes/{last.pk}/insights/"),
    ]
    measure(f"the school of {args.classes} classes, as its administrator", admin_client)
    if args.profile:
        from pyinstrument import Profiler

        with Profiler() as profiler:
            admin_client.get("/reports/school/")
        print(profiler.output_text(color=False, show_all=False))


if __name__ == "__main__":
    main()
