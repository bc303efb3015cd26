"""Building the context of each live screen, shared by the page views and the poll.

Secrets are removed here, once: a device's context holds `view(seat)` for its own seat, every
other screen `view(None)`; the TableGame row (whose `state` holds every hand) never reaches a
template.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from datetime import timedelta

from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.timesince import timesince
from django.utils.translation import gettext

from classroom.models import Session
from classroom.selectors import JoinedDevice, session_devices_by_table
from classroom.watch import DEVICE, GRID, PROJECTOR, TEACHER, WAITING, Watch
from games import live
from games.access import DeviceSeat
from games.engine_registry import engine_for
from games.models import TableGame
from games.selectors import (
    TableInfo,
    current_seat,
    legal_actions,
    recent_moves,
    recent_moves_of,
    recorded_seats,
    seat_screen,
    seat_view,
    session_tables,
    session_tables_and_waiting,
    table_info,
    table_info_and_moves,
)

# What a move or a control can change on a TableGame row (its table and session stay cached):
# the fields a view re-reads before drawing the table after its own write.
CHANGING = ["state", "version", "status", "results", "last_move_at", "ended_at"]


def live_urls(watch: Watch, versions: dict[int, int]) -> dict:
    """What a live page needs to stay fresh (classroom.watch.urls), drawn from `versions`."""
    return live.page_urls(watch, versions)


def new_client_move_id() -> str:
    """One id per drawn screen, in every button's form: a double tap posts the same id twice,
    and the second post returns the first one's outcome."""
    return secrets.token_urlsafe(12)


def with_names(message: str, names: dict[str, str]) -> str:
    """An engine's message speaks of seats ("team-2"); people know their team names."""
    for seat in sorted(names, key=len, reverse=True):
        message = message.replace(seat, names[seat])
    return message


def device_watch(ds: DeviceSeat) -> Watch:
    """What a device's play page shows and for whom: its table, its seat, its binding."""
    game = ds.game
    return Watch(DEVICE, game.session_id, (game.pk,), seat=ds.seat, binding_id=ds.binding.pk)


def device_screen(ds: DeviceSeat, *, error: str = "") -> dict:
    game = ds.game
    assert game is not None
    info, moves = table_info_and_moves(game)
    view, actions = seat_screen(game, ds.seat)
    engine = engine_for(game)
    display = engine.display
    watch = device_watch(ds)
    context = {
        "table": info,
        "team": ds.team,
        "seat": ds.seat,
        "view": view,
        "screen": display.device_context(view, actions, info.names, ds.seat),
        "has_actions": bool(actions),
        "events": display.narrate_moves(moves, info.names),
        "results": display.results_rows(info.results, info.names),
        "my_result": next((r for r in info.results or [] if r["seat"] == ds.seat), None),
        "client_move_id": new_client_move_id(),
        "move_url": reverse("games:move", args=[game.pk]),
        **live_urls(watch, {game.pk: game.version}),
        "error": with_names(error, info.names),
        "screen_template": engine.template("device"),
        "teachback_url": (
            reverse("games:teachback", args=[game.session_id]) if info.is_over else None
        ),
    }
    if info.is_tabletop:
        context["recorded"] = recorded_seats(game)
        context["bench_url"] = reverse("games:tabletop_bench", args=[game.pk])
    return context


def waiting_screen(ds: DeviceSeat) -> dict:
    watch = Watch(WAITING, ds.binding.session_id, (), seat=ds.seat, binding_id=ds.binding.pk)
    return {"team": ds.team, **live_urls(watch, {})}


def public_table(game: TableGame, info: TableInfo, moves: list | None = None) -> dict:
    """One table as everyone may see it: the projector, a grid cell, the teacher's replay.
    `moves` are the recent moves to narrate, newest first (default: the last five)."""
    engine = engine_for(game)
    display = engine.display
    view = seat_view(game, None)
    if moves is None:
        moves = recent_moves(game, 5)
    return {
        "table": info,
        "view": view,
        "screen": display.public_context(view, info.names),
        "events": display.narrate_moves(moves, info.names),
        "results": display.results_rows(info.results, info.names),
        "show_results": info.is_over,
        "screen_template": engine.template("public"),
        "compact_template": engine.template("compact"),
    }


def facilitator_controls(game: TableGame, info: TableInfo, view: dict | None = None) -> dict:
    """The teacher's own moves in a game with a facilitator seat (3 Laws: advance a phase, void
    a call) as buttons, with the template drawing them; empty for other games. Only for the
    class's teacher: the caller checks that."""
    engine = engine_for(game)
    if engine.facilitator is None:
        return {}
    if view is None:
        view = seat_view(game, None)
    actions = legal_actions(game, engine.facilitator)
    return {
        "facilitator_buttons": engine.display.facilitator_buttons(view, actions, info.names),
        "facilitator_status": engine.display.status_line(view),
        "facilitator_template": engine.template("facilitator"),
        "facilitate_url": reverse("games:facilitate", args=[game.pk]),
        "client_move_id": new_client_move_id(),
    }


def projector_screen(
    game: TableGame, user_id: int, *, can_control: bool, notice: str = "", error: str = ""
) -> dict:
    """`can_control`: the viewer is the class's teacher (`classroom.access.is_class_teacher`),
    who also gets the facilitator's buttons."""
    info = table_info(game)
    watch = Watch(PROJECTOR, game.session_id, (game.pk,), user_id=user_id)
    context = public_table(game, info)
    context.update(
        session=game.session,
        **live_urls(watch, {game.pk: game.version}),
        can_control=can_control,
        notice=notice,
        error=error,
    )
    if can_control:
        context.update(facilitator_controls(game, info, context["view"]))
    return context


def table_drawing_key(info: TableInfo) -> str:
    """What a drawing of a table (a grid cell, a dashboard row) depends on. Whatever follows
    from its state changes with the version, which every move, control and recorded bench
    raises; the robots may change between moves (a robot taking over a team), and the names
    are kept in the key with them."""
    return f"{info.pk}:{info.version}:{info.status}:{sorted(info.robots)}:{info.names}"


class GridCell:
    """One table of the projector grid, worked out only if it is drawn: the grid template keeps
    each cell's drawing in the cache by `fragment_key`, so after a move only the table that
    moved is worked out and drawn again. The fragment holds nothing of the viewer's (the grid
    has no controls), so every screen of the class shares it."""

    def __init__(self, game: TableGame, info: TableInfo, latest: Callable[[], dict]):
        self.game = game
        self.table = info
        self.compact_template = engine_for(game).template("compact")
        self._latest = latest

    @property
    def fragment_key(self) -> str:
        return table_drawing_key(self.table)

    @cached_property
    def _drawn(self) -> dict:
        return public_table(self.game, self.table, self._latest()[self.game.pk][:1])

    @property
    def screen(self) -> dict:
        return self._drawn["screen"]

    @property
    def events(self) -> list:
        return self._drawn["events"]

    @property
    def results(self) -> list:
        return self._drawn["results"]


def grid_screen(session: Session, user_id: int) -> dict:
    tables = session_tables(session)
    games = [game for game, _ in tables]
    # The tables' recent moves, read for all at once, and only if a cell is drawn.
    latest = functools.cache(lambda: recent_moves_of(games))
    watch = Watch(GRID, session.pk, tuple(game.pk for game in games), user_id=user_id)
    return {
        "session": session,
        "cells": [GridCell(game, info, latest) for game, info in tables],
        **live_urls(watch, {game.pk: game.version for game, _ in tables}),
    }


def _age(info: TableInfo) -> str:
    if info.last_move_at is None:
        return gettext("no move yet")
    if timezone.now() - info.last_move_at < timedelta(minutes=1):
        return gettext("just now")
    return gettext("%(time)s ago") % {"time": timesince(info.last_move_at, depth=1)}


class DashboardRow:
    """One table's row of the teacher's dashboard, worked out only if it is drawn: the rows are
    kept in the cache by `fragment_key` (games.views.regions.dashboard_rows), so after a move
    only the table that moved is worked out and drawn again, not every table of the class."""

    def __init__(
        self, game: TableGame, info: TableInfo, devices: list[JoinedDevice], can_control: bool
    ):
        self.game = game
        self.table = info
        self.devices = devices
        self.can_control = can_control
        self.age = _age(info)

    @property
    def fragment_key(self) -> str:
        # Beside the table's drawing: its age changes with the clock, and its devices when a
        # phone joins or is freed.
        devices = [(device.binding_id, device.student_name) for device in self.devices]
        return f"{table_drawing_key(self.table)}:{self.age}:{devices}:{self.can_control}"

    @cached_property
    def context(self) -> dict:
        game, info = self.game, self.table
        seat = current_seat(game)
        row = {
            "table": info,
            "current_name": info.name(seat) if seat else "",
            "current_is_robot": seat in info.robots,
            "age": self.age,
            "recorded": len(recorded_seats(game)) if info.is_tabletop else None,
            "has_moves": game.last_move_at is not None,
            "can_end_now": engine_for(game).results_now is not None,
            "devices": self.devices,
        }
        if self.can_control and not info.is_over:
            row.update(facilitator_controls(game, info))
        return row


def dashboard_screen(
    session: Session, user_id: int, *, can_control: bool, notice: str = "", error: str = ""
) -> dict:
    """`rows` holds a DashboardRow a table: games.views.regions.render_dashboard draws them."""
    tables, waiting = session_tables_and_waiting(session)
    devices = session_devices_by_table(session) if can_control else {}
    rows = [
        DashboardRow(game, info, devices.get(game.table_id, []), can_control)
        for game, info in tables
    ]
    watch = Watch(TEACHER, session.pk, tuple(game.pk for game, _ in tables), user_id=user_id)
    return {
        "session": session,
        "rows": rows,
        "waiting": [
            {"pk": table.pk, "number": table.number, "teams": list(table.teams.all())}
            for table in waiting
        ],
        "can_control": can_control,
        "notice": notice,
        "error": error,
        **live_urls(watch, {game.pk: game.version for game, _ in tables}),
    }
