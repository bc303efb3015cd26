"""What one seat (or the projector) may see. Secrets are removed here, once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .components import FACILITATOR, LAWS

if TYPE_CHECKING:
    from .game import Game

# Token moves stay out: the "tokens" counts already show where tokens are.
PUBLIC_CALL_FIELDS = (
    "call",
    "kind",
    "round",
    "caller",
    "offender",
    "law",
    "status",
    "counters",
    "countered_by",
)


def visible_cards(game: Game, viewer: str | None) -> dict[str, list[Any]]:
    """Cards `viewer` may see: none in setup; from Wake Up every other seat's; all from Reveal.

    The projector (and the facilitator's screen, which may be on it) sees none before Reveal.
    """
    if game.phase in ("reveal", "over"):
        return {seat: list(card) for seat, card in game.cards.items()}
    if game.phase == "setup" or viewer is None:
        return {}
    return {seat: list(card) for seat, card in game.cards.items() if seat != viewer}


def build_view(game: Game, viewer: str | None) -> dict[str, Any]:
    if viewer == FACILITATOR:
        viewer = None
    over = game.is_over
    vp_counts = {seat: len(values) for seat, values in game.vp.items()}
    view: dict[str, Any] = {
        "seats": list(game.seats),
        "start_seat": game.start_seat,
        "order": list(game.order),
        "factions": list(game.factions),
        "round": game.round,
        "rounds": list(game.rounds),
        "phase": game.phase,
        "laws": [{"id": law, "text": LAWS[law]} for law in game.laws_in_force],
        "laws_enforced": game.enforcing,
        "cards": visible_cards(game, viewer),
        "keys": dict(game.keys),
        "tokens": dict(game.tokens),
        "supply": game.supply,
        "vp_counts": vp_counts,
        "vp": list(game.vp[viewer]) if viewer is not None else [],
        "vp_deck_left": len(game.vp_deck),
        "current_seat": game.current_seat,
        "pending_offer": dict(game.pending) if game.pending else None,
        "queries": [dict(q) for q in game.queries],
        "transfers": [dict(t) for t in game.transfers],
        "calls": [{k: call[k] for k in PUBLIC_CALL_FIELDS} for call in game.calls],
        "scored": list(game.scored),
        "scored_round": game.scored_round,
        "final": None,
        "vp_cards": None,
    }
    if over:
        view["final"] = {seat: sum(values) for seat, values in game.vp.items()}
        view["vp_cards"] = {seat: list(values) for seat, values in game.vp.items()}
    return view
