"""Who may see or act on a table game, in one place. Every games view starts here.

- A device acts only for its own team's seat, on its own team's table: another table's game in
  its session is 403, anything outside its session 404.
- A teacher runs only the tables of their own classes' sessions; the school's administrator
  may read them (projector, dashboard, replay) but never act (403).
- Anyone else: 404, so nobody learns which games exist.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404, HttpRequest

from classroom import rows
from classroom.access import (
    classes_visible_to,
    get_device,
    get_device_team,
    get_session_for_teacher,
    get_session_for_viewer,
    is_class_teacher,
    require_adult,
)
from classroom.devices import read_device_token, remember_binding
from classroom.lookups import the_one
from classroom.models import (
    Classroom,
    DeviceBinding,
    Role,
    Session,
    SessionStatus,
    Student,
    Table,
    Team,
    TeamMembership,
    seat_name,
)
from games import live
from games.models import TableGame

__all__ = [
    "DeviceSeat",
    "get_device",
    "get_device_seat",
    "get_game_for_device",
    "get_game_for_teacher",
    "get_game_for_viewer",
    "get_seat_version",
    "get_session_versions",
    "get_session_for_teacher",
    "get_session_for_viewer",
]


@dataclass(frozen=True)
class DeviceSeat:
    """A joined device, the team it plays for, and that team's table game (None before the
    tables start, or for a team not seated at a table)."""

    binding: DeviceBinding
    team: Team | None
    game: TableGame | None

    @property
    def seat(self) -> str:
        return self.team.seat if self.team is not None else ""


def get_device_seat(request: HttpRequest) -> DeviceSeat:
    """The device's team and its table's game, for the device's play page (404 if not joined;
    no team yet is a waiting screen, not an error: the teacher may still be making teams)."""
    binding = get_device(request)
    try:
        team = get_device_team(request, binding.session_id)
    except Http404:
        return DeviceSeat(binding=binding, team=None, game=None)
    game = None
    if team.table_id is not None:
        game = the_one(
            TableGame.objects.select_related("table", "session").filter(table_id=team.table_id)
        )
    return DeviceSeat(binding=binding, team=team, game=game)


def get_game_for_device(request: HttpRequest, game_id: int) -> DeviceSeat:
    """The game `game_id` if this device's team sits at its table.

    Every redraw and move of a team device asks this, so the allowed case is one statement
    (`_seated`). A refusal asks again, step by step, to tell "no such game" (404) from "another
    table" (403).
    """
    seated = _seated(request, game_id)
    if seated is not None:
        return seated
    return game_for_device_step_by_step(request, game_id)


def game_for_device_step_by_step(request: HttpRequest, game_id: int) -> DeviceSeat:
    """get_game_for_device's rule through the ORM, one relation at a time: what refusals are
    told from, and the rule `_seated` is tested against."""
    binding = get_device(request)
    game = the_one(
        TableGame.objects.select_related("table", "session").filter(
            pk=game_id, session_id=binding.session_id
        )
    )
    if game is None:
        raise Http404("No such game.")
    team = get_device_team(request, game.session_id)
    if team.table_id != game.table_id or team.seat not in game.seats:
        raise PermissionDenied("Your team plays at another table.")
    return DeviceSeat(binding=binding, team=team, game=game)


# Who plays a seat at a game, as the statements below ask it: the cookie's binding, live, in a
# joinable session (classroom.devices.current_binding, Session.is_joinable), and the student's
# team in that session (one a student a session: a constraint) seated at the table holding the
# game. The membership's session is implied by the team's and kept as a second guard.
_SEAT_JOINS = f"""
    FROM {DeviceBinding._meta.db_table} b
    JOIN {Session._meta.db_table} s ON s.id = b.session_id
    JOIN {TeamMembership._meta.db_table} m
        ON m.session_id = b.session_id AND m.student_id = b.student_id
    JOIN {Team._meta.db_table} t ON t.id = m.team_id AND t.session_id = b.session_id
    JOIN {TableGame._meta.db_table} g ON g.table_id = t.table_id AND g.session_id = b.session_id
"""
_SEAT_RULE = """b.token = %s AND b.revoked_at IS NULL
        AND s.status IN (%s, %s) AND s.room_code IS NOT NULL AND s.room_code <> ''
        AND g.id = %s"""


def _seat_rule_params(token: str, game_id: int) -> list:
    return [token, SessionStatus.OPEN, SessionStatus.PLAYING, game_id]


# get_game_for_device's allowed case as one statement, with every row the device's screens
# read (the binding's student and the team's table too). The ORM took four times as long to
# build and read the two queries this replaces (binding, then team with its table and game) as
# the database took to answer them.
_SEATED_PARTS = (
    (DeviceBinding, "b"),
    (Session, "s"),
    (Student, "st"),
    (Team, "t"),
    (Table, "tb"),
    (TableGame, "g"),
)
_SEATED = f"""
    SELECT {", ".join(rows.columns(model, alias) for model, alias in _SEATED_PARTS)}
    {_SEAT_JOINS}
    JOIN {Student._meta.db_table} st ON st.id = b.student_id
    JOIN {Table._meta.db_table} tb ON tb.id = t.table_id
    WHERE {_SEAT_RULE}
"""


def _seated(request: HttpRequest, game_id: int) -> DeviceSeat | None:
    token = read_device_token(request)
    if not token or not rows.storable_pk(TableGame, game_id):
        return None
    with connection.cursor() as cursor:
        cursor.execute(_SEATED, _seat_rule_params(token, game_id))
        row = cursor.fetchone()
    if row is None:
        return None
    binding, session, student, team, table, game = rows.build_all(row, *_SEATED_PARTS)
    if team.seat not in game.seats:
        return None
    # The relations the ORM's select_related would have filled, pointing at these same rows.
    binding.session, binding.student = session, student
    team.session, team.table = session, table
    game.session, game.table = session, table
    TableGame._meta.get_field("table").remote_field.set_cached_value(table, game)
    remember_binding(request, binding)
    return DeviceSeat(binding=binding, team=team, game=game)


@dataclass(frozen=True)
class SeatVersion:
    """A device's seat at its table as the table is now: what its cached drawing is keyed by."""

    team_id: int
    version: int
    status: str


# The same seat rule for the device and table a poll's signed watch names, with the watch's
# binding, reading only what keys a cached drawing: a redraw served from the cache is otherwise
# little more than this check, so it builds no rows.
_SEAT_VERSION = f"""
    SELECT t.id, t.number, g.seats, g.version, g.status
    {_SEAT_JOINS}
    WHERE {_SEAT_RULE} AND b.id = %s
"""


def get_seat_version(request: HttpRequest, watch: live.Watch) -> SeatVersion | None:
    """The version of the table a device's poll watches, if the device still plays that seat
    there: what get_game_for_device and the poll's binding and seat checks allow, in one query.
    None when anything does not hold; get_game_for_device then says what (404, 403, reload)."""
    token = read_device_token(request)
    if not token or watch.binding_id is None or len(watch.game_ids) != 1:
        return None
    with connection.cursor() as cursor:
        params = [*_seat_rule_params(token, watch.game_ids[0]), watch.binding_id]
        cursor.execute(_SEAT_VERSION, params)
        row = cursor.fetchone()
    if row is None:
        return None
    team_id, number, seats, version, status = row
    # jsonb on PostgreSQL, text on SQLite: the field reads it as the ORM would.
    seats = TableGame._meta.get_field("seats").from_db_value(seats, None, connection)
    if seat_name(number) != watch.seat or watch.seat not in seats:
        return None
    return SeatVersion(team_id=team_id, version=version, status=status)


@dataclass(frozen=True)
class SessionVersions:
    """A session and the version of each of its tables' games: what a cached drawing of its
    grid is keyed by."""

    session: Session
    versions: dict[int, int]


# get_session_for_viewer's rule (classroom.access.classes_visible_to: the class's teacher, or
# any administrator of its school) as one statement, with the session's games, for the
# projector grid's poll, which every move of every table makes each grid of the class send.
# Written out for the reason _SEAT_VERSION is: the ORM builds the query in three times the time
# the database takes to answer it.
_SESSION_VERSIONS = f"""
    SELECT {rows.columns(Session, "s")}, g.id, g.version
    FROM {Session._meta.db_table} s
    JOIN {Classroom._meta.db_table} c ON c.id = s.classroom_id
    LEFT JOIN {TableGame._meta.db_table} g ON g.session_id = s.id
    WHERE s.id = %s AND c.school_id = %s AND (c.teacher_id = %s OR %s)
"""


def get_session_versions(request: HttpRequest, session_id: int) -> SessionVersions | None:
    """The session and its games' versions, if get_session_for_viewer allows this request to
    read it; None when it does not (get_session_for_viewer then says why: 404)."""
    try:
        user = require_adult(request)
    except Http404:
        return None
    administrator = user.role == Role.ADMINISTRATOR
    # One row a game (one row of no game before the tables start), each with the session.
    with connection.cursor() as cursor:
        cursor.execute(_SESSION_VERSIONS, [session_id, user.school_id, user.pk, administrator])
        found = cursor.fetchall()
    if not found:
        return None
    (session,) = rows.build_all(found[0], (Session, "s"))
    versions = {row[-2]: row[-1] for row in found if row[-2] is not None}
    return SessionVersions(session=session, versions=versions)


def get_game_for_viewer(request: HttpRequest, game_id: int) -> TableGame:
    """Read access: the class's teacher or the school's administrator."""
    game = the_one(
        TableGame.objects.select_related("table", "session__classroom").filter(
            pk=game_id, session__classroom__in=classes_visible_to(request.user)
        )
    )
    if game is None:
        raise Http404("No such game.")
    return game


def get_game_for_teacher(request: HttpRequest, game_id: int) -> TableGame:
    """Control access: only the class's own teacher."""
    game = get_game_for_viewer(request, game_id)
    if not is_class_teacher(request.user, game.session.classroom):
        raise PermissionDenied("Only the class's teacher can run this table.")
    return game
