"""Loading, rebuilding and saving a table's game state: the helpers every service shares.

A TableGame's `state` is a cache of the engine's `to_dict()`; the truth is the seed, the options
and the live (not undone) moves, and `replay` rebuilds the state from them exactly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from classroom.lookups import the_one
from classroom.models import Team, seat_name
from games import live
from games.engine_registry import engine_for
from games.models import Move, TableGame, TableStatus


def lock_game(game_id: int) -> TableGame:
    """The TableGame row, locked until the transaction ends: moves on one table queue up here."""
    return (
        TableGame.objects.select_for_update(of=("self",))
        .select_related("session__classroom")
        .get(pk=game_id)
    )


def live_moves(game: TableGame):
    return game.moves.filter(undone_at__isnull=True).order_by("seq")


def replay(game: TableGame, moves: Iterable[Move]) -> Any:
    """The engine game dealt from the table's seed and options, with `moves` applied in order."""
    engine = engine_for(game)
    state = engine.new_game(list(game.seats), game.seed, dict(game.options))
    for move in moves:
        state.apply(move.seat, move.action)
    return state


def earlier_move(game: TableGame, client_move_id: str) -> Move | None:
    """The move this `client_move_id` already made at the table (a repeated tap), or None."""
    return the_one(game.moves.filter(client_move_id=client_move_id))  # unique per game


def next_seq(game: TableGame) -> int:
    """Sequence numbers keep counting over undone moves: rows are never deleted or reused."""
    return (game.moves.aggregate(top=Max("seq"))["top"] or 0) + 1


def robot_seats(game: TableGame) -> set[str]:
    robots = Team.objects.filter(table_id=game.table_id, is_robot=True)
    # Unsorted: a set is made of them, and the teams' ordering would join the session.
    teams = robots.order_by().values_list("number", flat=True)
    return {seat_name(number) for number in teams}


def record_move(
    game: TableGame,
    *,
    seq: int,
    seat: str,
    action: dict,
    events: list[dict],
    client_move_id: str,
    by_device=None,
    by_teacher=None,
    by_robot: bool = False,
) -> Move:
    return Move.objects.create(
        game=game,
        seq=seq,
        seat=seat,
        action=action,
        events=events,
        client_move_id=client_move_id,
        by_device=by_device,
        by_teacher=by_teacher,
        by_robot=by_robot,
    )


def save_changed(game: TableGame, state: Any | None = None, *, moved: bool = True) -> TableGame:
    """Store a changed table: the engine state (if given), version + 1, the end of the game when
    the engine says it is over, and the cached version once the transaction commits."""
    now = timezone.now()
    fields = ["version"]
    if state is not None:
        game.state = state.to_dict()
        fields.append("state")
        if state.is_over and game.status != TableStatus.OVER:
            game.status = TableStatus.OVER
            game.results = state.results()
            game.ended_at = now
            fields += ["status", "results", "ended_at"]
    if moved:
        game.last_move_at = now
        fields.append("last_move_at")
    game.version += 1
    game.save(update_fields=fields)
    announce(game)
    return game


def announce(game: TableGame) -> None:
    """Tell every screen of the table, once the change is visible to other connections.

    Robust: the move is committed by then, so a failure to announce it must not answer 500
    (games.live makes a failed write fall back to the database, never to a stale version)."""
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: live.bump_version(game_id, version), robust=True)
