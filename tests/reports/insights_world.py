"""Builders for the insights tests: sentences as the analysis reads them, and 3 Laws games
played by the real engine with scripted Error calls (right, countered, voided)."""

from __future__ import annotations

from collections.abc import Callable

from games.engines import three_laws
from games.engines.three_laws import FACILITATOR
from reports.insights.sentences import Sentence

BENCH = {
    "sense": "camera",
    "think": "loop_chip",
    "act": "drive_wheels",
    "power": "battery_pack",
    "mission": "rescue_rover",
}


def sentence(
    number: int,
    *,
    senses: str = "camera",
    thinks: str = "loop chip",
    acts: str = "drive wheels",
    powered: str = "battery pack",
    because: str = "it needs them to find people after a storm",
    language: str = "en",
    bench: dict | None = None,
    session_id: int = 1,
) -> Sentence:
    return Sentence(
        id=number,
        team=f"Team {number}",
        session_id=session_id,
        session_label="Oct 1",
        fields={
            "senses_with": senses,
            "thinks_with": thinks,
            "acts_with": acts,
            "powered_by": powered,
            "because": because,
        },
        mission="rescue_rover",
        language=language,
        bench=BENCH if bench is None else bench,
    )


Script = Callable[[three_laws.Game, str], list[tuple[str, dict]]]


def play_three_laws(seats: list[str], seed: int, script: Script) -> three_laws.Game:
    """A game skipping round 1, so round 2's one law is in force from its Wake Up: `script`
    gets the game and that law and returns the (seat, action) calls to make then; robots and
    the facilitator play the rest to the end."""
    game = three_laws.new_game(seats, seed=seed, skip_first_round=True)
    game.apply(FACILITATOR, {"type": "advance"})
    for seat, action in script(game, game.laws_in_force[0]):
        game.apply(seat, action)
    while not game.is_over:
        seat = game.current_seat
        if seat is None:
            game.apply(FACILITATOR, {"type": "advance"})
        else:
            game.apply(seat, three_laws.suggest(game, seat))
    return game


# -- a seeded class with planted patterns (database) ------------------------------------------

CLEAN = {
    "senses_with": "camera",
    "thinks_with": "loop chip",
    "acts_with": "drive wheels",
    "powered_by": "battery pack",
    "because": "it needs them to find people after a storm",
}
# Session 1's planted sentences, each (language, changed blanks); every other team writes CLEAN.
PLANTED = [
    ("en", {"senses_with": "drive wheels"}),
    ("es", {"senses_with": "Ruedas motrices"}),
    ("en", {"senses_with": "Drive Wheels"}),
    ("es", {"senses_with": "ruedas motrices", "because": "es muy bonito"}),
    ("en", {"senses_with": "propeller"}),
    ("es", {"senses_with": "Hélice"}),
    ("en", {"because": "it is blue"}),
    ("en", {"powered_by": "solar panel"}),
    ("es", {"powered_by": "panel solar"}),
]
PLANTED_COUNTS = {"act_in_sense": 6, "no_purpose": 2, "not_on_bench": 2}


def _write(teachback, language: str, changes: dict) -> None:
    for field_name, value in {**CLEAN, **changes}.items():
        setattr(teachback, field_name, value)
    teachback.language = language
    teachback.bench_snapshot = dict(BENCH)
    teachback.mission = BENCH["mission"]
    teachback.save()


def _teachbacks(session):
    from games.models import TeachBack

    return list(
        TeachBack.objects.filter(team__session=session).order_by(
            "team__table__number", "team__number"
        )
    )


def plant_class(classroom):
    """Room 12 with 30 students: a Bot-Builders session with PLANTED sentences assessed under
    rubric v1, the rubric then renamed and re-weighted (v2), a second session assessed under
    v2 with one more Act part in "senses with", and a 3 Laws session whose scripted calls are
    2 right and 2 wrong Error calls and 2 counters (1 right)."""
    import datetime
    import random
    from types import SimpleNamespace

    from classroom.models import GameKind, Session, SessionStatus, Table, Team
    from games.models import TableGame, TableMode, TableStatus
    from games.teachback.rubrics import rubric_for_class, rubric_update
    from games.teachback.services import assessment_save
    from reports.demo import play_session, seed_class

    seed_class(classroom, students=30, sessions=0)
    teacher = classroom.teacher
    students = list(classroom.students.order_by("pk"))

    def session(day: int, game=GameKind.BOT_BUILDERS):
        return Session.objects.create(
            classroom=classroom,
            date=datetime.date(2026, 10, day),
            game=game,
            status=SessionStatus.CLOSED,
        )

    first = session(1)
    play_session(first, students, random.Random(4), assess=None)
    rubric_for_class(classroom)
    sentences = _teachbacks(first)
    for index, teachback in enumerate(sentences):
        language, changes = PLANTED[index] if index < len(PLANTED) else ("en", {})
        _write(teachback, language, changes)
        wrong_part = "senses_with" in changes
        no_purpose = "because" in changes
        assessment_save(
            teachback=teachback,
            scores={
                "complete": 3,
                "right_jobs": 1 if wrong_part else 3,
                "mission_link": 0 if no_purpose else 2,
                "said_clearly": None,
            },
            comment="",
            by=teacher,
        )
    rows = [
        {"key": "complete", "title": "Complete", "max_score": 4},
        {"key": "right_jobs", "title": "Right jobs", "max_score": 3},
        {"key": "mission_link", "title": "Link to the Mission", "max_score": 3},
        {"key": "said_clearly", "title": "Said clearly", "max_score": 3, "optional": True},
    ]
    rubric_update(classroom=classroom, criteria=rows, by=teacher)
    second = session(8)
    play_session(second, students, random.Random(5), assess=None)
    later = _teachbacks(second)
    for index, teachback in enumerate(later):
        _write(teachback, "en", {"senses_with": "drive wheels"} if index == 0 else {})
        assessment_save(
            teachback=teachback,
            scores={"complete": 4, "right_jobs": 3, "mission_link": 3, "said_clearly": 2},
            comment="",
            by=teacher,
        )

    third = session(15, GameKind.THREE_LAWS)
    table = Table.objects.create(session=third, number=1)
    seats = []
    for number in range(1, 5):
        team = Team.objects.create(
            session=third, number=number, name=f"Robots {number}", table=table
        )
        seats.append(team.seat)

    def script(game, law):
        a, b, c, d = seats
        return [
            (a, {"type": "error", "offender": b, "law": law}),  # c1 stands: right
            (c, {"type": "error", "offender": d, "law": law}),  # c2 countered: wrong
            (d, {"type": "counter", "call": "c2"}),  # c3 stands: right
            (b, {"type": "error", "offender": a, "law": law}),  # c4 voided: wrong
            ("facilitator", {"type": "void", "call": "c4"}),
            (a, {"type": "error", "offender": c, "law": law}),  # c5 stands again: right
            (c, {"type": "counter", "call": "c5"}),  # c6 voided: wrong
            ("facilitator", {"type": "void", "call": "c6"}),
        ]

    game = play_three_laws(seats, 7, script)
    TableGame.objects.create(
        table=table,
        session=third,
        kind=GameKind.THREE_LAWS,
        mode=TableMode.LIVE,
        seed=7,
        seats=seats,
        state=game.to_dict(),
        status=TableStatus.OVER,
        results=game.results(),
    )
    return SimpleNamespace(
        classroom=classroom,
        first=first,
        second=second,
        third=third,
        first_count=len(sentences),
        second_count=len(later),
        law=game.laws_in_force[0],
    )
