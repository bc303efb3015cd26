"""Why an action is not allowed, in words a 10-year-old understands.

`Game.apply` only calls this after the action failed the `legal_actions` check, so these
functions explain a refusal; they never decide one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.engines.i18n import N_, Reason

from .cards import CARDS, HAND_LIMIT

if TYPE_CHECKING:
    from .game import Game

ACTION_TYPES = ("draw", "install", "glitch", "discard", "bot", "pass")


def explain(game: Game, seat: Any, action: Any) -> str:
    """The plain-words reason `seat` may not take `action` now."""
    if not isinstance(seat, str) or seat not in game.seats:
        return Reason(N_("There is no seat called %(seat)s at this table."), seat=repr(seat))
    if game.is_over:
        return Reason(N_("The game is over: no more moves."))
    if seat != game.current_seat:
        return Reason(N_("It is %(seat)s's turn, not yours."), seat=game.current_seat)
    if not isinstance(action, dict) or action.get("type") not in ACTION_TYPES:
        return Reason(N_("That is not a move in Bot-Builders."))
    kind = action["type"]
    phase = game.phase
    if phase == "draw":
        return _explain_draw(game, action) if kind == "draw" else Reason(N_("Draw a card first."))
    if phase == "bot":
        return Reason(N_("Your bot is a Full Bot: choose to shout BOT! or to pass."))
    if phase == "discard_down":
        if kind != "discard":
            return Reason(
                N_("You have too many cards: discard down to %(limit)s first."), limit=HAND_LIMIT
            )
        return _explain_card(game, seat, action) or Reason(
            N_("Pick a card from your hand to discard.")
        )
    # phase == "act"
    if kind == "draw":
        return Reason(N_("You already drew a card this turn."))
    if kind in ("bot", "pass"):
        return Reason(N_("You can only shout BOT! at the end of your turn, with a Full Bot."))
    problem = _explain_card(game, seat, action)
    if problem:
        return problem
    card = CARDS[action["card"]]
    if kind == "install" and card.is_glitch:
        return Reason(N_("You can't install a Glitch on your own bench."))
    if kind == "glitch":
        return _explain_glitch(game, seat, action, card.is_glitch)
    return Reason(N_("You can't do that now."))


def _explain_draw(game: Game, action: dict) -> str:
    source = action.get("source")
    if source == "deck":
        return Reason(N_("The draw pile is empty."))
    if source == "discard":
        return Reason(N_("The discard pile is empty."))
    if source == "none":
        return Reason(N_("You can still draw a card: take one from the draw pile."))
    return Reason(N_("Draw from the draw pile ('deck') or the discard pile ('discard')."))


def _explain_card(game: Game, seat: str, action: dict) -> str:
    card_id = action.get("card")
    if not isinstance(card_id, str) or card_id not in CARDS:
        return Reason(N_("There is no card called %(card)s."), card=repr(card_id))
    if card_id not in game.hands[seat]:
        return Reason(
            N_("The %(card)s card is not in your hand."), ("card",), card=CARDS[card_id].name
        )
    return ""


def _explain_glitch(game: Game, seat: str, action: dict, is_glitch: bool) -> str:
    if not is_glitch:
        return Reason(N_("Only a Glitch card can be played on another bench."))
    if game.bot_called_by is not None:
        return Reason(N_("After BOT! nobody may play a Glitch: install or discard only."))
    target = action.get("target")
    if target == seat:
        return Reason(N_("You can't Glitch yourself: pick an opponent."))
    return Reason(N_("There is no opponent called %(target)s to Glitch."), target=repr(target))
