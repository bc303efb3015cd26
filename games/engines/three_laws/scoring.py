"""Round scoring at Reveal, and the final standings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .components import EMPTY_DECK_AWARD

if TYPE_CHECKING:
    from .game import Game


def scoring_factions(cards: dict[str, list[Any]], keys: dict[str, int]) -> list[str]:
    """Factions whose leader (highest rank present) is the only member holding keys."""
    leaders: dict[str, str] = {}
    for seat, (faction, rank) in cards.items():
        if faction not in leaders or rank > cards[leaders[faction]][1]:
            leaders[faction] = seat
    scored = []
    for faction, leader in leaders.items():
        others_hold = any(
            keys[seat] > 0 for seat, card in cards.items() if card[0] == faction and seat != leader
        )
        if keys[leader] > 0 and not others_hold:
            scored.append(faction)
    return sorted(scored)


def draw(game: Game) -> int:
    # Once the deck runs out each award is still worth a point (spec Decision).
    return game.vp_deck.pop(0) if game.vp_deck else EMPTY_DECK_AWARD


def score_round(game: Game) -> list[dict[str, Any]]:
    """Award this round's Victory Point cards and return the tokens to the supply.

    Seats draw in seat order from the start player; a seat drawing several cards (its faction's
    award, then one per token) draws them all before the next seat draws.
    """
    cards = game.cards
    scored = scoring_factions(cards, game.keys)
    draws: dict[str, int] = {}
    for seat in game.order:
        count = (1 if cards[seat][0] in scored else 0) + game.tokens[seat]
        draws[seat] = count
        game.vp[seat].extend(draw(game) for _ in range(count))
    tokens = dict(game.tokens)
    game.tokens = dict.fromkeys(game.seats, 0)
    game.supply = game.token_total
    game.scored = scored
    game.scored_round = game.round
    # No VP values here: events may be shown to everyone, values stay secret until the end.
    return [
        {
            "type": "reveal",
            "round": game.round,
            "cards": {seat: list(card) for seat, card in cards.items()},
            "keys": dict(game.keys),
        },
        {
            "type": "score",
            "round": game.round,
            "scored": list(scored),
            "tokens": tokens,
            "draws": draws,
        },
    ]


def totals(game: Game) -> dict[str, int]:
    return {seat: sum(values) for seat, values in game.vp.items()}


def results(game: Game) -> list[dict[str, Any]]:
    """Best first; ties go to the seat closest to the start player, so places are never shared."""
    total = totals(game)
    ranked = sorted(game.order, key=lambda seat: (-total[seat], game.order.index(seat)))
    return [
        {
            "seat": seat,
            "place": place,
            "score": total[seat],
            "vp": total[seat],
            "vp_cards": list(game.vp[seat]),
            "cards_drawn": len(game.vp[seat]),
        }
        for place, seat in enumerate(ranked, start=1)
    ]
