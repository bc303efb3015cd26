"""Report data for the tests: finished sessions with real robot-played games, teach-backs and
assessments (reports.demo), small enough to build in a moment."""

from __future__ import annotations

import datetime

import pytest

from classroom.models import GameKind, Session, SessionStatus, Team
from games.models import TeachBack
from games.teachback.services import assessment_save
from reports.demo import play_session, seed_class


@pytest.fixture(autouse=True)
def _media_in_tmp(settings, tmp_path):
    """Export files go to a folder of the test's own, never the site's var/media."""
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def seeded_class(classroom):
    """Room 12 with 10 students and 5 closed sessions (the 5th plays 3 Laws)."""
    return seed_class(classroom, students=10, sessions=5, seed=11)


def make_session(classroom, *, game=GameKind.BOT_BUILDERS, day=1, seed=5, assess=True):
    import random

    session = Session.objects.create(
        classroom=classroom,
        date=datetime.date(2026, 10, day),
        game=game,
        status=SessionStatus.CLOSED,
    )
    play_session(
        session,
        list(classroom.students.order_by("pk")),
        random.Random(seed),
        assess=classroom.teacher if assess else None,
    )
    return session


@pytest.fixture
def bb_report_session(classroom):
    """A closed Bot-Builders session of the 8-student class: 4 teams at 1 table, assessed."""
    session = make_session(classroom, seed=3)
    # A known comment and sentence to look for in the outputs.
    teachback = TeachBack.objects.filter(team__session=session).order_by("team__number").first()
    teachback.because = "it rescues kittens from tall trees"
    teachback.save(update_fields=["because"])
    criteria = {"complete": 3, "right_jobs": 2, "mission_link": 3, "said_clearly": None}
    assessment_save(
        teachback=teachback,
        scores=criteria,
        comment="Lovely link to the Mission.",
        by=classroom.teacher,
    )
    return session


@pytest.fixture
def tl_report_session(classroom):
    return make_session(classroom, game=GameKind.THREE_LAWS, day=8, seed=9)


def team_names(session) -> list[str]:
    return list(Team.objects.filter(session=session).values_list("name", flat=True))
