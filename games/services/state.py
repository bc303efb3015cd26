"""Loading, rebuilding and saving a table's game state: the helpers every service shares.

A TableGame's `state` is a cache of the engine's `to_dict()`; the truth is the seed, the options
and the live (not undone) moves, and `replay` rebuilds the state from them exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from django.db import transaction
from django.utils import timezone

from classroom import sql
from classroom.models import seat_name
from games import live, statements, table_cache
from games.engine_registry import engine_for
from games.models import Move, TableGame, TableStatus


def lock_game(game_id: int) -> TableGame:
    """The TableGame row with its session and class, locked until the transaction ends: moves
    on one table queue up here (`games.statements.LOCK`). TableGame.DoesNotExist when there is
    no such game."""
    found = None
    if sql.storable_pk(TableGame, game_id):
        found = sql.first_all(statements.LOCK, [game_id], *statements.LOCK_PARTS)
    if found is None:
        raise TableGame.DoesNotExist(f"No table game {game_id}.")
    game, session, classroom = found
    session.classroom = classroom
    game.session = session
    return game


class MoveFacts(NamedTuple):
    """What a move needs to know of its locked table besides the game (`move_facts`)."""

    earlier: Move | None  # the move this client move id made already (a repeated tap), or None
    next_seq: int  # sequence numbers keep counting over undone moves: never reused
    robots: set[str]  # the seats of the table's robot teams


def move_facts(game: TableGame, client_move_id: str | None = None) -> MoveFacts:
    """What a move needs to know of its locked game, in one statement (`games.statements.FACTS`),
    read after the lock."""
    found = sql.all_rows(statements.FACTS, [game.pk, client_move_id, game.pk, game.table_id])
    _number, earlier_id, top = found[0]
    earlier = None if earlier_id is None else Move.objects.get(pk=earlier_id)
    robots = {seat_name(number) for number, _id, _top in found if number is not None}
    return MoveFacts(earlier, (top or 0) + 1, robots)


# One fact of move_facts, for a service that needs only that one.


def earlier_move(game: TableGame, client_move_id: str) -> Move | None:
    return move_facts(game, client_move_id).earlier


def next_seq(game: TableGame) -> int:
    return move_facts(game).next_seq


def robot_seats(game: TableGame) -> set[str]:
    return move_facts(game).robots


def live_moves(game: TableGame):
    return game.moves.filter(undone_at__isnull=True).order_by("seq")


def replay(game: TableGame, moves: Iterable[Move]) -> Any:
    """The engine game dealt from the table's seed and options, with `moves` applied in order."""
    engine = engine_for(game)
    state = engine.new_game(list(game.seats), game.seed, dict(game.options))
    for move in moves:
        state.apply(move.seat, move.action)
    return state


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


def save_changed(
    game: TableGame,
    state: Any | None = None,
    *,
    moved: bool = True,
    added: Sequence[Move] = (),
) -> TableGame:
    """Store a changed table: the engine state (if given), version + 1, the end of the game when
    the engine says it is over, and the cached version once the transaction commits.

    `added`: the moves that made the change, when it did nothing else (no undo, no seat
    changes): the new version's shared values are then made from the last one's."""
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
    announce(game, added)
    return game


def announce(game: TableGame, added: Sequence[Move] = ()) -> None:
    """Tell every screen of the table, once the change is visible to other connections; with
    the `added` moves, fill the new version's shared values first, so the screens find them.

    Robust: the move is committed by then, so a failure to announce it must not answer 500
    (games.live makes a failed write fall back to the database, never to a stale version)."""
    game_id, version = game.pk, game.version

    def tell() -> None:
        try:
            if added:
                table_cache.carry_forward(game_id, version, added)
        finally:
            live.bump_version(game_id, version)

    transaction.on_commit(tell, robust=True)
