"""Every live-play URL x every role -> the expected status (product.md: permissions as a matrix).

Roles: anonymous, another school's teacher, a colleague of the same school, the class's own
teacher, the school's administrator, a student device at this table, a device at another table
of the same session, and a device of another session.
"""

import datetime
import json
import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from classroom import services as classroom_services
from classroom.models import GameKind, Session
from games import services
from games.models import TableGame
from tests.games.conftest import LIVE_ROLES, seat_teams

ROLES = LIVE_ROLES

NONE = dict.fromkeys(ROLES, 404)


def only(**allowed) -> dict[str, int]:
    return {**NONE, **allowed}


READ = only(teacher=200, admin=200)
CONTROL = only(teacher=302, admin=403)

# name -> (method, target, expected by role); target picks the URL argument.
MATRIX = {
    "device": (
        "get",
        None,
        only(device_here=200, device_other_table=200, device_other_session=200),
    ),
    "move": ("post", "game", only(device_here=200, device_other_table=403)),
    "poll": ("get", "poll", only(device_here=200, device_other_table=403)),
    "tabletop_bench": ("get", "game", only(device_other_table=403)),
    "projector": ("get", "game", READ),
    "projector_grid": ("get", "session", READ),
    "teacher_tables": ("get", "session", READ),
    "replay": ("get", "game", READ),
    "start_tables": ("post", "session", CONTROL),
    "table_add_robot": ("post", "table", CONTROL),
    "table_start": ("post", "table", CONTROL),
    "pause": ("post", "game", CONTROL),
    "resume": ("post", "game", CONTROL),
    "robot_turn": ("post", "game", CONTROL),
    "undo": ("post", "game", CONTROL),
    "end_now": ("post", "game", CONTROL),
}


@pytest.fixture
def world(
    open_session,
    teacher,
    students,
    classroom,
    device_client,
    teacher_client,
    other_teacher_client,
    colleague_client,
    school_admin_client,
    outsider,
):
    """Table 1 (Teams 1-2) and table 2 (Teams 3-4) started; a second open session of the class
    with its own device."""
    seat_teams(open_session, students, teams=2)
    seat_teams(open_session, students[2:], teams=2, number=2, first_team_number=3)
    here = device_client(open_session, students[0])
    other_table = device_client(open_session, students[2])
    services.session_start_tables(session=open_session, by=teacher)
    later = Session.objects.create(
        classroom=classroom, date=datetime.date(2026, 12, 7), game=GameKind.BOT_BUILDERS
    )
    later = classroom_services.session_open(session=later, by=teacher)
    elsewhere = device_client(later, students[6])
    game = TableGame.objects.get(session=open_session, table__number=1)
    page = here.get(reverse("games:device")).content.decode()
    poll_url = unescape(re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', page).group(1))
    # The poll must look "changed" for the permission check to run at all.
    poll_url = re.sub(r"v=[^&]+", "v=stale", poll_url)
    return {
        "session": open_session,
        "game": game,
        "poll": poll_url,
        "clients": {
            "anonymous": outsider,
            "other_teacher": other_teacher_client,
            "colleague": colleague_client,
            "teacher": teacher_client,
            "admin": school_admin_client,
            "device_here": here,
            "device_other_table": other_table,
            "device_other_session": elsewhere,
        },
    }


def request(client: Client, name: str, world: dict):
    method, target, _ = MATRIX[name]
    game, session = world["game"], world["session"]
    if target == "poll":
        return client.get(world["poll"])
    args = {
        "game": [game.pk],
        "session": [session.pk],
        "table": [session.pk, game.table_id],
        None: [],
    }[target]
    url = reverse(f"games:{name}", args=args)
    if method == "get":
        return client.get(url)
    game.refresh_from_db()
    data = {"version": game.version}
    if name == "move":
        current = game.state["seats"][game.state["current"]]
        data.update(action=json.dumps({"type": "draw", "source": "deck"}), client_move_id="m")
        # The device here acts for Team 1: make sure it is Team 1's turn to test access alone.
        assert current in ("team-1", "team-2")
        headers = {"HX-Request": "true"}
        return client.post(url, data, headers=headers)
    return client.post(url, data)


@pytest.mark.parametrize("name", MATRIX)
def test_play_url_permissions(world, name):
    """Every role against one URL; the roles that are let in go last, so a refused request
    never meets a state another role's successful request has changed."""
    expected = MATRIX[name][2]
    order = sorted(ROLES, key=lambda role: expected[role] < 400)
    statuses = {role: request(world["clients"][role], name, world).status_code for role in order}
    assert statuses == expected


def test_every_live_play_url_is_in_the_matrix():
    from games.urlconf import play

    names = {pattern.name for pattern in play.urlpatterns}
    assert names == set(MATRIX)
