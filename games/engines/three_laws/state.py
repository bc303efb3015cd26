"""Saving a game: the list of state fields, copied to plain JSON-safe data."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from games.engines.i18n import N_, Reason

from .enforcement import copy_call

STATE_VERSION = 1


def snapshot(state: Any) -> dict[str, Any]:
    """A deep copy of the state fields of `state` (a Game, or a namespace over saved data).

    One function serves saving and loading, so the two cannot drift apart. Copies are built by
    hand rather than with `copy.deepcopy`: this runs after every move and must stay cheap.
    """
    return {
        "version": STATE_VERSION,
        "seats": list(state.seats),
        "seed": state.seed,
        "start_seat": state.start_seat,
        "factions": list(state.factions),
        "rounds": list(state.rounds),
        "deals": [{s: list(card) for s, card in deal.items()} for deal in state.deals],
        "law_order": list(state.law_order),
        "vp_deck": list(state.vp_deck),
        "round_index": state.round_index,
        "phase": state.phase,
        "turn": state.turn,
        "pending": dict(state.pending) if state.pending else None,
        "keys": dict(state.keys),
        "tokens": dict(state.tokens),
        "supply": state.supply,
        "vp": {s: list(v) for s, v in state.vp.items()},
        "queries": [dict(q) for q in state.queries],
        "transfers": [dict(t) for t in state.transfers],
        "calls": [copy_call(call) for call in state.calls],
        "next_call": state.next_call,
        "scored": list(state.scored),
        "scored_round": state.scored_round,
    }


def load(data: dict[str, Any]) -> dict[str, Any]:
    """Checked copy of saved data; raises ValueError when it is not a saved game."""
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
        raise ValueError(Reason(N_("This is not a saved 3 Laws game this version can read.")))
    try:
        return snapshot(SimpleNamespace(**data))
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(
            Reason(N_("The saved 3 Laws game is incomplete: %(problem)s"), problem=str(exc))
        ) from exc
