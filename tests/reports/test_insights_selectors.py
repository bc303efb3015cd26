"""The insights selector on a class with planted patterns: exact counts, rubric versions kept
apart, 3 Laws calls from the stored games, and a query count that does not grow with the class."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from reports.demo import play_session
from reports.insights.misconceptions import NO_PURPOSE, NOT_ON_BENCH, WRONG_CATEGORY
from reports.selectors.insights import (
    class_insights,
    session_heat,
    session_insights,
    student_heat,
    team_heat,
)
from tests.reports.insights_world import PLANTED_COUNTS, plant_class


@pytest.fixture
def planted(classroom):
    return plant_class(classroom)


def _by_key(insights):
    return {m.key: m for m in insights.misconceptions}


def test_session_insights_count_exactly_the_planted_misconceptions(planted):
    insights = session_insights(planted.first)
    found = _by_key(insights)
    act = found[f"{WRONG_CATEGORY}:senses_with:act"]
    assert (act.count, act.of) == (PLANTED_COUNTS["act_in_sense"], planted.first_count)
    assert [(c.id, n) for c, n in act.card_counts] == [("drive_wheels", 4), ("propeller", 2)]
    assert found[f"{NO_PURPOSE}:because:"].count == PLANTED_COUNTS["no_purpose"]
    assert found[f"{NOT_ON_BENCH}::"].count == PLANTED_COUNTS["not_on_bench"]
    assert len(found) == 3
    senses = insights.blanks[0]
    groups = {g.key: g.count for g in senses.groups}
    assert groups["card:drive_wheels"] == 4 and groups["card:propeller"] == 2
    assert groups["card:camera"] == planted.first_count - 6
    assert insights.teach_next[0].misconception is act


def test_class_insights_keep_renamed_and_reweighted_criteria_apart(planted):
    insights = class_insights(planted.classroom)
    columns = [(c.key, c.title, c.max_score, c.versions) for c in insights.criteria]
    assert ("complete", "Complete", 3, (1,)) in columns
    assert ("complete", "Complete", 4, (2,)) in columns
    assert ("mission_link", "Mission link", 3, (1,)) in columns
    assert ("mission_link", "Link to the Mission", 3, (2,)) in columns
    # Unchanged between the versions: one column.
    assert ("right_jobs", "Right jobs", 3, (1, 2)) in columns
    act = _by_key(insights)[f"{WRONG_CATEGORY}:senses_with:act"]
    assert act.count == 7 and act.of == planted.first_count + planted.second_count
    assert insights.by_session[act.key] == {planted.first.pk: 6, planted.second.pk: 1}
    heat = session_heat(insights)
    assert len(heat.columns) == 2 and len(heat.rows) == len(insights.criteria)
    right_jobs = next(r for r in heat.rows if r.label == "right_jobs|Right jobs|3")
    first_average = (6 * 1 / 3 + (planted.first_count - 6) * 1) / planted.first_count
    assert right_jobs.cells[0].fraction == pytest.approx(first_average)
    assert right_jobs.cells[1].fraction == 1
    assert len(student_heat(insights).rows) == len(insights.students)
    assert len(team_heat(insights).rows) == planted.first_count + planted.second_count


def test_three_laws_calls_come_from_the_stored_game(planted):
    evidence = class_insights(planted.classroom).three_laws
    assert (evidence.errors_right, evidence.errors_wrong, evidence.counters) == (2, 2, 2)
    teams = {t.team: t for t in evidence.teams}
    assert (teams["Robots 1"].errors_right, teams["Robots 1"].errors_wrong) == (2, 0)
    assert (teams["Robots 3"].errors_wrong, teams["Robots 3"].counters_wrong) == (1, 1)
    (law,) = evidence.most_misunderstood
    assert (law.law, law.wrong, law.broken) == (planted.law, 2, 2)


def _count(build):
    with CaptureQueriesContext(connection) as queries:
        build()
    return len(queries)


def test_queries_do_not_grow_with_sessions_or_teams(planted):
    small = _count(lambda: class_insights(planted.classroom))
    session_small = _count(lambda: session_insights(planted.first))
    import datetime
    import random

    from classroom.models import GameKind, Session, SessionStatus

    students = list(planted.classroom.students.order_by("pk"))
    for day in (20, 21, 22):
        for game in (GameKind.BOT_BUILDERS, GameKind.THREE_LAWS):
            session = Session.objects.create(
                classroom=planted.classroom,
                date=datetime.date(2026, 10, day),
                game=game,
                status=SessionStatus.CLOSED,
            )
            play_session(session, students, random.Random(day), assess=planted.classroom.teacher)
    assert _count(lambda: class_insights(planted.classroom)) == small
    assert _count(lambda: session_insights(planted.first)) == session_small
    assert small == 6 and session_small <= 6
