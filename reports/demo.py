"""Realistic report data: a class's finished sessions, each with teams of two at several tables,
games played to the end by the engines' own robot players (`suggest`), teach-back sentences
from the final benches and assessments saved through the teach-back service.

Used by `manage.py seed_report_demo`, the benchmark and the tests. It writes rows directly,
as a lesson would leave them, because replaying a whole lesson through the live-play services
(joins, moves one by one) would take minutes and prove nothing about reports.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence

from django.db import transaction

from classroom.models import (
    Classroom,
    GameKind,
    School,
    Session,
    SessionStatus,
    Student,
    Table,
    Team,
    TeamMembership,
    User,
)
from games.engine_registry import final_benches
from games.engines import bot_builders, three_laws
from games.engines.simulation import play_one
from games.models import TableGame, TableMode, TableStatus, TeachBack
from games.teachback.rubrics import rubric_for_class
from games.teachback.services import assessment_save

FIRST_NAMES = [
    "Ava", "Ben", "Chloe", "Diego", "Emma", "Finn", "Grace", "Hugo", "Isla", "Jonah", "Kai",
    "Lena", "Mateo", "Nora", "Omar", "Priya", "Quinn", "Rosa", "Sam", "Tara", "Uma", "Victor",
    "Wren", "Yusuf", "Zoë", "José", "Aiyana", "Björn", "Mei", "Noah", "Ines", "Luca",
]  # fmt: skip
COMMENTS = [
    "Clear and complete: the because ties every part to the Mission.",
    "Good parts; say how the sensor helps the Mission.",
    "Great teamwork. Next time explain the power choice.",
    "",
]
START = datetime.date(2026, 9, 8)


def _robot(module):
    return lambda game, seat, rng: module.suggest(game, seat)


def _tables(teams: list[Team], low: int, high: int) -> list[list[Team]]:
    """Split teams into as few tables as the size limits allow, sizes as even as possible."""
    count = max(1, -(-len(teams) // high))
    while len(teams) / count < low and count > 1:
        count -= 1
    return [teams[i::count] for i in range(count)]


def _sentence(bench: dict) -> dict[str, str]:
    def name(slot: str) -> str:
        card = bot_builders.CARDS.get(bench.get(slot) or "")
        return card.name.lower() if card else "a part we still need"

    mission = bot_builders.CARDS.get(bench.get("mission") or "")
    goal = mission.name.lower() if mission else "helping people"
    return {
        "senses_with": name("sense"),
        "thinks_with": name("think"),
        "acts_with": name("act"),
        "powered_by": name("power"),
        "because": f"it needs them for {goal}",
    }


def play_session(
    session: Session, students: Sequence[Student], rng: random.Random, *, assess: User | None
) -> None:
    """Seat `students` in teams of two, play every table to the end, write teach-backs and
    (when `assess` is the teacher) assess them."""
    kind = session.game
    low, high = (4, 8) if kind == GameKind.THREE_LAWS else (2, 6)
    present = [s for s in students if rng.random() > 0.1]
    if len(present) < 2 * low:
        present = list(students)
    session.present.set(present)
    rng.shuffle(present)
    # Pairs, unless too few students for a table of pairs (3 Laws needs 4 seats): then solo.
    size = 2 if len(present) >= 2 * low else 1
    teams = []
    for n, start in enumerate(range(0, len(present), size), start=1):
        team = Team.objects.create(session=session, number=n, name=f"Team {n}")
        for student in present[start : start + size]:
            TeamMembership.objects.create(session=session, team=team, student=student)
        teams.append(team)
    module = three_laws if kind == GameKind.THREE_LAWS else bot_builders
    for number, seated in enumerate(_tables(teams, low, high), start=1):
        table = Table.objects.create(session=session, number=number)
        for position, team in enumerate(seated):
            team.table = table
            team.seat_position = position
            team.save(update_fields=["table", "seat_position"])
        seats = [t.seat for t in seated]
        seed = rng.randrange(2**31)
        engine, _ = play_one(module, seats, {s: _robot(module) for s in seats}, seed, {})
        game = TableGame.objects.create(
            table=table,
            session=session,
            kind=kind,
            mode=TableMode.LIVE,
            seed=seed,
            seats=seats,
            state=engine.to_dict(),
            status=TableStatus.OVER,
            results=engine.results(),
        )
        if kind == GameKind.BOT_BUILDERS:
            _teachbacks(game, seated, rng, assess)


def _teachbacks(game: TableGame, teams: list[Team], rng: random.Random, assess) -> None:
    benches = final_benches(game)
    for team in teams:
        bench = {slot: benches.get(team.seat, {}).get(slot) for slot in bot_builders.SLOTS}
        teachback = TeachBack.objects.create(
            team=team,
            game=game,
            bench_snapshot=bench,
            mission=bench.get("mission") or "",
            **_sentence(bench),
        )
        if assess is None or rng.random() < 0.15:
            continue
        criteria = rubric_for_class(team.session.classroom).criteria.all()
        scores = {c.key: rng.randint(max(0, c.max_score - 2), c.max_score) for c in criteria}
        assessment_save(teachback=teachback, scores=scores, comment=rng.choice(COMMENTS), by=assess)


def seed_class(
    classroom: Classroom,
    *,
    students: int = 30,
    sessions: int = 20,
    seed: int = 2026,
    three_laws_every: int = 5,
    assess: bool = True,
) -> Classroom:
    """Fill `classroom` with `students` students and `sessions` closed sessions, one a week;
    every `three_laws_every`-th one plays 3 Laws. Same seed, same data."""
    rng = random.Random(seed)
    existing = set(classroom.students.values_list("name", flat=True))
    names = [n for n in FIRST_NAMES if n not in existing]
    for i in range(students - len(existing)):
        name = names[i] if i < len(names) else f"Student {i + 1}"
        Student.objects.create(classroom=classroom, name=name)
    roster = list(classroom.students.order_by("pk"))
    for index in range(sessions):
        with transaction.atomic():
            three = three_laws_every and (index + 1) % three_laws_every == 0
            session = Session.objects.create(
                classroom=classroom,
                date=START + datetime.timedelta(weeks=index),
                game=GameKind.THREE_LAWS if three else GameKind.BOT_BUILDERS,
                status=SessionStatus.CLOSED,
            )
            play_session(session, roster, rng, assess=classroom.teacher if assess else None)
    return classroom


def seed_school(
    school: School, teacher: User, *, classes: int, students: int, sessions: int, seed: int = 1
) -> list[Classroom]:
    """`classes` classes of `teacher` at `school`, each seeded like `seed_class`."""
    made = []
    for i in range(classes):
        classroom = Classroom.objects.create(
            school=school,
            teacher=teacher,
            name=f"Class {i + 1:02d} Robotics",
            grade=f"Grade {3 + i % 4}",
            school_year="2026-27",
        )
        made.append(
            seed_class(classroom, students=students, sessions=sessions, seed=seed * 1000 + i)
        )
    return made
