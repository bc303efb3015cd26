"""Playing Three Laws turns in a browser."""

from __future__ import annotations

from tests.games.conftest import (
    submit,
)


def play_turns(game, until: str) -> None:
    """The seat whose turn it is asks the next seat (Questions) or keeps its keys (Transfer),
    until the table reaches `until` ("transfer": questions asked; "reveal-ready": transfers
    taken)."""
    from games.engines.three_laws import Game

    while True:
        game.refresh_from_db()
        state = Game.from_dict(game.state)
        seat = state.current_seat
        if seat is None or (until == "transfer" and state.phase == "transfer"):
            return
        if state.phase == "query":
            target = state.order[(state.order.index(seat) + 1) % len(state.order)]
            submit(game, seat, {"type": "query", "target": target})
        else:
            submit(game, seat, {"type": "keep"})
