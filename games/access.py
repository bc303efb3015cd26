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
from django.http import Http404, HttpRequest

from classroom.access import (
    classes_visible_to,
    get_device,
    get_device_team,
    get_session_for_teacher,
    get_session_for_viewer,
    is_class_teacher,
)
from classroom.models import DeviceBinding, Team
from games.models import TableGame

__all__ = [
    "DeviceSeat",
    "get_device",
    "get_device_seat",
    "get_game_for_device",
    "get_game_for_teacher",
    "get_game_for_viewer",
    "get_session_for_teacher",
    "get_session_for_viewer",
]


def _the_one(rows):
    """The row of a lookup that can match at most one, or None. Not `rows.first()`: that sorts by
    the model's ordering, and a team's or a game's ordering joins the session's to sort one row,
    on every request a device makes."""
    return rows.order_by().first()


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
        game = _the_one(
            TableGame.objects.select_related("table", "session").filter(table_id=team.table_id)
        )
    return DeviceSeat(binding=binding, team=team, game=game)


def get_game_for_device(request: HttpRequest, game_id: int) -> DeviceSeat:
    """The game `game_id` if this device's team sits at its table.

    Every redraw and move of a team device asks this, so the allowed case is one query after the
    binding's: the device's team, found only if its table holds that game of the device's session
    (a join through the one-team-per-student-per-session membership), with its table and game.
    A refusal asks again, step by step, to tell "no such game" (404) from "another table" (403).
    """
    binding = get_device(request)
    team = _the_one(
        Team.objects.select_related("session", "table__game").filter(
            session_id=binding.session_id,
            memberships__student_id=binding.student_id,
            table__game__pk=game_id,
            table__game__session_id=binding.session_id,
        )
    )
    if team is not None and team.seat in team.table.game.seats:
        game = team.table.game
        game.session = team.session  # the same row: the filter above asked for it
        return DeviceSeat(binding=binding, team=team, game=game)
    game = _the_one(
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


def get_game_for_viewer(request: HttpRequest, game_id: int) -> TableGame:
    """Read access: the class's teacher or the school's administrator."""
    game = _the_one(
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
