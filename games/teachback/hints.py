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

A sentence may be written in Spanish ("Mi robot percibe con __, ..."): the caller passes the
`translate` of the sentence's language, so card names and Mission words are also looked for in
that language, and the Spanish purpose words count. Words are compared without accents ("camara"
is "Cámara"). Each hint's message is a `Reason` the page translates for the teacher.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from games.engines.bot_builders.cards import CARDS, CATEGORY, Card
from games.engines.i18n import N_, Reason

# The four part blanks, the category each should name, and the words the sentence puts before it.
PART_BLANKS: dict[str, str] = {
    "senses_with": "sense",
    "thinks_with": "think",
    "acts_with": "act",
    "powered_by": "power",
}
BLANK_LABELS: dict[str, str] = {
    "senses_with": N_("senses with"),
    "thinks_with": N_("thinks with"),
    "acts_with": N_("acts with"),
    "powered_by": N_("powered by"),
    "because": N_("because"),
}
CATEGORY_LABELS: dict[str, str] = {
    "sense": N_("a Sense part"),
    "think": N_("a Think part"),
    "act": N_("an Act part"),
    "power": N_("a Power part"),
    "mission": N_("a Mission"),
    "glitch": N_("a Glitch"),
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
        # Spanish
        "para",
        "porque",
        "puede",
        "pueda",
        "pueden",
        "podria",
        "ayuda",
        "ayudar",
        "ayudan",
        "sirve",
        "servir",
        "necesita",
        "necesitan",
        "trabajo",
        "mision",
        "objetivo",
        "asi",
        "permite",
        "logra",
        "lograr",
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
        # Spanish
        "los",
        "las",
        "una",
        "uno",
        "del",
        "con",
        "por",
        "para",
        "que",
        "sus",
        "todo",
        "toda",
        "todos",
        "todas",
        "cada",
        "sin",
        "nadie",
        "anos",
        "dia",
        "despues",
        "desde",
        "hasta",
        "donde",
        "cualquier",
        "algo",
        "lejano",
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
    return list(_words(text))


# A class's insights read thousands of sentences against the same 48 card names in two
# languages: each text is split into words once (bounded, like any cache here).
@functools.lru_cache(maxsize=8192)
def _words(text: str) -> tuple[str, ...]:
    return tuple(_singular(word) for word in _WORD.findall(_fold(text)))


def _fold(text: str) -> str:
    """Lower case without accents: "Cámara" and "camara" are one word; "ñ" becomes "n"."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _same(text: str) -> str:
    return text


def _names(card: Card, translate: Callable[[str], str]) -> list[str]:
    """The card's name, and its name in the sentence's language when that differs."""
    translated = translate(card.name)
    return [card.name] if translated == card.name else [card.name, translated]


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _contains_sequence(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return n > 0 and any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


@functools.lru_cache(maxsize=1024)
def _distinctive_words(card: Card, translate: Callable[[str], str] = _same) -> frozenset[str]:
    return frozenset(
        {
            w
            for name in _names(card, translate)
            for w in words(name)
            if len(w) >= 3 and w not in _GENERIC_NAME_WORDS
        }
    )


def blank_hints(fields: Mapping[str, str], translate: Callable[[str], str] = _same) -> list[Hint]:
    """An empty blank, or a one-word blank that is not simply a card's name."""
    card_names = {tuple(words(name)) for card in CARDS.values() for name in _names(card, translate)}
    hints = []
    for field, label in BLANK_LABELS.items():
        found = words(fields.get(field) or "")
        if not found:
            hints.append(
                Hint(field, "empty", Reason(N_("“%(label)s” is empty."), ("label",), label=label))
            )
        elif len(found) == 1 and (field == "because" or tuple(found) not in card_names):
            message = Reason(
                N_("“%(label)s” is a single word: ask the team for more."), ("label",), label=label
            )
            hints.append(Hint(field, "one_word", message))
    return hints


def cards_named_in(
    text: str, *, category: str, translate: Callable[[str], str] = _same
) -> list[Card]:
    """Cards not of `category` that `text` names: parts by full name or a distinctive word of
    the name, Missions and Glitches by full name only."""
    found = words(text)
    if not found:
        return []
    own_words = set().union(
        *(_distinctive_words(c, translate) for c in CARDS.values() if c.kind == category)
    )
    named = []
    for card in CARDS.values():
        if card.kind == category:
            continue
        by_full_name = any(
            _contains_sequence(found, words(name)) for name in _names(card, translate)
        )
        by_word = card.kind in CATEGORY and (
            (_distinctive_words(card, translate) - own_words) & set(found)
        )
        if by_full_name or by_word:
            named.append(card)
    return named


def category_hints(
    fields: Mapping[str, str], translate: Callable[[str], str] = _same
) -> list[Hint]:
    """A part blank that names a card of another category."""
    hints = []
    for field, category in PART_BLANKS.items():
        text = fields.get(field) or ""
        for card in cards_named_in(text, category=category, translate=translate):
            message = Reason(
                N_("“%(label)s %(text)s”: %(card)s is %(kind)s, not %(wanted)s."),
                ("label", "card", "kind", "wanted"),
                label=BLANK_LABELS[field],
                text=text.strip(),
                card=card.name,
                kind=CATEGORY_LABELS[card.kind],
                wanted=CATEGORY_LABELS[category],
            )
            hints.append(Hint(field, "other_category", message))
    return hints


def mission_words(mission_id: str | None, translate: Callable[[str], str] = _same) -> set[str]:
    """The words that show a `because` is about this Mission: its name and its card text (in
    English, and in the sentence's language)."""
    card = CARDS.get(mission_id or "")
    if card is None or card.kind != "mission":
        return set()
    text = f"{card.name} {card.text} {translate(card.name)} {translate(card.text)}"
    return {w for w in words(text) if len(w) >= 3 and w not in _STOP_WORDS}


def _mentions(found: list[str], wanted: set[str]) -> bool:
    for word in found:
        for target in wanted:
            short, long = sorted((word, target), key=len)
            # "water" and "watering", "plant" and "plants": a shared stem of 4+ letters.
            if word == target or (len(short) >= 4 and long.startswith(short)):
                return True
    return False


def because_hints(
    because: str, mission_id: str | None, translate: Callable[[str], str] = _same
) -> list[Hint]:
    """A `because` that names neither the Mission nor any purpose (an empty one is flagged by
    blank_hints already)."""
    found = words(because or "")
    if not found:
        return []
    if set(found) & PURPOSE_WORDS or _mentions(found, mission_words(mission_id, translate)):
        return []
    card = CARDS.get(mission_id or "")
    if card and card.kind == "mission":
        message = Reason(
            N_("“because” mentions neither the Mission (%(mission)s) nor what the parts are for."),
            ("mission",),
            mission=card.name,
        )
    else:
        message = Reason(N_("“because” mentions neither a Mission nor what the parts are for."))
    return [Hint("because", "no_purpose", message)]


def hints_for(
    fields: Mapping[str, str], mission_id: str | None, translate: Callable[[str], str] = _same
) -> list[Hint]:
    """Every hint for one sentence, in the order of its blanks. `translate`: the sentence's
    language (a Spanish sentence names the cards in Spanish)."""
    hints = (
        blank_hints(fields, translate)
        + category_hints(fields, translate)
        + because_hints(fields.get("because") or "", mission_id, translate)
    )
    order = list(BLANK_LABELS)
    return sorted(hints, key=lambda hint: order.index(hint.field))
