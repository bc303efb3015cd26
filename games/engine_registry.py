"""Which engine plays which game: one entry per `classroom.models.GameKind`, and one per game
that can be played with printed cards (`TableMode.TABLETOP`).

The live-play machinery (services, poll, views) and the reports only talk to engines through an
`Engine` from here (`engine_for(table_game)`), so a new game plugs in by adding an entry and its
templates under `templates/games/<kind>/`; nothing else in the machinery names a game, and
nothing outside the engines reads the inside of a saved state. See docs/engines.md.
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
from games.engines.bot_builders import tabletop as bot_builders_tabletop
from games.engines.i18n import N_, Reason
from games.models import TableMode


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
    - `benches`: every seat's bench `{seat: {slot: card id or None}}` of a loaded game, from
      its public view (Bot-Builders; None for a game without benches). Teach-backs and
      reports read final benches only through `final_benches`.
    - `template_prefix`: how this engine's partials start in `template_dir` (`_device.html`,
      or `_tabletop_device.html` for a table played with printed cards).
    - `any_time_actions`: action types that are not a turn (3 Laws: an Error call and its
      counter, legal whenever the laws are in force). They are judged on the table as it is
      now, not on the version the screen was drawn from: otherwise every other team's move
      would wipe out a half-picked call. The client move id still makes a double tap count once.
    """

    kind: str
    module: ModuleType
    options_for: Callable[[str, bool, list[str], dict[str, str]], dict]
    display: ModuleType
    facilitator: str | None = None
    results_now: Callable[[Any], list[dict]] | None = None
    any_time_actions: frozenset[str] = frozenset()
    benches: Callable[[Any], dict[str, dict]] | None = None
    template_prefix: str = "_"

    def new_game(self, seats: list[str], seed: int, options: dict) -> Any:
        return self.module.new_game(seats, seed=seed, **options)

    def load(self, state: dict) -> Any:
        return self.module.Game.from_dict(state)

    def suggest(self, game: Any, seat: str) -> dict:
        return self.module.suggest(game, seat)

    @property
    def template_dir(self) -> str:
        return f"games/{self.kind}"

    def template(self, name: str) -> str:
        """One of this engine's partials: `device`, `public`, `compact`, `facilitator`."""
        return f"{self.template_dir}/{self.template_prefix}{name}.html"


def _bot_builders_results_now(game: bot_builders.Game) -> list[dict]:
    # From the public view only (benches are public), so ending early reveals nothing.
    public = game.view(None)
    seats = public["seats"]
    scores = {seat: bot_builders.score_bench(public["benches"].get(seat) or {}) for seat in seats}
    months = {seat: month for seat, month in (game.birth_months or {}).items() if month}
    return bot_builders.standings(seats, scores, months, solo=public["solo"])


def _bot_builders_options(
    variant: str, skip_first_round: bool, seats: list[str], birth_months: dict[str, str]
) -> dict:
    options: dict[str, Any] = {}
    if variant == Variant.SOLO:
        options["solo"] = True
    if variant == Variant.TWO_PLAYER and len(seats) != 2:
        raise ValueError(
            Reason(
                N_("The 2-player variant needs exactly 2 teams, not %(count)s."), count=len(seats)
            )
        )
    if birth_months:
        options["birth_months"] = dict(birth_months)
    return options


def _three_laws_options(
    variant: str, skip_first_round: bool, seats: list[str], birth_months: dict[str, str]
) -> dict:
    return {"skip_first_round": True} if skip_first_round else {}


def _public_benches(game: Any) -> dict[str, dict]:
    return game.view(None)["benches"]


ENGINES: dict[str, Engine] = {
    GameKind.BOT_BUILDERS: Engine(
        kind=GameKind.BOT_BUILDERS.value,
        module=bot_builders,
        options_for=_bot_builders_options,
        display=bot_builders_display,
        results_now=_bot_builders_results_now,
        benches=_public_benches,
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


# Games that can be played with printed cards: the engine records what the teams built.
TABLETOP_ENGINES: dict[str, Engine] = {
    GameKind.BOT_BUILDERS: Engine(
        kind=GameKind.BOT_BUILDERS.value,
        module=bot_builders_tabletop,
        options_for=_bot_builders_options,
        display=bot_builders_display,
        results_now=bot_builders_tabletop.TabletopGame.results,
        benches=_public_benches,
        template_prefix="_tabletop_",
    ),
}


def get_engine(kind: str, mode: str = TableMode.LIVE) -> Engine:
    engines = TABLETOP_ENGINES if mode == TableMode.TABLETOP else ENGINES
    try:
        return engines[kind]
    except KeyError:
        raise LookupError(f"No engine for the game {kind!r} played {mode}.") from None


def engine_for(game: Any) -> Engine:
    """The engine of a `TableGame` row (its game and how it is played)."""
    return get_engine(game.kind, game.mode)


def final_benches(game: Any) -> dict[str, dict]:
    """Every seat's bench on a `TableGame` as it stands (final once the game is over), from the
    public view; {} for a game without benches or not dealt."""
    engine = engine_for(game)
    if engine.benches is None or not game.state:
        return {}
    return engine.benches(engine.load(game.state))
