"""Play many games with robot or random players and summarise them. Pure: no Django.

`simulate(module, games=..., seats=..., players=..., seed=...)` works with any engine module that
follows docs/engines.md (`new_game`, `Game.legal_actions/apply/is_over/results`,
`suggest`, and `FACILITATOR` where a facilitator moves the game on). What only one game knows
(Bot-Builders: turns, Full Bot and BOT! rates) comes from a small per-game stats hook in
`STATS_HOOKS`, keyed by the module's short name.

Everything is drawn from `seed`: the same call gives the same numbers (except games per second).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

PLAYER_KINDS = ("robot", "random")
MAX_MOVES = 50_000

Player = Callable[[Any, str, random.Random], dict]
StatsHook = Callable[[Any], dict[str, float]]


def _robot(module: ModuleType) -> Player:
    return lambda game, seat, rng: module.suggest(game, seat)


def _random(module: ModuleType) -> Player:
    return lambda game, seat, rng: rng.choice(game.legal_actions(seat))


def _facilitator(game: Any, seat: str, rng: random.Random) -> dict:
    # The facilitator is never a robot seat: it only moves the game on, the same way every time.
    actions = game.legal_actions(seat)
    return next((a for a in actions if a.get("type") == "advance"), actions[0])


def bot_builders_stats(game: Any) -> dict[str, float]:
    results = game.results()
    stats = {
        "turns": float(game.turn),
        "full_bot": sum(r["full_bot"] for r in results) / len(results),
        "bot_called": float(game.bot_called_by is not None),
        "winner_full_bot": float(results[0]["full_bot"]),
    }
    if game.solo:
        stats["solo_won"] = float(results[0]["won"])
    return stats


STATS_HOOKS: dict[str, StatsHook] = {"bot_builders": bot_builders_stats}
STAT_LABELS = {
    "turns": "turns per game",
    "full_bot": "Full Bot rate (per seat)",
    "bot_called": "BOT! called (per game)",
    "winner_full_bot": "winner has a Full Bot",
    "solo_won": "solo won (10+)",
}
RATE_STATS = {"full_bot", "bot_called", "winner_full_bot", "solo_won"}


@dataclass
class Summary:
    """What `simulate` measured. `seat_wins[i]` counts the games seat i finished in 1st place."""

    game: str
    games: int
    seats: int
    players: tuple[str, ...]
    seed: Any
    seconds: float
    moves: list[int] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    winning_scores: list[float] = field(default_factory=list)
    seat_wins: list[int] = field(default_factory=list)
    stats: dict[str, list[float]] = field(default_factory=dict)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else float("inf")

    def win_rate(self, seat_index: int) -> float:
        return self.seat_wins[seat_index] / self.games

    def mean_sd(self, values: Sequence[float]) -> tuple[float, float]:
        if not values:
            return (0.0, 0.0)
        sd = statistics.pstdev(values) if len(values) > 1 else 0.0
        return (statistics.fmean(values), sd)


def _players(module: ModuleType, players: str | Sequence[str], seats: int) -> tuple[str, ...]:
    kinds = (players,) * seats if isinstance(players, str) else tuple(players)
    if len(kinds) != seats or any(kind not in PLAYER_KINDS for kind in kinds):
        raise ValueError(f"players must be one of {PLAYER_KINDS} or a list of them, one per seat")
    if "robot" in kinds and not hasattr(module, "suggest"):
        raise ValueError(f"{module.__name__} has no robot player (suggest)")
    return kinds


def play_one(
    module: ModuleType,
    seat_names: list[str],
    players: Mapping[str, Player],
    game_seed: int,
    options: Mapping[str, Any],
) -> tuple[Any, int]:
    """Play one game to its end; return it and the number of moves applied."""
    game = module.new_game(seat_names, seed=game_seed, **options)
    rng = random.Random(game_seed ^ 0x5EED)
    facilitator = getattr(module, "FACILITATOR", None)
    for moves in range(MAX_MOVES):
        if game.is_over:
            return game, moves
        seat = game.current_seat
        if seat is None:
            if facilitator is None:
                raise RuntimeError("Nobody can move but the game is not over.")
            seat, player = facilitator, _facilitator
        else:
            player = players[seat]
        game.apply(seat, player(game, seat, rng))
    raise RuntimeError(f"A game took more than {MAX_MOVES} moves: is it stuck?")


def simulate(
    module: ModuleType,
    *,
    games: int = 100,
    seats: int = 4,
    players: str | Sequence[str] = "robot",
    seed: Any = 0,
    options: Mapping[str, Any] | None = None,
) -> Summary:
    """Play `games` games with `seats` seats; `players` is "robot", "random" or one per seat."""
    if games < 1:
        raise ValueError("games must be at least 1")
    kinds = _players(module, players, seats)
    names = [f"seat{i + 1}" for i in range(seats)]
    makers = {"robot": _robot(module), "random": _random(module)}
    by_seat = {name: makers[kind] for name, kind in zip(names, kinds, strict=True)}
    short_name = module.__name__.rsplit(".", 1)[-1]
    hook = STATS_HOOKS.get(short_name)
    summary = Summary(short_name, games, seats, kinds, seed, 0.0, seat_wins=[0] * seats)
    seeds = random.Random(seed)
    started = time.perf_counter()
    for _ in range(games):
        game, moves = play_one(module, names, by_seat, seeds.randrange(2**31), options or {})
        results = game.results()
        summary.moves.append(moves)
        summary.scores += [r["score"] for r in results]
        summary.winning_scores.append(results[0]["score"])
        for r in results:
            if r["place"] == 1:
                summary.seat_wins[names.index(r["seat"])] += 1
        for key, value in (hook(game) if hook else {}).items():
            summary.stats.setdefault(key, []).append(value)
    summary.seconds = time.perf_counter() - started
    return summary


def format_table(summary: Summary) -> str:
    """A plain-text table of the summary, for the terminal and the docs."""
    rows: list[tuple[str, str, str]] = []

    def add(label: str, values: Sequence[float], rate: bool = False) -> None:
        mean, sd = summary.mean_sd(values)
        if rate:
            rows.append((label, f"{mean:.1%}", ""))
        else:
            rows.append((label, f"{mean:.2f}", f"{sd:.2f}"))

    for key, values in summary.stats.items():
        add(STAT_LABELS.get(key, key), values, key in RATE_STATS)
    add("moves per game", summary.moves)
    add("score (every seat)", summary.scores)
    add("winning score", summary.winning_scores)
    for i, kind in enumerate(summary.players):
        if summary.seats > 1 and (i == 0 or kind != summary.players[0]):
            rows.append((f"1st place, seat{i + 1} ({kind})", f"{summary.win_rate(i):.1%}", ""))
    rows.append(("games per second", f"{summary.games_per_second:.0f}", ""))
    head = (
        f"{summary.game}: {summary.games} games, {summary.seats} seat(s), "
        f"players {'/'.join(summary.players)}, seed {summary.seed}"
    )
    width = max(len(r[0]) for r in rows)
    lines = [head, f"{'measure':<{width}}  {'mean':>8}  {'sd':>7}"]
    lines += [f"{label:<{width}}  {mean:>8}  {sd:>7}" for label, mean, sd in rows]
    return "\n".join(lines)


def robot_win_rate(
    module: ModuleType, *, games: int = 200, seats: int = 4, seed: Any = 0
) -> Summary:
    """One robot (seat 1) against random players; its 1st-place rate is `win_rate(0)`."""
    return simulate(
        module, games=games, seats=seats, players=["robot"] + ["random"] * (seats - 1), seed=seed
    )
