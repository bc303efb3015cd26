"""3 Laws engine speed: whole 6-seat robot games per second, and microseconds per apply + to_dict.

Run: .venv/bin/python benchmarks/bench_three_laws.py  (takes a few seconds)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

# A plain script: make the repository importable without installing it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines import three_laws as tl  # noqa: E402

SEATS = ["red", "blue", "green", "yellow", "purple", "orange"]
F = tl.FACILITATOR
BUDGET_S = 4.0


def play(seed: int, save: bool = False) -> tuple[int, float]:
    """One robot game; returns (moves, seconds spent in apply + to_dict when `save`)."""
    game = tl.new_game(SEATS, seed=seed)
    moves, spent = 0, 0.0
    while not game.is_over:
        seat = game.current_seat
        if seat is None:
            seat, action = F, {"type": "advance"}
        else:
            action = tl.suggest(game, seat)
        if save:
            start = time.perf_counter()
            game.apply(seat, action)
            game.to_dict()
            spent += time.perf_counter() - start
        else:
            game.apply(seat, action)
        moves += 1
    return moves, spent


def main() -> None:
    start, games = time.perf_counter(), 0
    while time.perf_counter() - start < BUDGET_S:
        play(games)
        games += 1
    rate = games / (time.perf_counter() - start)
    print(f"6-seat robot games (robot + engine): {rate:,.0f} games/s over {games} games")

    moves, spent, seed = 0, 0.0, 0
    while spent < BUDGET_S / 2:
        m, s = play(10_000 + seed, save=True)
        moves, spent, seed = moves + m, spent + s, seed + 1
    print(f"apply + to_dict: {spent / moves * 1e6:,.1f} us per move over {moves} moves")


if __name__ == "__main__":
    main()
