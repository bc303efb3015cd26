"""3 Laws of Robotics: a hidden-role deduction game with laws, keys and Error calls.

Public interface (a contract, see docs/engines.md): `LAWS`, `FACTIONS`, `FACILITATOR`,
`new_game`, `Game`, `suggest`. Rules: docs/rules-three-laws.md.
"""

from .components import FACILITATOR, FACTIONS, LAWS
from .game import PHASES, Game
from .robot import suggest
from .setup import new_game

__all__ = ["FACILITATOR", "FACTIONS", "LAWS", "PHASES", "Game", "new_game", "suggest"]
