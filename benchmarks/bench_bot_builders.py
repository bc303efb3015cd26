"""Bot-Builders engine speed on one core. Run: .venv/bin/python benchmarks/bench_bot_builders.py

Measures complete 4-seat games per second (random players, robot players) and the cost of one
`apply` + `to_dict`, the work the site does for every move. Takes about 10-20 seconds.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines import bot_builders  # noqa: E402

SEATS = ["red", "blue", "green", "yellow"]


def play(seed: int, robot: bool) -> list[tuple[str, dict]]:
    game = bot_builders.new_game(SEATS, seed=seed)
    rng = random.Random(seed)
    log = []
    while not game.is_over:
        seat = game.current_seat
        action = bot_builders.suggest(game, seat) if robot else rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        log.append((seat, action))
    return log


def games_per_second(robot: bool, seconds: float = 4.0) -> float:
    played, seed = 0, 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        play(seed, robot)
        played, seed = played + 1, seed + 1
    return played / (time.perf_counter() - started)


def apply_and_to_dict_us(games: int = 300) -> tuple[float, float, int]:
    """Replay recorded games, timing only apply + to_dict; returns (mean µs, apply-only µs, n)."""
    logs = [(seed, play(seed, robot=False)) for seed in range(games)]
    both = apply_only = 0.0
    moves = 0
    for seed, log in logs:
        game = bot_builders.new_game(SEATS, seed=seed)
        twin = bot_builders.new_game(SEATS, seed=seed)
        for seat, action in log:
            t0 = time.perf_counter()
            twin.apply(seat, action)
            t1 = time.perf_counter()
            game.apply(seat, action)
            game.to_dict()
            t2 = time.perf_counter()
            apply_only += t1 - t0
            both += t2 - t1
            moves += 1
    return both / moves * 1e6, apply_only / moves * 1e6, moves


def main() -> None:
    random_rate = games_per_second(robot=False)
    robot_rate = games_per_second(robot=True)
    both_us, apply_us, moves = apply_and_to_dict_us()
    rows = [
        ("4-seat games/s, random players", f"{random_rate:,.0f}"),
        ("4-seat games/s, robot players", f"{robot_rate:,.0f}"),
        ("µs per apply (alone)", f"{apply_us:.1f}"),
        (f"µs per apply + to_dict ({moves:,} moves)", f"{both_us:.1f}"),
    ]
    width = max(len(label) for label, _ in rows)
    print(f"Bot-Builders engine, one core, Python {sys.version.split()[0]}")
    for label, value in rows:
        print(f"{label:<{width}}  {value:>8}")


if __name__ == "__main__":
    main()
