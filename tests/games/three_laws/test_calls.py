"""Error calls, counters and the teacher's voids through the views, robot seats, and a whole
game to the final Victory Points."""

import pytest
from django.urls import reverse

from classroom import services as classroom_services
from games import services
from games.models import Move, TableGame, TableStatus
from tests.games.conftest import (
    advance,
    dealing,
    facilitate,
    finish_round,
    fixed_three_laws,
    start_table,
    submit,
    three_laws_session,
)


@pytest.fixture
def session(classroom, teacher):
    # Skipping round 1 starts with one law in force, so Error calls are possible at once.
    return three_laws_session(classroom, teacher, skip_first_round=True)


@pytest.fixture
def table(session, teacher, students, device_client):
    table = start_table(session, teacher, students, device_client)
    advance(table.game, teacher)  # Wake up: the laws are enforced
    return table


def device_page(table, index: int) -> str:
    return table.devices[index].get(reverse("games:device")).content.decode()


def call(table, index: int, move_id: str = "c", **fields):
    return table.devices[index].post(
        reverse("games:three_laws_call", args=[table.game.pk]),
        {"client_move_id": move_id, **fields},
        headers={"HX-Request": "true"},
    )


def error(table, index: int, offender: str, law: str = "law_01", move_id: str = "e"):
    return call(table, index, move_id, kind="error", offender=offender, law=law)


def state(table) -> dict:
    table.game.refresh_from_db()
    return table.game.state


def test_the_error_form_offers_each_other_team_and_each_law_in_force(table):
    html = device_page(table, 0)
    assert 'name="law" value="law_01"' in html and "Law 1" in html
    assert 'name="law" value="law_02"' not in html, "only round 2's one law is in force"
    for n in (2, 3, 4, 5):
        assert f'name="offender" value="team-{n}"' in html
    assert 'name="offender" value="team-1"' not in html
    assert "Call Error!</button>" in html


def test_calling_error_gives_the_caller_a_token_and_logs_the_call_everywhere(table, teacher_client):
    html = error(table, 1, "team-3").content.decode()
    assert "Team 2 called Error on Team 3" in html
    assert "Robots do not say &quot;I&quot;" in html
    data = state(table)
    assert data["tokens"]["team-2"] == 1 and data["supply"] == 6
    assert data["calls"][0]["caller"] == "team-2" and data["calls"][0]["status"] == "active"
    projector = teacher_client.get(reverse("games:projector", args=[table.game.pk]))
    assert "Team 2 called Error on Team 3" in projector.content.decode()


def test_an_error_call_is_taken_on_the_current_table_even_from_an_older_screen(table, teacher):
    # Another team moved since Team 2's screen was drawn: a call is not a turn, so it counts.
    advance(table.game, teacher)
    submit(table.game, "team-1", {"type": "query", "target": "team-2"})
    error(table, 1, "team-4")
    assert len(state(table)["calls"]) == 1


def test_a_double_tap_on_call_error_calls_once(table):
    error(table, 1, "team-3", move_id="twice")
    error(table, 1, "team-3", move_id="twice")
    data = state(table)
    assert len(data["calls"]) == 1 and data["tokens"]["team-2"] == 1


@pytest.mark.parametrize(
    "fields, message",
    [
        (
            {"kind": "error", "offender": "team-2", "law": "law_01"},
            "You cannot call Error on yourself.",
        ),
        ({"kind": "error", "offender": "team-3", "law": ""}, "Pick the law that was broken."),
        ({"kind": "error", "offender": "", "law": "law_01"}, "Pick the team that broke a law."),
        (
            {"kind": "error", "offender": "team-3", "law": "law_09"},
            "&#x27;law_09&#x27; is not one of the laws in force right now.",
        ),
        ({"kind": "counter", "call": "c7"}, "There is no call &#x27;c7&#x27;."),
        ({"kind": "shout", "call": "c1"}, "Select a valid choice."),
    ],
)
def test_a_bad_call_is_refused_with_a_clear_message(table, fields, message):
    before = state(table)
    response = call(table, 1, **fields)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert state(table) == before


def test_error_calls_are_refused_while_no_law_is_in_force(
    classroom, teacher, students, device_client
):
    session = three_laws_session(classroom, teacher)
    table = start_table(session, teacher, students, device_client)
    advance(table.game, teacher)
    assert "Call Error!" not in device_page(table, 0)
    assert "No laws yet" in device_page(table, 0)
    html = error(table, 0, "team-2").content.decode()
    assert "There are no laws in force yet, so nobody can break one." in html
    assert state(table)["calls"] == []


def test_the_accused_counters_a_wrong_call_and_takes_a_token_from_the_caller(table):
    error(table, 1, "team-3", move_id="e1")
    html = device_page(table, 2)
    assert "Error on the caller: Team 2 was wrong</button>" in html
    assert "Error on the caller" not in device_page(table, 1), "a caller cannot counter itself"
    html = call(table, 2, "k1", kind="counter", call="c1").content.decode()
    assert "Team 3 called Error on the caller, Team 2" in html
    data = state(table)
    assert [c["status"] for c in data["calls"]] == ["countered", "active"]
    # The wrong call's token went back to the supply; Team 3 took one from the supply.
    assert data["tokens"]["team-2"] == 0 and data["tokens"]["team-3"] == 1
    assert data["supply"] == 6


def test_a_call_gets_one_counter_only(table):
    error(table, 1, "team-3", move_id="e1")
    call(table, 2, "k1", kind="counter", call="c1")
    assert "Error on the caller: Team 2" not in device_page(table, 3)
    html = call(table, 3, "k2", kind="counter", call="c1").content.decode()
    assert "That call has already been countered; each call gets one counter." in html
    assert len(state(table)["calls"]) == 2


def test_the_caller_cannot_counter_its_own_call(table):
    error(table, 1, "team-3", move_id="e1")
    html = call(table, 1, "k1", kind="counter", call="c1").content.decode()
    assert "You cannot counter your own call." in html


def test_the_teacher_voids_a_call_from_the_dashboard_and_the_tokens_go_back(table, teacher_client):
    error(table, 1, "team-3", move_id="e1")
    dashboard = teacher_client.get(reverse("games:teacher_tables", args=[table.session.pk]))
    assert "Void Team 2&#x27;s Error call on Team 3</button>" in dashboard.content.decode()
    html = facilitate(teacher_client, table.game, {"type": "void", "call": "c1"}, move_id="v1")
    assert "Void Team 2" not in html.content.decode()
    data = state(table)
    assert data["calls"][0]["status"] == "voided"
    assert data["tokens"]["team-2"] == 0 and data["supply"] == 7
    assert "voided by the teacher" in device_page(table, 0)


def test_voiding_a_counter_from_the_projector_restores_the_call(table, teacher_client):
    error(table, 1, "team-3", move_id="e1")
    call(table, 2, "k1", kind="counter", call="c1")
    # The button is on the teacher's dashboard; the class's projector shows no controls.
    dashboard = teacher_client.get(reverse("games:teacher_tables", args=[table.session.pk]))
    assert "Void Team 3&#x27;s counter on Team 2</button>" in dashboard.content.decode()
    page = teacher_client.get(reverse("games:projector", args=[table.game.pk])).content.decode()
    assert "<button" not in page
    response = facilitate(
        teacher_client, table.game, {"type": "void", "call": "c2"}, move_id="v2", screen="projector"
    )
    assert "projector-table" in response.content.decode()
    data = state(table)
    assert [c["status"] for c in data["calls"]] == ["active", "voided"]
    assert data["tokens"]["team-2"] == 1 and data["tokens"]["team-3"] == 0


def test_a_device_cannot_void(table):
    error(table, 1, "team-3", move_id="e1")
    table.game.refresh_from_db()
    response = table.devices[2].post(
        reverse("games:move", args=[table.game.pk]),
        {
            "action": '{"type": "void", "call": "c1"}',
            "version": table.game.version,
            "client_move_id": "v",
        },
        headers={"HX-Request": "true"},
    )
    assert "Only the facilitator can void a call." in response.content.decode()
    assert state(table)["calls"][0]["status"] == "active"


def test_calls_stop_at_reveal(table, teacher):
    advance(table.game, teacher)
    order = table.game.seats
    for i, seat in enumerate(order):
        submit(table.game, seat, {"type": "query", "target": order[(i + 1) % len(order)]})
    for seat in order:
        submit(table.game, seat, {"type": "keep"})
    advance(table.game, teacher)
    assert "Call Error!" not in device_page(table, 0)
    html = error(table, 0, "team-2").content.decode()
    assert "Laws are only enforced from Wake Up until Reveal." in html


# -- robots ----------------------------------------------------------------------------------


@pytest.fixture
def robot_table(classroom, teacher, students, device_client):
    """Four student teams and a robot seat (Team 5), added before the tables start."""
    from tests.games.conftest import seat_teams

    session = three_laws_session(classroom, teacher)
    table_row, _ = seat_teams(session, students, teams=4)
    robot = classroom_services.team_add_robot(session=session, by=teacher, table=table_row)
    assert robot.seat == "team-5"
    devices = [device_client(session, students[i]) for i in range(4)]
    with dealing("three_laws", fixed_three_laws()):
        services.session_start_tables(session=session, by=teacher)
    game = TableGame.objects.get(table=table_row)
    return game, devices


def test_a_robot_seat_asks_when_its_turn_comes_and_answers_offers_made_to_it(robot_table, teacher):
    game, _ = robot_table
    advance(game, teacher, 2)
    for i, seat in enumerate(["team-1", "team-2", "team-3", "team-4"]):
        submit(game, seat, {"type": "query", "target": "team-5" if i else "team-2"})
    # The robot asked its question right after Team 4's, in the same request.
    robot_moves = Move.objects.filter(game=game, by_robot=True)
    assert [m.action["type"] for m in robot_moves] == ["query"]
    assert game.state["phase"] == "transfer"
    submit(game, "team-1", {"type": "give", "to": "team-5"})
    answer = Move.objects.filter(game=game, by_robot=True).last()
    assert answer.action["type"] in ("accept", "reject") and answer.seat == "team-5"
    assert game.state["pending"] is None and game.state["turn"] == 1


def test_robots_never_call_error(robot_table, teacher):
    game, _ = robot_table
    advance(game, teacher, 2)
    for seat in ["team-1", "team-2", "team-3", "team-4"]:
        submit(game, seat, {"type": "query", "target": "team-5"})
    for seat in ["team-1", "team-2", "team-3", "team-4"]:
        submit(game, seat, {"type": "keep"})
    assert not Move.objects.filter(game=game, action__type__in=["error", "counter"]).exists()
    # The robot took its own transfer turn: kept, or offered its keys to a team.
    last = Move.objects.filter(game=game).last()
    assert last.by_robot and last.seat == "team-5" and last.action["type"] in ("keep", "give")
    assert game.state["turn"] == 5 or game.state["pending"]["from"] == "team-5"


def test_the_teacher_plays_an_absent_teams_turn_with_the_robot(table, teacher, teacher_client):
    advance(table.game, teacher)
    table.game.refresh_from_db()
    response = teacher_client.post(
        reverse("games:robot_turn", args=[table.game.pk]),
        {"version": table.game.version},
        headers={"HX-Request": "true"},
    )
    assert "The robot played the turn at table 1." in response.content.decode()
    move = Move.objects.filter(game=table.game).last()
    assert move.seat == "team-1" and move.action["type"] == "query" and move.by_robot
    assert move.action["question"], "the robot fills in an example question"
    assert state(table)["turn"] == 1


def test_the_robot_button_is_refused_when_only_the_teacher_can_move(table, teacher_client):
    table.game.refresh_from_db()
    response = teacher_client.post(
        reverse("games:robot_turn", args=[table.game.pk]),
        {"version": table.game.version},
        headers={"HX-Request": "true"},
    )
    assert "No team is to move now" in response.content.decode()


# -- the whole game --------------------------------------------------------------------------


def test_a_whole_game_ends_with_the_victory_points_and_the_winner(table, teacher, teacher_client):
    table.game.refresh_from_db()
    # Round 2 (the first of this session): Team 2 calls Error once and keeps the token.
    error(table, 1, "team-3", move_id="e1")
    advance(table.game, teacher)  # questions
    order = table.game.seats
    for i, seat in enumerate(order):
        submit(table.game, seat, {"type": "query", "target": order[(i + 1) % len(order)]})
    for seat in order:
        submit(table.game, seat, {"type": "keep"})
    advance(table.game, teacher)  # reveal
    advance(table.game, teacher)  # round 3
    finish_round(table.game, teacher)
    advance(table.game, teacher)  # round 4
    finish_round(table.game, teacher)
    page = teacher_client.get(reverse("games:teacher_tables", args=[table.session.pk]))
    assert ">Finish game</button>" in page.content.decode()
    facilitate(teacher_client, table.game, {"type": "advance"}, move_id="end")
    table.game.refresh_from_db()
    assert table.game.status == TableStatus.OVER
    results = table.game.results
    winner = results[0]
    html = device_page(table, 0)
    assert "Final Victory Points" in html
    assert f"{winner['score']} point" in html and "wins with" in html
    mine = next(r for r in results if r["seat"] == "team-1")
    assert f"You: place {mine['place']} with {mine['score']} Victory Point" in html
    projector = teacher_client.get(reverse("games:projector", args=[table.game.pk]))
    text = projector.content.decode()
    assert "Final Victory Points" in text and "wins with" in text
    assert "Wake up</button>" not in text and "Pause</button>" not in text
