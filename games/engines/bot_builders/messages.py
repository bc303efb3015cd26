"""Why an action is not allowed, in words a 10-year-old understands.

`Game.apply` only calls this after the action failed the `legal_actions` check, so these
functions explain a refusal; they never decide one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARDS, HAND_LIMIT

if TYPE_CHECKING:
    from .game import Game

ACTION_TYPES = ("draw", "install", "glitch", "discard", "bot", "pass")


def explain(game: Game, seat: Any, action: Any) -> str:
    """The plain-words reason `seat` may not take `action` now."""
    if not isinstance(seat, str) or seat not in game.seats:
        return f"There is no seat called {seat!r} at this table."
    if game.is_over:
        return "The game is over: no more moves."
    if seat != game.current_seat:
        return f"It is {game.current_seat}'s turn, not yours."
    if not isinstance(action, dict) or action.get("type") not in ACTION_TYPES:
        return "That is not a move in Bot-Builders."
    kind = action["type"]
    phase = game.phase
    if phase == "draw":
        return _explain_draw(game, action) if kind == "draw" else "Draw a card first."
    if phase == "bot":
        return "Your bot is a Full Bot: choose to shout BOT! or to pass."
    if phase == "discard_down":
        if kind != "discard":
            return f"You have too many cards: discard down to {HAND_LIMIT} first."
        return _explain_card(game, seat, action) or "Pick a card from your hand to discard."
    # phase == "act"
    if kind == "draw":
        return "You already drew a card this turn."
    if kind in ("bot", "pass"):
        return "You can only shout BOT! at the end of your turn, with a Full Bot."
    problem = _explain_card(game, seat, action)
    if problem:
        return problem
    card = CARDS[action["card"]]
    if kind == "install" and card.is_glitch:
        return "You can't install a Glitch on your own bench."
    if kind == "glitch":
        return _explain_glitch(game, seat, action, card.is_glitch)
    return "You can't do that now."


def _explain_draw(game: Game, action: dict) -> str:
    source = action.get("source")
    if source == "deck":
        return "The draw pile is empty."
    if source == "discard":
        return "The discard pile is empty."
    if source == "none":
        return "You can still draw a card: take one from the draw pile."
    return "Draw from the draw pile ('deck') or the discard pile ('discard')."


def _explain_card(game: Game, seat: str, action: dict) -> str:
    card_id = action.get("card")
    if not isinstance(card_id, str) or card_id not in CARDS:
        return f"There is no card called {card_id!r}."
    if card_id not in game.hands[seat]:
        return f"The {CARDS[card_id].name} card is not in your hand."
    return ""


def _explain_glitch(game: Game, seat: str, action: dict, is_glitch: bool) -> str:
    if not is_glitch:
        return "Only a Glitch card can be played on another bench."
    if game.bot_called_by is not None:
        return "After BOT! nobody may play a Glitch: install or discard only."
    target = action.get("target")
    if target == seat:
        return "You can't Glitch yourself: pick an opponent."
    return f"There is no opponent called {target!r} to Glitch."
