"""Building a table: `new_game` from a seed (or a fixed deck), and restoring one from JSON."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.engines.i18n import N_, Reason

from .cards import CARDS, DEAL_SIZE, DECK_IDS, DECK_SIZE, SLOTS
from .game import DUMMY, FORMAT_VERSION, PHASES, Game, empty_bench
from .scoring import valid_birth_month

MIN_SEATS = 2
MAX_SEATS = 6


def new_game(
    seats: Sequence[str],
    seed: int | str = 0,
    solo: bool = False,
    start_seat: str | None = None,
    deck: Sequence[str] | None = None,
    birth_months: Mapping[str, str | None] | None = None,
) -> Game:
    """Deal a new table. Raises ValueError for a bad setup.

    `deck` (all 48 ids, top first) replaces the seeded shuffle. `start_seat` defaults to a seat
    drawn from the seed. `birth_months` maps seats to "YYYY-MM" for the age tie-break.
    """
    seats = _check_seats(seats, solo)
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ValueError("The seed must be a whole number or a string.")
    # One generator, used only here at setup, so no random state needs saving afterwards.
    rng = random.Random(seed)
    if deck is None:
        order = list(DECK_IDS)
        rng.shuffle(order)
    else:
        order = _check_deck(deck)
    if start_seat is None:
        start_seat = rng.choice(seats)
    elif start_seat not in seats:
        raise ValueError(f"The start seat {start_seat!r} is not at this table.")
    months = _check_birth_months(birth_months, seats)

    game = Game()
    game.seats = seats
    game.solo = solo
    game.seed = seed
    game.start_seat = start_seat
    game.birth_months = months
    game.hands = {}
    for i, seat in enumerate(seats):
        game.hands[seat] = order[i * DEAL_SIZE : (i + 1) * DEAL_SIZE]
    dealt = len(seats) * DEAL_SIZE
    game.discard = [order[dealt]]
    # The draw pile is stored top last, so the spec's "top first" order is reversed.
    game.draw_pile = order[dealt + 1 :][::-1]
    game.benches = {seat: empty_bench() for seat in seats}
    game.dummy_bench = empty_bench() if solo else None
    game.current = seats.index(start_seat)
    game.phase = "draw"
    game.bot_called_by = None
    game.final_turn = False
    game.end_reason = None
    game.turn = 1
    game.moves = 0
    return game


def _check_seats(seats: Any, solo: bool) -> list[str]:
    if isinstance(seats, str) or not isinstance(seats, Sequence):
        raise ValueError("Seats must be a list of names.")
    seats = list(seats)
    if not all(isinstance(seat, str) and seat for seat in seats):
        raise ValueError("Every seat needs a name (a non-empty string).")
    if len(set(seats)) != len(seats):
        raise ValueError("Two seats have the same name.")
    if DUMMY in seats:
        raise ValueError(f"{DUMMY!r} is reserved for the solo dummy bench.")
    if solo and len(seats) != 1:
        raise ValueError("Solo Bot-Builders is played by exactly one seat.")
    if not solo and not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise ValueError(
            Reason(
                N_("Bot-Builders needs %(min)s to %(max)s seats (or 1 in solo)."),
                min=MIN_SEATS,
                max=MAX_SEATS,
            )
        )
    return seats


def _check_deck(deck: Any) -> list[str]:
    if isinstance(deck, str) or not isinstance(deck, Sequence):
        raise ValueError("The deck must be a list of card ids.")
    order = list(deck)
    if len(order) != DECK_SIZE or set(order) != set(DECK_IDS):
        raise ValueError(f"The deck must hold each of the {DECK_SIZE} cards exactly once.")
    return order


def _check_birth_months(months: Any, seats: list[str]) -> dict[str, str]:
    if months is None:
        return {}
    if not isinstance(months, Mapping):
        raise ValueError("Birth months must be a mapping of seat to 'YYYY-MM'.")
    checked = {}
    for seat, month in months.items():
        if seat not in seats:
            raise ValueError(f"Birth month for {seat!r}, which is not at this table.")
        if month is None:
            continue  # a seat without a known month
        if not valid_birth_month(month):
            raise ValueError(f"Birth month {month!r} is not like '2015-04'.")
        checked[seat] = month
    return checked


def restore(cls: type[Game], data: Any) -> Game:
    """Rebuild a Game from `to_dict()` output; ValueError if the data is not a valid state."""
    try:
        if data["version"] != FORMAT_VERSION:
            raise ValueError(f"Unknown saved-game version {data['version']!r}.")
        game = cls()
        game.seats = [str(s) for s in data["seats"]]
        game.solo = bool(data["solo"])
        game.seed = data["seed"]
        game.start_seat = data["start_seat"]
        game.birth_months = dict(data["birth_months"])
        game.hands = {s: list(data["hands"][s]) for s in game.seats}
        game.benches = {s: {slot: data["benches"][s][slot] for slot in SLOTS} for s in game.seats}
        dummy = data["dummy_bench"]
        game.dummy_bench = {slot: dummy[slot] for slot in SLOTS} if dummy is not None else None
        game.draw_pile = list(data["draw_pile"])
        game.discard = list(data["discard"])
        game.current = int(data["current"])
        game.phase = data["phase"]
        game.bot_called_by = data["bot_called_by"]
        game.final_turn = bool(data["final_turn"])
        game.end_reason = data["end_reason"]
        game.turn = int(data["turn"])
        game.moves = int(data["moves"])
    except (KeyError, TypeError, AttributeError, IndexError) as error:
        raise ValueError(f"Not a saved Bot-Builders game: {error!r}") from error
    _check_restored(game)
    return game


def _check_restored(game: Game) -> None:
    _check_seats(game.seats, game.solo)
    if game.phase not in PHASES or not 0 <= game.current < len(game.seats):
        raise ValueError("Saved game has an unknown phase or current seat.")
    places = [*game.draw_pile, *game.discard]
    for seat in game.seats:
        places += game.hands[seat]
    for bench in [*game.benches.values(), game.dummy_bench or {}]:
        places += [card_id for card_id in bench.values() if card_id is not None]
        for slot, card_id in bench.items():
            if card_id is not None and (card_id not in CARDS or CARDS[card_id].slot != slot):
                raise ValueError(f"Saved game has {card_id!r} in the {slot} slot.")
            if card_id is not None and CARDS[card_id].is_glitch:
                raise ValueError("Saved game has a Glitch on a bench.")
    if sorted(places) != sorted(DECK_IDS):
        raise ValueError("Saved game does not hold each of the 48 cards exactly once.")
