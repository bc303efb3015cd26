"""Teams and tables: auto-pair, moves, robot seats, auto-split, table moves."""

import random

import pytest
from django.urls import reverse

from classroom import services
from classroom.models import GameKind, Team, TeamMembership, Variant


@pytest.fixture
def present(teacher, bb_session, students):
    services.session_set_present(
        session=bb_session, student_ids=[s.pk for s in students], by=teacher
    )
    return bb_session


def _sizes(session):
    return sorted(team.members.count() for team in session.teams.filter(is_robot=False))


def test_autopair_makes_teams_from_present_students_only(teacher, bb_session, students):
    services.session_set_present(
        session=bb_session, student_ids=[s.pk for s in students[:5]], by=teacher
    )
    services.team_autopair(session=bb_session, by=teacher, rng=random.Random(3))
    assert _sizes(bb_session) == [2, 3]
    members = set(TeamMembership.objects.values_list("student_id", flat=True))
    assert members == {s.pk for s in students[:5]}
    names = list(bb_session.teams.values_list("name", flat=True))
    assert names == ["Team 1 · Sparks", "Team 2 · Bolt"]


def test_autopair_with_nobody_present_is_refused(teacher_client, bb_session):
    response = teacher_client.post(
        reverse("classroom:team_autopair", args=[bb_session.pk]), follow=True
    )
    assert "Mark who is present first" in response.content.decode()
    assert not bb_session.teams.exists()


def test_autopair_again_replaces_teams_robots_and_tables(teacher, present):
    services.team_autopair(session=present, by=teacher)
    services.tables_autosplit(session=present, by=teacher)
    services.team_add_robot(session=present, by=teacher)
    services.team_autopair(session=present, by=teacher)
    assert present.teams.count() == 4
    assert not present.teams.filter(is_robot=True).exists()
    assert not present.tables.exists()


def test_move_student_to_another_team_new_team_or_none(teacher_client, teacher, present, students):
    services.team_autopair(session=present, by=teacher, rng=random.Random(1))
    url = reverse("classroom:team_move", args=[present.pk])
    ava = students[0]
    source = Team.objects.get(memberships__student=ava)
    target = present.teams.exclude(pk=source.pk).first()

    teacher_client.post(url, {"student": ava.pk, "team": target.pk})
    assert Team.objects.get(memberships__student=ava) == target
    assert target.members.count() == 3

    teacher_client.post(url, {"student": ava.pk, "team": "new"})
    solo = Team.objects.get(memberships__student=ava)
    assert solo.number == 5 and solo.members.count() == 1

    teacher_client.post(url, {"student": ava.pk, "team": ""})
    assert not TeamMembership.objects.filter(student=ava).exists()
    assert not Team.objects.filter(pk=solo.pk).exists()  # never a team of 0


def test_a_fourth_student_is_refused(teacher, present, students):
    services.team_autopair(session=present, by=teacher, rng=random.Random(1))
    target = present.teams.first()
    outsiders = [s for s in students if not target.members.filter(pk=s.pk).exists()]
    services.team_move_student(session=present, student=outsiders[0], team=target, by=teacher)
    with pytest.raises(services.ServiceError, match="already has 3 students"):
        services.team_move_student(session=present, student=outsiders[1], team=target, by=teacher)
    assert target.members.count() == 3
    assert TeamMembership.objects.filter(student=outsiders[1]).exists()


def test_move_to_another_sessions_team_is_404(
    teacher_client, teacher, present, students, classroom
):
    import datetime

    other = services.session_create(
        classroom=classroom, by=teacher, date=datetime.date(2026, 12, 2), game="bot_builders"
    )
    services.session_set_present(session=other, student_ids=[students[0].pk], by=teacher)
    foreign = services.team_autopair(session=other, by=teacher)[0]
    response = teacher_client.post(
        reverse("classroom:team_move", args=[present.pk]),
        {"student": students[1].pk, "team": foreign.pk},
    )
    assert response.status_code == 404
    assert foreign.members.count() == 1


def test_forged_choice_is_404(teacher_client, present, students):
    response = teacher_client.post(
        reverse("classroom:team_move", args=[present.pk]), {"student": "x", "team": "new"}
    )
    assert response.status_code == 404


def test_autosplit_seats_teams_evenly(teacher, classroom, bb_session):
    from classroom.models import Student

    for index in range(22):
        Student.objects.create(classroom=classroom, name=f"Extra {index}")
    services.session_set_present(
        session=bb_session,
        student_ids=list(classroom.students.values_list("pk", flat=True)),
        by=teacher,
    )
    services.team_autopair(session=bb_session, by=teacher)  # 30 students -> 15 teams
    tables = services.tables_autosplit(session=bb_session, by=teacher)
    assert [table.teams.count() for table in tables] == [5, 5, 5]
    for table in tables:
        assert sorted(table.teams.values_list("seat_position", flat=True)) == [0, 1, 2, 3, 4]


def test_three_laws_with_too_few_teams_says_so_and_a_robot_fixes_it(teacher, present, students):
    present.game = GameKind.THREE_LAWS
    present.team_size = 3
    present.save()
    services.team_autopair(session=present, by=teacher)  # 8 students -> 3 teams
    assert present.teams.count() == 3
    with pytest.raises(services.ServiceError, match="1 more seat needed. Add a robot seat"):
        services.tables_autosplit(session=present, by=teacher)
    assert not present.tables.exists()
    robot = services.team_add_robot(session=present, by=teacher)
    tables = services.tables_autosplit(session=present, by=teacher)
    robot.refresh_from_db()
    assert len(tables) == 1 and robot.table == tables[0]
    assert robot.is_robot and robot.name.startswith("Robot · ") and not robot.members.exists()


def test_add_robot_at_a_table_sits_last_with_next_number(teacher, present):
    services.team_autopair(session=present, by=teacher)
    table = services.tables_autosplit(session=present, by=teacher)[0]
    robot = services.team_add_robot(session=present, table=table, by=teacher)
    robot.refresh_from_db()
    assert robot.number == 5
    assert robot.seat_position == 4 and robot.table == table
    assert robot.seat == "team-5"


def test_practice_seats_one_human_team_a_table(teacher, present):
    present.variant = Variant.PRACTICE
    present.save()
    services.team_autopair(session=present, by=teacher)
    tables = services.tables_autosplit(session=present, by=teacher)
    assert [table.teams.count() for table in tables] == [1, 1, 1, 1]


def test_move_team_to_new_table_and_back_renumbers_seats(teacher_client, teacher, present):
    services.team_autopair(session=present, by=teacher)
    table = services.tables_autosplit(session=present, by=teacher)[0]
    first = table.teams.get(seat_position=0)
    url = reverse("classroom:team_table", args=[present.pk])
    teacher_client.post(url, {"team": first.pk, "table": "new"})
    first.refresh_from_db()
    assert first.table.number == 2 and first.seat_position == 0
    assert sorted(table.teams.values_list("seat_position", flat=True)) == [0, 1, 2]

    teacher_client.post(url, {"team": first.pk, "table": table.pk})
    first.refresh_from_db()
    assert first.table == table and first.seat_position == 3
    assert present.tables.count() == 1  # the emptied table went


def test_table_problems_are_shown_on_the_page(teacher_client, teacher, present):
    services.team_autopair(session=present, by=teacher)
    table = services.tables_autosplit(session=present, by=teacher)[0]
    team = table.teams.first()
    services.team_set_table(team=team, new_table=True, by=teacher)
    page = teacher_client.get(present.get_absolute_url()).content.decode()
    assert "Table 2 has 1 team; this game needs 2 to 6 teams a table." in page


def test_teams_cannot_change_once_playing(teacher, present, students):
    services.team_autopair(session=present, by=teacher)
    services.session_open(session=present, by=teacher)
    services.session_mark_playing(session=present, by=teacher)
    before = _sizes(present)
    with pytest.raises(services.ServiceError, match="tables have started"):
        services.team_autopair(session=present, by=teacher)
    with pytest.raises(services.ServiceError, match="tables have started"):
        services.team_move_student(session=present, student=students[0], by=teacher)
    assert _sizes(present) == before


def test_remove_robot_only_removes_robots(teacher, present):
    services.team_autopair(session=present, by=teacher)
    robot = services.team_add_robot(session=present, by=teacher)
    with pytest.raises(services.ServiceError, match="Only robot seats"):
        services.team_remove_robot(team=present.teams.filter(is_robot=False).first(), by=teacher)
    services.team_remove_robot(team=robot, by=teacher)
    assert not present.teams.filter(is_robot=True).exists()
    assert present.teams.count() == 4
