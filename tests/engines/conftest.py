"""Helpers for the engine tests. Bot-Builders helpers are named bb_*."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from games.engines.bot_builders import CARDS, DECK_IDS, Game, new_game

BB_SEATS = ("red", "blue", "green", "yellow", "purple", "orange")


def build_bb_deck(
    hands: Sequence[Sequence[str]],
    discard: str | None = None,
    draws: Sequence[str] = (),
) -> list[str]:
    """A full 48-id deck order, top first: each hand (padded to 4 with unused cards in spec
    order), then the flipped discard card, then `draws` in the order they will be drawn, then
    every other card in spec order."""
    chosen = [c for hand in hands for c in hand] + ([discard] if discard else []) + list(draws)
    assert len(chosen) == len(set(chosen)), "a card is used twice"
    spare = iter(c for c in DECK_IDS if c not in chosen and not CARDS[c].is_glitch)
    top: list[str] = []
    for hand in hands:
        assert len(hand) <= 4
        top += list(hand) + [next(spare) for _ in range(4 - len(hand))]
    top.append(discard or next(spare))
    top += draws
    return top + [c for c in DECK_IDS if c not in top]


@pytest.fixture
def bb_deck() -> Callable[..., list[str]]:
    return build_bb_deck


def make_bb_game(
    hands: Sequence[Sequence[str]],
    discard: str | None = None,
    draws: Sequence[str] = (),
    seats: Sequence[str] | None = None,
    **options,
) -> Game:
    seats = list(seats or BB_SEATS[: len(hands)])
    options.setdefault("start_seat", seats[0])
    return new_game(seats, deck=build_bb_deck(hands, discard, draws), **options)


@pytest.fixture
def bb_game() -> Callable[..., Game]:
    """Build a game from chosen hands, first seat starting: bb_game([[..], [..]], "flip", [..])."""
    return make_bb_game


def bb_put_on_bench(game: Game, seat: str, *card_ids: str) -> None:
    """Move cards from wherever they are onto a bench, keeping every card in exactly one place."""
    for card_id in card_ids:
        for pile in [game.draw_pile, game.discard, *game.hands.values()]:
            if card_id in pile:
                pile.remove(card_id)
        bench = game.dummy_bench if seat == "dummy" else game.benches[seat]
        assert bench is not None and bench[CARDS[card_id].slot] is None
        bench[CARDS[card_id].slot] = card_id


@pytest.fixture
def bb_bench() -> Callable[..., None]:
    return bb_put_on_bench


def play_bb(game: Game, *moves: tuple[str, dict]) -> list[dict]:
    """Apply (seat, action) moves in order and return all their events."""
    events: list[dict] = []
    for seat, action in moves:
        events += game.apply(seat, action)
    return events


@pytest.fixture
def bb_play() -> Callable[..., list[dict]]:
    return play_bb


FULL_BOT = ("camera", "if_then_board", "drive_wheels", "battery_pack", "rescue_rover")
