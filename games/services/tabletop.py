"""Tabletop Bot-Builders: teams play with printed cards and record their final bench on the
device; the app scores the benches exactly like a live game.

A recorded bench is a Move ({"type": "record_bench", "bench": {slot: id}}) in the same
append-only log, so repeats, undo and the version the screens poll work as for live moves.
The state is {"benches": {seat: {slot: id}}}, folded from the live moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.db import transaction

from classroom.models import DeviceBinding
from games.engine_registry import bot_builders_standings
from games.engines import bot_builders
from games.models import Move, TableGame, TableMode
from games.services.errors import MoveRefused, ServiceError
from games.services.moves import CLIENT_MOVE_ID_MAX, ensure_playable
from games.services.state import lock_game, next_seq, record_move, save_changed

RECORD = "record_bench"


def empty_state(seats: Iterable[str]) -> dict:
    return {"benches": {seat: dict.fromkeys(bot_builders.SLOTS) for seat in seats}}


def fold(moves: Iterable[Move], seats: Iterable[str] = ()) -> dict:
    """The benches as recorded by `moves` (a later record of a seat replaces its earlier one)."""
    state = empty_state(seats)
    for move in moves:
        if move.action.get("type") == RECORD:
            state["benches"][move.seat] = dict(move.action["bench"])
    return state


def clean_bench(raw: Mapping[str, str | None]) -> dict[str, str | None]:
    """{slot: card id or None} for the five slots; ServiceError naming what is wrong."""
    bench: dict[str, str | None] = {}
    for slot in bot_builders.SLOTS:
        card_id = raw.get(slot) or None
        if card_id is not None:
            card = bot_builders.CARDS.get(card_id)
            if card is None or card.is_glitch or card.slot != slot:
                label = slot.capitalize()
                raise ServiceError(f"That card does not go in the {label} slot.")
        bench[slot] = card_id
    unknown = set(raw) - set(bot_builders.SLOTS)
    if unknown:
        raise ServiceError("A bench has only Sense, Think, Act, Power and Mission slots.")
    return bench


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
    cleaned = clean_bench(bench)
    if not client_move_id or len(client_move_id) > CLIENT_MOVE_ID_MAX:
        raise ServiceError("That bench could not be read: reload the page.")
    with transaction.atomic():
        game = lock_game(game_id)
        earlier = game.moves.filter(client_move_id=client_move_id).first()
        if earlier is not None:
            return earlier
        if game.mode != TableMode.TABLETOP:
            raise MoveRefused("This table is played on the devices.", reason=MoveRefused.INVALID)
        ensure_playable(game)
        if seat not in game.seats:
            raise ServiceError("Your team is not at this table.")
        taken = {
            card_id: other
            for other, other_bench in game.state.get("benches", {}).items()
            if other != seat
            for card_id in other_bench.values()
            if card_id
        }
        clashes = [card_id for card_id in cleaned.values() if card_id in taken]
        if clashes:
            names = ", ".join(bot_builders.CARDS[card_id].name for card_id in clashes)
            raise ServiceError(
                f"Already on another team's bench: {names}. Each card exists only once: "
                "check your cards and pick again."
            )
        move = record_move(
            game,
            seq=next_seq(game),
            seat=seat,
            action={"type": RECORD, "bench": cleaned},
            events=[{"type": "bench_recorded", "seat": seat}],
            client_move_id=client_move_id,
            by_device=by_device,
        )
        game.state.setdefault("benches", {})[seat] = cleaned
        game.save(update_fields=["state"])
        save_changed(game)
    return move


def recorded_seats(game: TableGame) -> list[str]:
    benches = game.state.get("benches", {})
    return [seat for seat in game.seats if any(benches.get(seat, {}).values())]


def results(game: TableGame) -> list[dict]:
    """Standings from the recorded benches (a bench not recorded scores as empty), ranked with
    the engine's own tie-breaks, in the same shape as a live game's results()."""
    return bot_builders_standings(
        list(game.seats), game.state.get("benches", {}), game.options.get("birth_months")
    )
