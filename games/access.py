"""Who may see or act on a table game, in one place. Every games view starts here.

- A device acts only for its own team's seat, on its own team's table: another table's game in
  its session is 403, anything outside its session 404.
- A teacher runs only the tables of their own classes' sessions; the school's administrator
  may read them (projector, dashboard, replay) but never act (403).
- Anyone else: 404, so nobody learns which games exist.

Two of these rules are also asked by a written-out statement, where a live screen asks them
so often that the ORM's time mattered (`games.statements`, built from the same pieces).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404, HttpRequest

from classroom import sql
from classroom.access import (
    classes_visible_to,
    get_device,
    get_device_team,
    get_session_for_teacher,
    get_session_for_viewer,
    is_class_teacher,
    require_adult,
    visible_class_params,
)
from classroom.devices import read_device_token, remember_binding
from classroom.models import DeviceBinding, Session, Team, seat_name
from classroom.watch import Watch
from games import statements
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
        game = (
            TableGame.objects.select_related("table", "session")
            .filter(table_id=team.table_id)  # one game a table
            .first()
        )
    return DeviceSeat(binding=binding, team=team, game=game)


def get_game_for_device(request: HttpRequest, game_id: int) -> DeviceSeat:
    """The game `game_id` if this device's team sits at its table.

    The allowed case is one statement (`games.statements.SEATED`); a refusal asks again, step
    by step, to tell "no such game" (404) from "another table" (403).
    """
    seated = _seated(request, game_id)
    if seated is not None:
        return seated
    return game_for_device_step_by_step(request, game_id)


def game_for_device_step_by_step(request: HttpRequest, game_id: int) -> DeviceSeat:
    """get_game_for_device's rule through the ORM, one relation at a time: the binding, live in
    a joinable session (`get_device`), the game in its session, and its student's team seated
    at the game's table. What refusals are told from, and what `games.statements.SEATED` and
    `SEAT_VERSION` are tested against."""
    binding = get_device(request)
    try:
        game = TableGame.objects.select_related("table", "session").get(
            pk=game_id, session_id=binding.session_id
        )
    except TableGame.DoesNotExist:
        raise Http404("No such game.") from None
    team = get_device_team(request, game.session_id)
    if team.table_id != game.table_id or team.seat not in game.seats:
        raise PermissionDenied("Your team plays at another table.")
    return DeviceSeat(binding=binding, team=team, game=game)


def _seated(request: HttpRequest, game_id: int) -> DeviceSeat | None:
    token = read_device_token(request)
    if not token or not sql.storable_pk(TableGame, game_id):
        return None
    params = statements.seat_params(token, game_id)
    found = sql.first_all(statements.SEATED, params, *statements.SEATED_PARTS)
    if found is None:
        return None
    binding, session, student, team, table, game = found
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


def get_seat_version(request: HttpRequest, watch: Watch) -> SeatVersion | None:
    """The version of the table a device's poll watches, if the device still plays that seat
    there: what get_game_for_device and the poll's binding and seat checks allow, in one query
    (`games.statements.SEAT_VERSION`). None when anything does not hold; get_game_for_device
    then says what (404, 403, reload)."""
    token = read_device_token(request)
    if not token or watch.binding_id is None or len(watch.game_ids) != 1:
        return None
    params = [*statements.seat_params(token, watch.game_ids[0]), watch.binding_id]
    with connection.cursor() as cursor:
        cursor.execute(statements.SEAT_VERSION, params)
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
    """A session (with its class) and the version of each of its tables' games: what a cached
    drawing of its grid is keyed by."""

    session: Session
    versions: dict[int, int]


def get_session_versions(request: HttpRequest, session_id: int) -> SessionVersions | None:
    """The session (with its class) and its games' versions, if get_session_for_viewer allows
    this request to read it, in one query (`games.statements.SESSION_VERSIONS`); None when it
    does not (get_session_for_viewer then says why: 404)."""
    try:
        viewer = visible_class_params(require_adult(request))
    except Http404:
        return None
    if viewer is None or not sql.storable_pk(Session, session_id):
        return None
    # One row a game (one row of no game before the tables start), each with the session.
    found = sql.all_rows(statements.SESSION_VERSIONS, [session_id, *viewer])
    if not found:
        return None
    session, classroom = sql.build_all(found[0], *statements.SESSION_VERSIONS_PARTS)
    session.classroom = classroom
    versions = {row[-2]: row[-1] for row in found if row[-2] is not None}
    return SessionVersions(session=session, versions=versions)


def get_game_for_viewer(request: HttpRequest, game_id: int) -> TableGame:
    """Read access: the class's teacher or the school's administrator."""
    try:
        return TableGame.objects.select_related("table", "session__classroom").get(
            pk=game_id, session__classroom__in=classes_visible_to(request.user)
        )
    except TableGame.DoesNotExist:
        raise Http404("No such game.") from None


def get_game_for_teacher(request: HttpRequest, game_id: int) -> TableGame:
    """Control access: only the class's own teacher."""
    game = get_game_for_viewer(request, game_id)
    if not is_class_teacher(request.user, game.session.classroom):
        raise PermissionDenied("Only the class's teacher can run this table.")
    return game
