"""The fixed parts of 3 Laws of Robotics: laws, factions, decks and round sizes.

Ids here are a contract (see docs/rules-three-laws.md): never rename one.
"""

from __future__ import annotations

import random

from games.engines.i18n import N_

FACTIONS: tuple[str, ...] = ("androids", "cyborgs", "drones")
# The seat name for the facilitator (the teacher): advances phases and referees calls.
FACILITATOR = "facilitator"
# One member, with its article, for questions such as "Am I an Android like you are?".
A_MEMBER: dict[str, str] = {
    "androids": N_("an Android"),
    "cyborgs": N_("a Cyborg"),
    "drones": N_("a Drone"),
}
# A faction's name as people read it (the ids above never change).
FACTION_NAMES: dict[str, str] = {
    "androids": N_("Androids"),
    "cyborgs": N_("Cyborgs"),
    "drones": N_("Drones"),
}

LAWS: dict[str, str] = {
    "law_01": N_('Robots do not say "I". Call yourself "this unit".'),
    "law_02": N_('Say "beep" before you speak.'),
    "law_03": N_("Do not point at anyone."),
    "law_04": N_("Do not say anyone's name. Use their seat number."),
    "law_05": N_('Say "affirmative" and "negative", never "yes" and "no".'),
    "law_06": N_("Keep both hands on the table unless you are holding your card up."),
    "law_07": N_("Answer every question with a whole sentence."),
    "law_08": N_("No laughing."),
    "law_09": N_("Speak in a robot voice."),
    "law_10": N_("Stand up when someone asks you a question."),
    "law_11": N_('Say "data received" after you hear an answer to your question.'),
    "law_12": N_("Do not touch your face."),
}

MIN_SEATS = 4
MAX_SEATS = 8
ALL_ROUNDS: tuple[int, ...] = (1, 2, 3, 4)
SKIP_FIRST_ROUNDS: tuple[int, ...] = (2, 3, 4)

# Laws stay in force once revealed (spec Decision): 0, +1, +2, +3 new cards per round.
LAWS_IN_FORCE: dict[int, int] = {1: 0, 2: 1, 3: 3, 4: 6}
LAWS_NEEDED = LAWS_IN_FORCE[4]

# Victory Point deck (spec Decision): 24 ones, 20 twos, 16 threes.
VP_DECK_COUNTS: dict[int, int] = {1: 24, 2: 20, 3: 16}
VP_VALUES: frozenset[int] = frozenset(VP_DECK_COUNTS)
# Once the VP deck is empty each further award is worth this much.
EMPTY_DECK_AWARD = 1

QUESTION_MAX_CHARS = 280

# The rulebook's example questions; {seat} and {a_faction} are filled in by the robot.
EXAMPLE_QUESTIONS: tuple[str, ...] = (
    N_("Am I the highest rank you see?"),
    N_("Am I in the same faction as {seat}?"),
    N_("Am I {a_faction} like you are?"),
    N_("Do you think we're members of the same faction?"),
    N_("Is my rank either 3 or 4?"),
    N_("Am I the same rank as {seat}?"),
    N_("How many robots do you see?"),
)


def faction_count(seat_count: int) -> int:
    """How many factions are in play: any 2 at 4 players, all 3 from 5 up."""
    return 2 if seat_count == MIN_SEATS else len(FACTIONS)


def max_rank(seat_count: int) -> int:
    """Highest rank in the faction deck: 4 up to 6 players, 5 for 7-8."""
    return 4 if seat_count <= 6 else 5


def faction_deck(factions: list[str], top_rank: int) -> list[list[object]]:
    """Every faction card for this table, in a fixed order (shuffle a copy to deal)."""
    return [[faction, rank] for faction in factions for rank in range(1, top_rank + 1)]


def vp_deck() -> list[int]:
    """The 60 Victory Point card values in a fixed order (shuffle a copy to use)."""
    return [value for value, count in VP_DECK_COUNTS.items() for _ in range(count)]


def law_ids() -> list[str]:
    return list(LAWS)


def rng_for(seed: object, purpose: str) -> random.Random:
    """A generator for one setup purpose.

    Each purpose gets its own stream so that fixing one option (say `law_order`) does not change
    what the seed deals for the others. String seeds hash with SHA-512, stable across runs.
    """
    return random.Random(f"three_laws:{seed}:{purpose}")
