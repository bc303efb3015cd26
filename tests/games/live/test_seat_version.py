"""`get_seat_version` (games/access.py) is `get_game_for_device`'s allowed case, with the poll's
binding and seat checks, written as one SQL statement for the redraws served from the cache
(games.statements.SEAT_VERSION, its rule shared with SEATED and Session.JOINABLE_STATUSES). For
every device and every watch it might present, it must allow exactly what the ORM rule allows,
and give the same team and table version."""

import dataclasses
import datetime
import itertools

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.test import RequestFactory

from classroom import services as classroom_services
from classroom.devices import DEVICE_COOKIE
from classroom.models import GameKind, Session
from classroom.watch import DEVICE, Watch
from games import services
from games.access import (
    SeatVersion,
    game_for_device_step_by_step,
    get_game_for_device,
    get_seat_version,
)
from games.models import TableGame
from tests.games.conftest import seat_teams


def request_of(client):
    request = RequestFactory().get("/")
    if DEVICE_COOKIE in client.cookies:
        request.COOKIES[DEVICE_COOKIE] = client.cookies[DEVICE_COOKIE].value
    return request


def by_the_orm(client, watch: Watch) -> SeatVersion | None:
    """What the poll's full path allows: get_game_for_device, then the watch's binding and seat."""
    try:
        ds = get_game_for_device(request_of(client), watch.game_ids[0])
    except (Http404, PermissionDenied):
        return None
    if ds.binding.pk != watch.binding_id or ds.seat != watch.seat:
        return None
    return SeatVersion(team_id=ds.team.pk, version=ds.game.version, status=ds.game.status)


@pytest.fixture
def world(open_session, classroom, teacher, students, device_client):
    """Tables 1 (Teams 1-2) and 2 (Teams 3-4) started, a device each for Teams 1 and 3, a second
    device of Team 1, and a device of another open session of the class."""
    seat_teams(open_session, students, teams=2)
    seat_teams(open_session, students[2:], teams=2, number=2, first_team_number=3)
    devices = {
        "team 1": device_client(open_session, students[0]),
        "team 3": device_client(open_session, students[2]),
    }
    services.session_start_tables(session=open_session, by=teacher)
    later = classroom_services.session_open(
        session=Session.objects.create(
            classroom=classroom, date=datetime.date(2026, 12, 8), game=GameKind.BOT_BUILDERS
        ),
        by=teacher,
    )
    devices["other session"] = device_client(later, students[6])
    games = list(TableGame.objects.filter(session=open_session).order_by("table__number"))
    return devices, games


def watches(devices, games) -> list[Watch]:
    """Every watch a device might present: its own, and ones naming another game, seat or
    binding (a forged one would not verify, but a genuine one of another device could be
    replayed)."""
    bindings = [client.binding.pk for client in devices.values()] + [None]
    seats = ["team-1", "team-2", "team-3", ""]
    return [
        Watch(DEVICE, game.session_id, (game.pk,), seat=seat, binding_id=binding)
        for game, seat, binding in itertools.product(games, seats, bindings)
    ]


def assert_same_answers(devices, games) -> int:
    allowed = 0
    for (name, client), watch in itertools.product(devices.items(), watches(devices, games)):
        expected = by_the_orm(client, watch)
        assert get_seat_version(request_of(client), watch) == expected, (name, watch)
        allowed += expected is not None
    return allowed


def test_the_one_statement_allows_what_the_orm_rule_allows(world):
    devices, games = world
    # Team 1's and Team 3's devices, each at its own table, seat and binding: nothing else.
    assert assert_same_answers(devices, games) == 2


def test_it_follows_a_move_a_revoked_binding_and_a_session_no_longer_joinable(world, teacher):
    devices, games = world
    game = games[0]
    TableGame.objects.filter(pk=game.pk).update(version=game.version + 5, status="paused")
    binding = devices["team 1"].binding
    own = Watch(DEVICE, game.session_id, (game.pk,), "team-1", binding.pk)
    now = get_seat_version(request_of(devices["team 1"]), own)
    assert now is not None and (now.version, now.status) == (game.version + 5, "paused")

    lose_access_one_way_after_another(devices, games, teacher, assert_same_answers)
    assert get_seat_version(request_of(devices["team 1"]), own) is None


def lose_access_one_way_after_another(devices, games, teacher, same_answers) -> None:
    """Team 1's device freed, then the session without a room code (NULL, then blank), then
    closed: after each, `same_answers` (asserting that two rules agree) counts who is allowed."""
    game = games[0]
    classroom_services.device_unbind(binding=devices["team 1"].binding, by=teacher)
    assert same_answers(devices, games) == 1
    code = Session.objects.get(pk=game.session_id).room_code
    for no_code in (None, ""):  # joinable means open or playing, with a room code
        Session.objects.filter(pk=game.session_id).update(room_code=no_code)
        assert same_answers(devices, games) == 0
    Session.objects.filter(pk=game.session_id).update(room_code=code)
    assert same_answers(devices, games) == 1
    classroom_services.session_close(session=game.session, by=teacher)
    assert same_answers(devices, games) == 0


def test_a_device_with_no_cookie_or_no_game_in_the_watch_gets_nothing(world):
    devices, games = world
    own = Watch(DEVICE, games[0].session_id, (games[0].pk,), "team-1", devices["team 1"].binding.pk)
    request = request_of(devices["team 1"])
    assert get_seat_version(request, own) is not None
    assert get_seat_version(RequestFactory().get("/"), own) is None
    assert get_seat_version(request, dataclasses.replace(own, game_ids=())) is None
    both = dataclasses.replace(own, game_ids=(games[0].pk, games[1].pk))
    assert get_seat_version(request, both) is None


# get_game_for_device's allowed case is one statement too (games.statements.SEATED), building
# the rows the ORM would: the same answer as the step-by-step rule, field for field.


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def outcome(rule, client, game_id):
    try:
        ds = rule(request_of(client), game_id)
    except (Http404, PermissionDenied) as refusal:
        return type(refusal)
    game, team, binding = ds.game, ds.team, ds.binding
    return {
        "binding": fields_of(binding),
        "session": fields_of(binding.session),
        "student": fields_of(binding.student),
        "team": fields_of(team),
        "team's session": fields_of(team.session),
        "table": fields_of(team.table),
        "game": fields_of(game),
        "game's table and session": (fields_of(game.table), fields_of(game.session)),
    }


def all_outcomes_agree(devices, games) -> int:
    missing = max(game.pk for game in games) + 100
    allowed = 0
    for (name, client), game_id in itertools.product(
        devices.items(), [g.pk for g in games] + [missing]
    ):
        expected = outcome(game_for_device_step_by_step, client, game_id)
        assert outcome(get_game_for_device, client, game_id) == expected, (name, game_id)
        allowed += isinstance(expected, dict)
    return allowed


def test_the_device_check_is_the_step_by_step_rule_in_one_statement(
    world, teacher, django_assert_num_queries
):
    devices, games = world
    # Team 1's and Team 3's devices at their own tables (each sees the other's as 403).
    assert all_outcomes_agree(devices, games) == 2
    with django_assert_num_queries(1):
        ds = get_game_for_device(request_of(devices["team 1"]), games[0].pk)
    with django_assert_num_queries(0):  # the rows it read are the ones the screens use
        assert (ds.team.table.game, ds.game.session, ds.binding.student) == (
            ds.game,
            ds.team.session,
            ds.binding.student,
        )
        assert ds.game.table.number == 1 and ds.seat == "team-1"

    # After moves (state, version, timestamps), a pause, a freed device, a session closed.
    game = games[0]
    TableGame.objects.filter(pk=game.pk).update(version=game.version + 5, status="paused")
    assert all_outcomes_agree(devices, games) == 2
    lose_access_one_way_after_another(devices, games, teacher, all_outcomes_agree)


def test_a_team_missing_from_its_games_seats_is_told_by_the_step_by_step_rule(world):
    devices, games = world
    game = games[0]
    TableGame.objects.filter(pk=game.pk).update(seats=["team-2"])
    assert outcome(get_game_for_device, devices["team 1"], game.pk) is PermissionDenied
    assert all_outcomes_agree(devices, games) == 1
