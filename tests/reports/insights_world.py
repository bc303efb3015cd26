"""Builders for the insights tests: sentences as the analysis reads them, and 3 Laws games
played by the real engine with scripted Error calls (right, countered, voided)."""

from __future__ import annotations

from collections.abc import Callable

from games.engines import three_laws
from games.engines.three_laws import FACILITATOR
from reports.insights.sentences import Sentence

BENCH = {
    "sense": "camera",
    "think": "loop_chip",
    "act": "drive_wheels",
    "power": "battery_pack",
    "mission": "rescue_rover",
}


def sentence(
    number: int,
    *,
    senses: str = "camera",
    thinks: str = "loop chip",
    acts: str = "drive wheels",
    powered: str = "battery pack",
    because: str = "it needs them to find people after a storm",
    language: str = "en",
    bench: dict | None = None,
    session_id: int = 1,
) -> Sentence:
    return Sentence(
        id=number,
        team=f"Team {number}",
        session_id=session_id,
        session_label="Oct 1",
        fields={
            "senses_with": senses,
            "thinks_with": thinks,
            "acts_with": acts,
            "powered_by": powered,
            "because": because,
        },
        mission="rescue_rover",
        language=language,
        bench=BENCH if bench is None else bench,
    )


Script = Callable[[three_laws.Game, str], list[tuple[str, dict]]]


def play_three_laws(seats: list[str], seed: int, script: Script) -> three_laws.Game:
    """A game skipping round 1, so round 2's one law is in force from its Wake Up: `script`
    gets the game and that law and returns the (seat, action) calls to make then; robots and
    the facilitator play the rest to the end."""
    game = three_laws.new_game(seats, seed=seed, skip_first_round=True)
    game.apply(FACILITATOR, {"type": "advance"})
    for seat, action in script(game, game.laws_in_force[0]):
        game.apply(seat, action)
    while not game.is_over:
        seat = game.current_seat
        if seat is None:
            game.apply(FACILITATOR, {"type": "advance"})
        else:
            game.apply(seat, three_laws.suggest(game, seat))
    return game
