"""Builders for 3 Laws tests: fixed deals, and short ways through the phases."""

from __future__ import annotations

from typing import Any

from games.engines import three_laws as tl

F = tl.FACILITATOR
SEATS = ["ann", "ben", "cat", "dan"]
SEATS6 = ["ann", "ben", "cat", "dan", "eve", "fay"]
LAW_ORDER = [f"law_{i:02d}" for i in range(1, 13)]

# 4 seats, androids + cyborgs: ann leads the androids, cat the cyborgs.
DEAL_4 = {
    "ann": ["androids", 4],
    "ben": ["androids", 2],
    "cat": ["cyborgs", 3],
    "dan": ["cyborgs", 1],
}
DEAL_6 = {
    "ann": ["androids", 4],
    "ben": ["androids", 2],
    "cat": ["cyborgs", 3],
    "dan": ["cyborgs", 1],
    "eve": ["drones", 2],
    "fay": ["androids", 1],
}


def game4(rounds: int = 4, **options: Any) -> tl.Game:
    """A 4-seat game with the same known deal every round; ann starts."""
    kwargs: dict[str, Any] = {
        "seed": 1,
        "start_seat": "ann",
        "factions": ["androids", "cyborgs"],
        "deals": [dict(DEAL_4) for _ in range(rounds)],
        "law_order": LAW_ORDER,
        "vp_deck": [1, 2, 3] * 20,
    }
    if rounds == 3:
        kwargs["skip_first_round"] = True
    kwargs.update(options)
    return tl.new_game(SEATS, **kwargs)


def game6(**options: Any) -> tl.Game:
    kwargs: dict[str, Any] = {
        "seed": 2,
        "start_seat": "ann",
        "deals": [dict(DEAL_6) for _ in range(4)],
        "law_order": LAW_ORDER,
        "vp_deck": [1, 2, 3] * 20,
    }
    kwargs.update(options)
    return tl.new_game(SEATS6, **kwargs)


def advance(game: tl.Game, times: int = 1) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for _ in range(times):
        events += game.apply(F, {"type": "advance"})
    return events


def to_query(game: tl.Game) -> tl.Game:
    """From setup to the first query."""
    advance(game, 2)
    assert game.phase == "query"
    return game


def ask_all(game: tl.Game) -> tl.Game:
    """Everyone asks the next seat in order, moving the game to transfer."""
    while game.phase == "query":
        seat = game.current_seat
        order = game.order
        target = order[(order.index(seat) + 1) % len(order)]
        game.apply(seat, {"type": "query", "target": target, "question": "Am I a leader?"})
    return game


def to_transfer(game: tl.Game) -> tl.Game:
    to_query(game)
    return ask_all(game)


def transfer_all(game: tl.Game, gives: dict[str, str] | None = None, reject=()) -> tl.Game:
    """Each seat in turn gives to `gives[seat]` (receiver accepts unless in `reject`) or keeps."""
    gives = gives or {}
    while game.phase == "transfer" and game.current_seat is not None:
        seat = game.current_seat
        if seat in gives and game.keys[seat] > 0:
            to = gives[seat]
            game.apply(seat, {"type": "give", "to": to})
            game.apply(to, {"type": "reject" if seat in reject else "accept"})
        else:
            game.apply(seat, {"type": "keep"})
    return game


def play_round(game: tl.Game, gives: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Setup to Reveal with the given transfers; returns the Reveal events."""
    to_transfer(game)
    transfer_all(game, gives)
    return advance(game)


def error(game: tl.Game, caller: str, offender: str, law: str = "law_01") -> dict[str, Any]:
    (event,) = game.apply(caller, {"type": "error", "offender": offender, "law": law})
    return event


def to_round2_query(game: tl.Game) -> tl.Game:
    """Play round 1 quietly and stop at round 2's first query (one law in force)."""
    play_round(game)
    advance(game)
    return to_query(game)


def token_total(game: tl.Game) -> int:
    return game.supply + sum(game.tokens.values())
