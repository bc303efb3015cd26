"""Tabletop Bot-Builders: teams play with printed cards and record their final bench on the
device; the app scores the benches exactly like a live game.

A recorded bench is a Move ({"type": "record_bench", "bench": {slot: id}}) in the same
append-only log, applied by the tabletop engine (`games.engines.bot_builders.tabletop`), so
repeats, undo (a replay from the log) and the version the screens poll work as for live moves.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.utils.translation import gettext as _

from classroom.models import DeviceBinding
from games.engine_registry import engine_for
from games.engines import IllegalAction
from games.engines.bot_builders.tabletop import RECORD, clean_bench
from games.models import Move, TableMode
from games.services.errors import MoveRefused, ServiceError, refusal_text
from games.services.moves import CLIENT_MOVE_ID_MAX, ensure_playable
from games.services.state import earlier_move, lock_game, next_seq, record_move, save_changed


def bench_record(
    *,
    game_id: int,
    seat: str,
    bench: Mapping[str, str | None],
    client_move_id: str,
    by_device: DeviceBinding | None = None,
) -> Move:
    """Record (or re-record) `seat`'s final bench. Each card exists once, so a card already on
    another team's bench at this table is refused. A repeated `client_move_id` records once."""
    try:
        cleaned = clean_bench(bench)
    except IllegalAction as exc:
        raise ServiceError(refusal_text(exc)) from None
    if not client_move_id or len(client_move_id) > CLIENT_MOVE_ID_MAX:
        raise ServiceError(_("That bench could not be read: reload the page."))
    with transaction.atomic():
        game = lock_game(game_id)
        earlier = earlier_move(game, client_move_id)
        if earlier is not None:
            return earlier
        if game.mode != TableMode.TABLETOP:
            raise MoveRefused(_("This table is played on the devices."), reason=MoveRefused.INVALID)
        ensure_playable(game)
        if seat not in game.seats:
            raise ServiceError(_("Your team is not at this table."))
        action = {"type": RECORD, "bench": cleaned}
        state = engine_for(game).load(game.state)
        try:
            events = state.apply(seat, action)
        except IllegalAction as exc:
            raise ServiceError(refusal_text(exc)) from None
        move = record_move(
            game,
            seq=next_seq(game),
            seat=seat,
            action=action,
            events=events,
            client_move_id=client_move_id,
            by_device=by_device,
        )
        save_changed(game, state)
    return move
