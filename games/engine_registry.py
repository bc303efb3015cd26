"""Which engine plays which game: one entry per `classroom.models.GameKind`.

The live-play machinery (services, poll, views) only talks to engines through an `Engine`
from here, so a new game plugs in by adding an entry and its templates under
`templates/games/<kind>/`; nothing else in the machinery names a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from classroom.models import GameKind, Variant
from games.display import bot_builders as bot_builders_display
from games.display import three_laws as three_laws_display
from games.engines import bot_builders, three_laws


@dataclass(frozen=True)
class Engine:
    """One game's engine module and the few game-specific hooks the machinery needs.

    - `options_for(variant, skip_first_round, seats, birth_months)`: the `new_game` keyword
      options for a session's variant (ValueError, in the teacher's words, when the seats do
      not fit it).
    - `display`: the module that turns views and events into page context (`device_context`,
      `public_context`, `results_rows`, `narrate_moves`); its templates live in
      `templates/games/<kind>/`.
    - `facilitator`: the seat name the teacher acts as (3 Laws), or None when the teacher
      never makes moves of their own.
    - `results_now`: standings for a game ended early by the teacher, computed from the
      public view; None when the game cannot be ended early.
    - `any_time_actions`: action types that are not a turn (3 Laws: an Error call and its
      counter, legal whenever the laws are in force). They are judged on the table as it is
      now, not on the version the screen was drawn from: otherwise every other team's move
      would wipe out a half-picked call. The client move id still makes a double tap count once.
    """

    kind: str
    module: ModuleType
    options_for: Callable[[str, bool, list[str], dict[str, str]], dict]
    display: ModuleType | None = None
    facilitator: str | None = None
    results_now: Callable[[Any], list[dict]] | None = None
    any_time_actions: frozenset[str] = frozenset()

    def new_game(self, seats: list[str], seed: int, options: dict) -> Any:
        return self.module.new_game(seats, seed=seed, **options)

    def load(self, state: dict) -> Any:
        return self.module.Game.from_dict(state)

    def suggest(self, game: Any, seat: str) -> dict:
        return self.module.suggest(game, seat)

    @property
    def template_dir(self) -> str:
        return f"games/{self.kind}"


def bot_builders_standings(
    seats: list[str],
    benches: dict[str, dict],
    birth_months: dict[str, str] | None = None,
    solo: bool = False,
) -> list[dict]:
    """Standings for benches as they stand, with the engine's own scoring and tie-breaks, in the
    shape of `Game.results()`. Used when a round is ended early and for tabletop games."""
    scores = {seat: bot_builders.score_bench(benches.get(seat) or {}) for seat in seats}
    months = {seat: month for seat, month in (birth_months or {}).items() if month}
    return bot_builders.standings(seats, scores, months, solo=solo)


def _bot_builders_results_now(game: bot_builders.Game) -> list[dict]:
    # From the public view only (benches are public), so ending early reveals nothing.
    public = game.view(None)
    return bot_builders_standings(
        public["seats"], public["benches"], game.birth_months, solo=public["solo"]
    )


def _bot_builders_options(
    variant: str, skip_first_round: bool, seats: list[str], birth_months: dict[str, str]
) -> dict:
    options: dict[str, Any] = {}
    if variant == Variant.SOLO:
        options["solo"] = True
    if variant == Variant.TWO_PLAYER and len(seats) != 2:
        raise ValueError(f"The 2-player variant needs exactly 2 teams, not {len(seats)}.")
    if birth_months:
        options["birth_months"] = dict(birth_months)
    return options


def _three_laws_options(
    variant: str, skip_first_round: bool, seats: list[str], birth_months: dict[str, str]
) -> dict:
    return {"skip_first_round": True} if skip_first_round else {}


ENGINES: dict[str, Engine] = {
    GameKind.BOT_BUILDERS: Engine(
        kind=GameKind.BOT_BUILDERS.value,
        module=bot_builders,
        options_for=_bot_builders_options,
        display=bot_builders_display,
        results_now=_bot_builders_results_now,
    ),
    GameKind.THREE_LAWS: Engine(
        kind=GameKind.THREE_LAWS.value,
        module=three_laws,
        options_for=_three_laws_options,
        display=three_laws_display,
        facilitator=three_laws.FACILITATOR,
        any_time_actions=frozenset({"error", "counter"}),
    ),
}


def get_engine(kind: str) -> Engine:
    try:
        return ENGINES[kind]
    except KeyError:
        raise LookupError(f"No engine for the game {kind!r}.") from None
