"""The tool's hints about a teach-back sentence: gentle flags for the teacher, never a grade.

Pure functions (no Django): they read the sentence's five fields and the Mission's card id.

Rules:
- a blank that is empty, or only one word (a one-word blank that is exactly a card's name, such as
  "Camera", is a full answer and is not flagged);
- a part blank that names a card of another category ("senses with Drive wheels"), by its full
  name or by a distinctive word of it ("wheels"), case-insensitively, plurals included; a Mission
  or Glitch named in a part blank counts too, by full name only (its words, like "battery" in
  "Dead battery", are ordinary words);
- a `because` that mentions neither the Mission (its name, or a word of its card text) nor any
  purpose ("so", "to", "help", "can"...).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from games.engines.bot_builders.cards import CARDS, CATEGORY, Card

# The four part blanks, the category each should name, and the words the sentence puts before it.
PART_BLANKS: dict[str, str] = {
    "senses_with": "sense",
    "thinks_with": "think",
    "acts_with": "act",
    "powered_by": "power",
}
BLANK_LABELS: dict[str, str] = {
    "senses_with": "senses with",
    "thinks_with": "thinks with",
    "acts_with": "acts with",
    "powered_by": "powered by",
    "because": "because",
}
CATEGORY_LABELS: dict[str, str] = {
    "sense": "a Sense part",
    "think": "a Think part",
    "act": "an Act part",
    "power": "a Power part",
    "mission": "a Mission",
    "glitch": "a Glitch",
}

# Words that say what something is for. Short, common ones are fine here: the hint only asks
# whether the team gave any reason at all, and a false "no reason" flag would be the worse error.
PURPOSE_WORDS = frozenset(
    {
        "so",
        "to",
        "for",
        "can",
        "could",
        "will",
        "help",
        "helps",
        "helped",
        "helping",
        "because",
        "need",
        "needs",
        "needed",
        "able",
        "lets",
        "allows",
        "useful",
        "job",
        "purpose",
        "mission",
        "order",
    }
)

# Words of card names too ordinary to mean the card when written alone ("acts with its hand").
_GENERIC_NAME_WORDS = frozenset({"if", "then", "robot", "hand", "line", "board", "pack"})
# Words of Mission texts that say nothing about that Mission in particular.
_STOP_WORDS = frozenset(
    {
        "a",
        "an",
        "the",
        "and",
        "or",
        "of",
        "on",
        "in",
        "it",
        "its",
        "to",
        "for",
        "with",
        "from",
        "after",
        "them",
        "they",
        "their",
        "any",
        "all",
        "every",
        "back",
        "way",
        "out",
        "far",
        "one",
        "no",
        "day",
        "years",
        "right",
        "across",
        "anything",
    }
)
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Hint:
    """One flag: which blank, a stable code for tests and styling, and the words shown."""

    field: str
    code: str
    message: str


def words(text: str) -> list[str]:
    """Lower-case words with a plural "s" removed, so "Wheels" and "wheel" compare equal."""
    return [_singular(word) for word in _WORD.findall(text.lower())]


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _contains_sequence(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return n > 0 and any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


def _distinctive_words(card: Card) -> set[str]:
    return {w for w in words(card.name) if len(w) >= 3 and w not in _GENERIC_NAME_WORDS}


def blank_hints(fields: Mapping[str, str]) -> list[Hint]:
    """An empty blank, or a one-word blank that is not simply a card's name."""
    card_names = {tuple(words(card.name)) for card in CARDS.values()}
    hints = []
    for field, label in BLANK_LABELS.items():
        found = words(fields.get(field) or "")
        if not found:
            hints.append(Hint(field, "empty", f"“{label}” is empty."))
        elif len(found) == 1 and (field == "because" or tuple(found) not in card_names):
            hints.append(
                Hint(field, "one_word", f"“{label}” is a single word: ask the team for more.")
            )
    return hints


def cards_named_in(text: str, *, category: str) -> list[Card]:
    """Cards not of `category` that `text` names: parts by full name or a distinctive word of
    the name, Missions and Glitches by full name only."""
    found = words(text)
    if not found:
        return []
    own_words = set().union(*(_distinctive_words(c) for c in CARDS.values() if c.kind == category))
    named = []
    for card in CARDS.values():
        if card.kind == category:
            continue
        by_full_name = _contains_sequence(found, words(card.name))
        by_word = card.kind in CATEGORY and (_distinctive_words(card) - own_words) & set(found)
        if by_full_name or by_word:
            named.append(card)
    return named


def category_hints(fields: Mapping[str, str]) -> list[Hint]:
    """A part blank that names a card of another category."""
    hints = []
    for field, category in PART_BLANKS.items():
        for card in cards_named_in(fields.get(field) or "", category=category):
            hints.append(
                Hint(
                    field,
                    "other_category",
                    f"“{BLANK_LABELS[field]} {fields[field].strip()}”: {card.name} is "
                    f"{CATEGORY_LABELS[card.kind]}, not {CATEGORY_LABELS[category]}.",
                )
            )
    return hints


def mission_words(mission_id: str | None) -> set[str]:
    """The words that show a `because` is about this Mission: its name and its card text."""
    card = CARDS.get(mission_id or "")
    if card is None or card.kind != "mission":
        return set()
    return {w for w in words(f"{card.name} {card.text}") if len(w) >= 3 and w not in _STOP_WORDS}


def _mentions(found: list[str], wanted: set[str]) -> bool:
    for word in found:
        for target in wanted:
            short, long = sorted((word, target), key=len)
            # "water" and "watering", "plant" and "plants": a shared stem of 4+ letters.
            if word == target or (len(short) >= 4 and long.startswith(short)):
                return True
    return False


def because_hints(because: str, mission_id: str | None) -> list[Hint]:
    """A `because` that names neither the Mission nor any purpose (an empty one is flagged by
    blank_hints already)."""
    found = words(because or "")
    if not found:
        return []
    if set(found) & PURPOSE_WORDS or _mentions(found, mission_words(mission_id)):
        return []
    card = CARDS.get(mission_id or "")
    mission = f"the Mission ({card.name})" if card and card.kind == "mission" else "a Mission"
    return [
        Hint(
            "because",
            "no_purpose",
            f"“because” mentions neither {mission} nor what the parts are for.",
        )
    ]


def hints_for(fields: Mapping[str, str], mission_id: str | None) -> list[Hint]:
    """Every hint for one sentence, in the order of its blanks."""
    hints = (
        blank_hints(fields)
        + category_hints(fields)
        + because_hints(fields.get("because") or "", mission_id)
    )
    order = list(BLANK_LABELS)
    return sorted(hints, key=lambda hint: order.index(hint.field))
