"""3 Laws tables in a classroom: a robot fills an empty seat before the deal, teams of two
share one seat, and several tables play at once in one session."""

import re

import pytest
from django.urls import reverse

from classroom.models import Team, TeamMembership
from games import services
from games.engines import three_laws
from games.models import TableGame
from tests.games.conftest import advance, seat_teams, three_laws_session


@pytest.fixture
def session(classroom, teacher):
    return three_laws_session(classroom, teacher)


def team_1_first(game: TableGame) -> TableGame:
    """The dealt game again with Team 1 as the start player (a four-seat deal from the seed)."""
    game.options = {**game.options, "start_seat": game.seats[0]}
    game.state = three_laws.new_game(game.seats, seed=game.seed, **game.options).to_dict()
    game.save(update_fields=["options", "state"])
    return game


def dashboard_post(client, name, session, table, **data):
    return client.post(
        reverse(f"games:{name}", args=[session.pk, table.pk]), data, headers={"HX-Request": "true"}
    )


def test_a_table_one_seat_short_gets_a_robot_seat_and_starts_from_the_dashboard(
    session, teacher, teacher_client, students
):
    table, _ = seat_teams(session, students, teams=3)
    html = teacher_client.get(reverse("games:teacher_tables", args=[session.pk])).content.decode()
    assert "Not started yet" in html and "Team 1, Team 2, Team 3" in re.sub(r"<[^>]+>", "", html)
    # Three seats are too few for 3 Laws: starting is refused in plain words.
    response = dashboard_post(teacher_client, "table_start", session, table)
    assert "3 Laws needs 4 to 8 seats, not 3." in response.content.decode()
    assert not TableGame.objects.filter(table=table).exists()

    response = dashboard_post(teacher_client, "table_add_robot", session, table)
    html = response.content.decode()
    robot = Team.objects.get(session=session, is_robot=True)
    assert f"{robot.name} sits at table 1." in html and robot.table_id == table.pk
    assert robot.seat_position == 3

    response = dashboard_post(teacher_client, "table_start", session, table)
    assert "Table 1 is playing." in response.content.decode()
    game = TableGame.objects.get(table=table)
    assert game.seats == ["team-1", "team-2", "team-3", robot.seat]


def test_no_robot_seat_is_added_to_a_dealt_table(session, teacher, teacher_client, students):
    table, _ = seat_teams(session, students, teams=4)
    services.session_start_tables(session=session, by=teacher)
    response = dashboard_post(teacher_client, "table_add_robot", session, table)
    assert "Table 1 has started: its seats are dealt." in response.content.decode()
    assert not Team.objects.filter(session=session, is_robot=True).exists()


@pytest.mark.parametrize("who, status", [("school_admin", 403), ("other_teacher", 404)])
def test_only_the_class_teacher_adds_robot_seats(session, students, request, who, status):
    table, _ = seat_teams(session, students, teams=3)
    client = request.getfixturevalue(f"{who}_client")
    assert dashboard_post(client, "table_add_robot", session, table).status_code == status
    assert dashboard_post(client, "table_start", session, table).status_code == status
    assert not Team.objects.filter(session=session, is_robot=True).exists()


def test_a_team_of_two_shares_one_seat_on_both_devices(session, teacher, students, device_client):
    table, _ = seat_teams(session, students, teams=4, per_team=2)
    first, second = device_client(session, students[0]), device_client(session, students[1])
    services.session_start_tables(session=session, by=teacher)
    game = team_1_first(TableGame.objects.get(table=table))
    assert TeamMembership.objects.filter(team__number=1).count() == 2
    advance(game, teacher, 2)
    pages = [d.get(reverse("games:device")).content.decode() for d in (first, second)]
    for html in pages:
        assert 'Team 1 <span class="tl-you">(you)</span>' in html
        assert ">Ask Team 2</button>" in html
    # Both tap at once: the one drawn screen's move id makes it one question.
    game.refresh_from_db()
    data = {"target": "team-2", "version": game.version}
    for device, move_id in ((first, "same-screen"), (second, "same-screen")):
        device.post(
            reverse("games:three_laws_ask", args=[game.pk]),
            {**data, "client_move_id": move_id},
            headers={"HX-Request": "true"},
        )
    game.refresh_from_db()
    assert len(game.state["queries"]) == 1
    # A tap from the partner's older screen (another move id) is refused as stale.
    html = second.post(
        reverse("games:three_laws_ask", args=[game.pk]),
        {**data, "client_move_id": "older-screen"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert "The table has moved on" in html
    game.refresh_from_db()
    assert len(game.state["queries"]) == 1


def test_several_tables_play_at_once_in_one_session(
    session, teacher, teacher_client, students, device_client
):
    one, _ = seat_teams(session, students[:4], teams=4)
    two, _ = seat_teams(session, students[4:], teams=4, number=2, first_team_number=5)
    services.session_start_tables(session=session, by=teacher)
    games = [TableGame.objects.get(table=t) for t in (one, two)]
    advance(games[1], teacher)
    grid = teacher_client.get(reverse("games:projector_grid", args=[session.pk])).content.decode()
    assert "Round 1 of 4 · Setup" in grid and "Round 1 of 4 · Wake up" in grid
    page = device_client(session, students[4]).get(reverse("games:device")).content.decode()
    assert "Table 2" in page and 'data-seat="team-6"' in page and 'data-seat="team-1"' not in page
    page = device_client(session, students[0]).get(reverse("games:device")).content.decode()
    assert "Table 1" in page and "Setup" in page
