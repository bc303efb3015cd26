"""Loading, rebuilding and saving a table's game state: the helpers every service shares.

A TableGame's `state` is a cache of the engine's `to_dict()`; the truth is the seed, the options
and the live (not undone) moves, and `replay` rebuilds the state from them exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from classroom import rows
from classroom.lookups import the_one
from classroom.models import Classroom, Session, Team, seat_name
from games import live, table_cache
from games.engine_registry import engine_for
from games.models import Move, TableGame, TableStatus

# A move's first statements, written out (see classroom.rows): every move of every table takes
# them, and the ORM took longer to build them than the database to answer. The lock is on the
# game's row alone, as `select_for_update(of=("self",))` takes it; SQLite has no row locks, and
# its transactions take the database's write lock as they begin (config.settings).
_LOCK_PARTS = ((TableGame, "g"), (Session, "s"), (Classroom, "c"))
_LOCK = f"""
    SELECT {rows.columns(TableGame, "g")}, {rows.columns(Session, "s")},
        {rows.columns(Classroom, "c")}
    FROM {TableGame._meta.db_table} g
    JOIN {Session._meta.db_table} s ON s.id = g.session_id
    JOIN {Classroom._meta.db_table} c ON c.id = s.classroom_id
    WHERE g.id = %s
    {"FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""}
"""
# Run after the lock, never within its statement: a statement that waited for the lock keeps
# the snapshot it began with, which misses the moves of the transaction it waited for. A row
# for each robot team of the table (one with a NULL number when there is none), each with
# the move this client move id made already and the table's last sequence number.
_FACTS = f"""
    SELECT t.number,
        (SELECT m.id FROM {Move._meta.db_table} m WHERE m.game_id = %s AND m.client_move_id = %s),
        (SELECT MAX(m.seq) FROM {Move._meta.db_table} m WHERE m.game_id = %s)
    FROM (SELECT 1 AS one) AS one
    LEFT JOIN {Team._meta.db_table} t ON t.table_id = %s AND t.is_robot
"""


def lock_game(game_id: int) -> TableGame:
    """The TableGame row with its session and class, locked until the transaction ends: moves
    on one table queue up here. TableGame.DoesNotExist when there is no such game."""
    found = None
    if rows.storable_pk(TableGame, game_id):
        found = rows.first_all(_LOCK, [game_id], *_LOCK_PARTS)
    if found is None:
        raise TableGame.DoesNotExist(f"No table game {game_id}.")
    game, session, classroom = found
    session.classroom = classroom
    game.session = session
    return game


class MoveFacts(NamedTuple):
    """What a move needs to know of its locked table besides the game (`move_facts`)."""

    earlier: Move | None  # see earlier_move
    next_seq: int  # see next_seq
    robots: set[str]  # see robot_seats


def move_facts(game: TableGame, client_move_id: str) -> MoveFacts:
    """`earlier_move`, `next_seq` and `robot_seats` of a locked game in one statement."""
    found = rows.all_rows(_FACTS, [game.pk, client_move_id, game.pk, game.table_id])
    _number, earlier_id, top = found[0]
    earlier = None if earlier_id is None else Move.objects.get(pk=earlier_id)
    robots = {seat_name(number) for number, _id, _top in found if number is not None}
    return MoveFacts(earlier, _after(top), robots)


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
    return _after(game.moves.aggregate(top=Max("seq"))["top"])


def _after(top: int | None) -> int:
    return (top or 0) + 1


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
