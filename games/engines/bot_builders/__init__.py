"""Bot-Builders: the pure rules engine (no Django). See docs/engines.md for the contract.

Modules: `cards` (the 48 cards, defined once), `scoring` (score a bench, rank seats), `game` (the
state machine; its docstring lists the event types), `setup` (new_game, from_dict), `messages`
(plain-words refusals, as `Reason`s the site can translate), `robot` (the robot player).
"""

from .cards import (
    CARDS,
    CATEGORY,
    CATEGORY_NAMES,
    DECK_IDS,
    KINDS,
    PHASE_NAMES,
    SLOTS,
    Card,
    cards_of_kind,
)
from .game import DUMMY, Game
from .robot import suggest
from .scoring import MAX_SCORE, SOLO_WIN_SCORE, BenchScore, rank, score_bench, standings
from .setup import new_game

__all__ = [
    "CARDS",
    "CATEGORY",
    "CATEGORY_NAMES",
    "DECK_IDS",
    "DUMMY",
    "KINDS",
    "MAX_SCORE",
    "PHASE_NAMES",
    "SLOTS",
    "SOLO_WIN_SCORE",
    "BenchScore",
    "Card",
    "Game",
    "cards_of_kind",
    "new_game",
    "rank",
    "score_bench",
    "standings",
    "suggest",
]
