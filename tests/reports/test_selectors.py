"""What the report builders compute, and that they cost a fixed number of queries."""

import pytest

from classroom.models import GameKind, Team
from games.models import TableGame, TeachBack
from reports import selectors
from reports.demo import seed_class
from tests.reports.conftest import make_session


def test_session_report_lists_every_team_in_place_order_with_benches_and_teachbacks(
    bb_report_session,
):
    report = selectors.session_report(bb_report_session)
    seats = [seat for table in report.tables for seat in table.seats]
    assert {s.name for s in seats} == {
        t.name for t in Team.objects.filter(session=bb_report_session)
    }
    for table in report.tables:
        places = [s.place for s in table.seats]
        assert places == sorted(places)
        game = TableGame.objects.get(session=bb_report_session, table__number=table.number)
        assert [s.score for s in table.seats] == [r["score"] for r in game.results]
        assert all(len(s.bench["slots"]) == 5 for s in table.seats)
    assert (
        len(report.teachbacks) == TeachBack.objects.filter(team__session=bb_report_session).count()
    )
    assert report.present == bb_report_session.present.count()
    assert [r["key"] for r in report.rubric][:3] == ["complete", "right_jobs", "mission_link"]


def test_three_laws_session_shows_victory_points_and_the_winner(tl_report_session):
    report = selectors.session_report(tl_report_session)
    (table,) = report.tables
    assert table.is_three_laws
    game = TableGame.objects.get(session=tl_report_session)
    assert [s.vp for s in table.seats] == [r["vp"] for r in game.results]
    winner_seat = game.results[0]["seat"]
    assert table.winners == [
        Team.objects.get(session=tl_report_session, number=int(winner_seat[5:])).name
    ]


def test_class_report_averages_only_human_teams_and_counts_three_laws_apart(seeded_class):
    report = selectors.class_report(seeded_class)
    assert len(report.points) == 5
    bb_points = report.bot_builders_points
    tl_points = report.three_laws_points
    assert len(bb_points) == 4 and len(tl_points) == 1
    for point in bb_points:
        results = [
            row for game in TableGame.objects.filter(session=point.session) for row in game.results
        ]
        assert point.average_score == pytest.approx(sum(r["score"] for r in results) / len(results))
        assert point.full_bot_rate == pytest.approx(
            sum(r["full_bot"] for r in results) / len(results)
        )
        assert point.participation == pytest.approx(point.session.present.count() / 10)
    assert tl_points[0].vp_total == sum(
        r["vp"] for g in TableGame.objects.filter(session=tl_points[0].session) for r in g.results
    )
    total_present = sum(a.sessions for a in report.attendance)
    assert total_present == sum(p.present for p in report.points)


def test_robot_seats_are_left_out_of_class_averages(classroom):
    session = make_session(classroom, seed=4, assess=False)
    game = TableGame.objects.filter(session=session).first()
    robot_seat = game.results[0]["seat"]
    Team.objects.filter(session=session, number=int(robot_seat[5:])).update(is_robot=True)
    point = selectors.class_report(classroom).points[0]
    humans = [
        r["score"]
        for g in TableGame.objects.filter(session=session)
        for r in g.results
        if r["seat"] != robot_seat
    ]
    assert sorted(point.scores) == sorted(humans)


def test_student_report_follows_one_student_and_names_no_other_child(seeded_class):
    student = seeded_class.students.order_by("pk").first()
    report = selectors.student_report(student)
    assert report.sessions_held == 5
    assert len(report.rows) == student.memberships.count()
    for row in report.rows:
        assert row.team.memberships.filter(student=student).exists()
        assert row.place is not None


def test_school_report_sums_every_class(seeded_class, school, teacher):
    seed_class(
        seeded_class.__class__.objects.create(school=school, teacher=teacher, name="Room 14"),
        students=6,
        sessions=2,
        seed=3,
        assess=False,
    )
    report = selectors.school_report(school)
    assert [c.classroom.name for c in report.classes] == ["Room 14", "Room 12 Robotics"] or [
        c.classroom.name for c in report.classes
    ] == sorted(c.classroom.name for c in report.classes)
    assert report.sessions == 7
    room14 = next(c for c in report.classes if c.classroom.name == "Room 14")
    assert room14.rubric_fraction is None and room14.students == 6


def test_score_trend_compares_the_last_sessions_with_the_first():
    points = []
    for scores in ([2, 4], [4, 4], [6, 6], [8, 10]):
        p = selectors.SessionPoint(session=None, present=1, roster=1)
        p.scores = scores
        points.append(p)
    # first two sessions average 3.5, last two 7.5
    assert selectors.score_trend(points) == pytest.approx(4.0)
    assert selectors.score_trend(points[:1]) is None


@pytest.mark.parametrize("report", ["class", "school"])
def test_report_queries_do_not_grow_with_sessions(classroom, django_assert_max_num_queries, report):
    seed_class(classroom, students=12, sessions=12, seed=2, three_laws_every=4)
    build = (
        (lambda: selectors.class_report(classroom))
        if report == "class"
        else (lambda: selectors.school_report(classroom.school))
    )
    with django_assert_max_num_queries(12):
        result = build()
    assert (len(result.points) if report == "class" else result.sessions) == 12


def test_session_report_queries_do_not_grow_with_teams(classroom, django_assert_max_num_queries):
    session = make_session(classroom, seed=8)
    with django_assert_max_num_queries(14):
        report = selectors.session_report(session)
        # Touch what the templates touch: scores and criteria of every assessment.
        for tb in report.teachbacks:
            list(tb.assessment.scores.all()) if hasattr(tb, "assessment") else None
        for table in report.tables:
            for seat in table.seats:
                assert seat.members


def test_student_report_queries_do_not_grow_with_sessions(
    seeded_class, django_assert_max_num_queries
):
    student = seeded_class.students.order_by("pk").first()
    with django_assert_max_num_queries(6):
        report = selectors.student_report(student)
        for row in report.rows:
            if row.teachback and hasattr(row.teachback, "assessment"):
                list(row.teachback.assessment.scores.all())
    assert report.rows
    assert all(row.kind in (GameKind.BOT_BUILDERS, GameKind.THREE_LAWS) for row in report.rows)
