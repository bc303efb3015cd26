"""Submitting a move, and the robot players that answer it, in one locked transaction."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from classroom.models import DeviceBinding, User
from classroom.services.sessions import require_session_teacher
from classroom.validators import has_unstorable, storable_json_problem
from games.engine_registry import Engine, engine_for
from games.engines import IllegalAction
from games.models import Move, TableGame, TableMode, TableStatus
from games.services.errors import STALE_MESSAGE, MoveRefused, refusal_text
from games.services.state import lock_game, move_facts, record_move, robot_seats, save_changed

# A robot answers within the same request; this bounds a table of robots that never ends.
ROBOT_MOVE_LIMIT = 400
CLIENT_MOVE_ID_MAX = 64


def is_action_shaped(action: object) -> bool:
    """An action is a JSON object whose "type" is text: anything else (a list, a type that is
    an object or a number) cannot be any game's move, and the engines and the any-time check
    below read `action["type"]` as text."""
    return isinstance(action, dict) and isinstance(action.get("type"), str)


@dataclass
class MoveOutcome:
    """What a submission did. `repeated`: the client move id was seen before, so nothing was
    applied again and `move` is the earlier one."""

    game: TableGame
    move: Move | None
    events: list[dict] = field(default_factory=list)
    robot_moves: list[Move] = field(default_factory=list)
    repeated: bool = False


def ensure_playable(game: TableGame) -> None:
    if game.status == TableStatus.OVER:
        raise MoveRefused(_("This game is over: no more moves."), reason=MoveRefused.OVER)
    if game.status == TableStatus.PAUSED:
        raise MoveRefused(
            _("Your teacher has paused this table. Wait for it to start again."),
            reason=MoveRefused.PAUSED,
        )


def ensure_version(game: TableGame, expected_version: int | None) -> None:
    if expected_version != game.version:
        raise MoveRefused(STALE_MESSAGE, reason=MoveRefused.STALE)


def ensure_seat(
    game: TableGame,
    engine: Engine,
    seat: str,
    *,
    by_device: DeviceBinding | None,
    by_teacher: User | None,
) -> None:
    """The facilitator's seat (3 Laws) is the class's teacher's alone: never a device's."""
    if engine.facilitator is not None and seat == engine.facilitator:
        if by_device is not None or by_teacher is None:
            raise MoveRefused(_("Only the teacher runs the game."), reason=MoveRefused.INVALID)
        require_session_teacher(game.session, by_teacher, gettext_noop("run this table"))
    elif seat not in game.seats:
        raise MoveRefused(_("That team does not play at this table."), reason=MoveRefused.INVALID)


def move_submit(
    *,
    game_id: int,
    seat: str,
    action: dict,
    expected_version: int | None,
    client_move_id: str,
    by_device: DeviceBinding | None = None,
    by_teacher: User | None = None,
) -> MoveOutcome:
    """Apply `action` for `seat` on the version of the table the person saw.

    The seat must already be checked by the caller (games.access); the facilitator's seat is
    accepted only `by_teacher`, the class's own teacher (`ensure_seat`). A repeated
    `client_move_id` returns the first outcome unchanged; a stale `expected_version`, a paused or
    finished table, or an action the engine refuses raise MoveRefused and change nothing.
    The engine's `any_time_actions` (3 Laws: Error calls) skip the version check, so their
    `expected_version` may be None.
    """
    if (
        not client_move_id
        or len(client_move_id) > CLIENT_MOVE_ID_MAX
        or has_unstorable(client_move_id)
        or not is_action_shaped(action)
        or storable_json_problem(action)
    ):
        # Checked here too, not only by the views' forms: the action is stored as jsonb.
        raise MoveRefused(_("That move could not be read: reload the page."), reason="invalid")
    with transaction.atomic():
        game = lock_game(game_id)
        facts = move_facts(game, client_move_id)
        if facts.earlier is not None:
            earlier = facts.earlier
            return MoveOutcome(game=game, move=earlier, events=earlier.events, repeated=True)
        ensure_playable(game)
        if game.mode != TableMode.LIVE:
            raise MoveRefused(
                _("This table plays with printed cards: record your bench at the end."),
                reason=MoveRefused.INVALID,
            )
        engine = engine_for(game)
        if action.get("type") not in engine.any_time_actions:
            ensure_version(game, expected_version)
        ensure_seat(game, engine, seat, by_device=by_device, by_teacher=by_teacher)
        state = engine.load(game.state)
        try:
            events = state.apply(seat, action)
        except IllegalAction as exc:
            raise MoveRefused(refusal_text(exc), reason=MoveRefused.ILLEGAL) from None
        seq = facts.next_seq
        move = record_move(
            game,
            seq=seq,
            seat=seat,
            action=action,
            events=events,
            client_move_id=client_move_id,
            by_device=by_device,
            by_teacher=by_teacher,
        )
        robots = play_robots(game, engine, state, first_seq=seq + 1, seats=facts.robots)
        save_changed(game, state, added=[move, *robots])
    return MoveOutcome(game=game, move=move, events=events, robot_moves=robots)


def play_robots(
    game: TableGame,
    engine: Engine,
    state: Any,
    *,
    first_seq: int,
    seats: set[str] | None = None,
    by_teacher: User | None = None,
    only_seat: str | None = None,
) -> list[Move]:
    """Let robot seats move while it is their turn, each move its own Move row.

    `seats`: which seats the robot plays (default: the table's robot teams). `only_seat`: stop
    as soon as the turn passes from that seat (the teacher playing one absent team's turn).
    """
    if seats is None:
        seats = robot_seats(game)
    moves: list[Move] = []
    seq = first_seq
    for _turn in range(ROBOT_MOVE_LIMIT):
        seat = state.current_seat
        if state.is_over or seat is None or seat not in seats:
            break
        if only_seat is not None and seat != only_seat:
            break
        action = engine.suggest(state, seat)
        events = state.apply(seat, action)
        moves.append(
            record_move(
                game,
                seq=seq,
                seat=seat,
                action=action,
                events=events,
                client_move_id=f"robot:{seq}",
                by_teacher=by_teacher,
                by_robot=True,
            )
        )
        seq += 1
    return moves
