"""The 3 Laws URLs x every role -> the expected status, and nothing changes for a refusal."""

import datetime
import json

import pytest
from django.urls import reverse

from classroom import services as classroom_services
from classroom.models import GameKind, Session
from games import services
from games.engines import three_laws
from games.models import Move, TableGame
from tests.games.conftest import LIVE_ROLES, advance, seat_teams, three_laws_session

ROLES = LIVE_ROLES
NONE = dict.fromkeys(ROLES, 404)
DEVICE = {**NONE, "device_here": 200, "device_other_table": 403}
MATRIX = {
    "three_laws_ask": DEVICE,
    "three_laws_call": DEVICE,
    "facilitate": {**NONE, "teacher": 200, "admin": 403},
}


@pytest.fixture
def world(
    classroom,
    teacher,
    students,
    device_client,
    teacher_client,
    other_teacher_client,
    colleague_client,
    school_admin_client,
    outsider,
):
    """Tables 1 and 2 of a skip-round-1 session (a law in force), table 1 at Wake up with Team 1
    to ask first, plus a device of another open session."""
    session = three_laws_session(classroom, teacher, skip_first_round=True)
    seat_teams(session, students, teams=4)
    seat_teams(session, students[4:], teams=4, number=2, first_team_number=5)
    here = device_client(session, students[0])
    other_table = device_client(session, students[4])
    services.session_start_tables(session=session, by=teacher)
    game = TableGame.objects.get(session=session, table__number=1)
    game.options = {**game.options, "start_seat": "team-1"}
    game.state = three_laws.new_game(game.seats, seed=game.seed, **game.options).to_dict()
    game.save(update_fields=["options", "state"])
    advance(game, teacher)
    later = Session.objects.create(
        classroom=classroom, date=datetime.date(2026, 12, 8), game=GameKind.BOT_BUILDERS
    )
    later = classroom_services.session_open(session=later, by=teacher)
    return {
        "game": game,
        "clients": {
            "anonymous": outsider,
            "other_teacher": other_teacher_client,
            "colleague": colleague_client,
            "teacher": teacher_client,
            "admin": school_admin_client,
            "device_here": here,
            "device_other_table": other_table,
            "device_other_session": device_client(later, students[7]),
        },
    }


def post(client, name: str, game: TableGame, move_id: str):
    game.refresh_from_db()
    data = {
        "three_laws_ask": {"target": "team-2", "version": game.version},
        "three_laws_call": {
            "kind": "error",
            "offender": "team-2",
            "law": game.state["law_order"][0],
        },
        "facilitate": {"action": json.dumps({"type": "advance"}), "version": game.version},
    }[name]
    return client.post(
        reverse(f"games:{name}", args=[game.pk]),
        {**data, "client_move_id": move_id},
        headers={"HX-Request": "true"},
    )


@pytest.mark.parametrize("name", MATRIX)
def test_each_role_gets_the_expected_status_and_refusals_change_nothing(world, teacher, name):
    game = world["game"]
    if name == "three_laws_ask":
        advance(game, teacher)  # the questions start: Team 1 (the device here) asks first
    expected = MATRIX[name]
    # Refusals first, so the one allowed move is made last.
    order = sorted(ROLES, key=lambda role: expected[role] < 400)
    for role in order:
        before = Move.objects.filter(game=game).count()
        response = post(world["clients"][role], name, game, f"{name}-{role}")
        assert response.status_code == expected[role], role
        after = Move.objects.filter(game=game).count()
        assert after == before + (1 if expected[role] == 200 else 0), role
