"""One teach-back sentence as the analysis reads it, and the `Reader` that asks the hints' rules
about its words.

Every rule about words lives in games/teachback/hints.py: which cards a text names (either
language, accents ignored, plurals folded) and whether a `because` gives a purpose. The Reader
only adds a memo, because a class over a year repeats the same few dozen answers hundreds of
times, and which single card a blank names when it names several (the best-covered name).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from games.engines.bot_builders.cards import CARDS, Card
from games.teachback.hints import because_hints, cards_named_in, words

Translate = Callable[[str], str]


@dataclass(frozen=True)
class Sentence:
    """A team's sentence: `fields` holds the five blanks, `bench` the slots it described."""

    id: int
    team: str
    session_id: int
    session_label: str
    fields: Mapping[str, str]
    mission: str | None = None
    language: str = "en"
    bench: Mapping[str, str | None] = field(default_factory=dict)
    # The students of the team (ids), for progress per student.
    students: tuple[int, ...] = ()

    def text(self, blank: str) -> str:
        return (self.fields.get(blank) or "").strip()


@dataclass(frozen=True)
class Named:
    """What a blank names: one card, or only a category (several cards of one kind fit), or
    nothing (free words)."""

    card: Card | None
    category: str | None


NOTHING = Named(None, None)


def normal_form(text: str) -> str:
    """The words of `text` compared the way the hints compare them: lower case, no accents,
    plural "s" dropped. "Ruedas", "ruedas " and "RUEDA" are one answer."""
    return " ".join(words(text))


class Reader:
    """The hints' rules for one analysis, remembered per (text, language)."""

    def __init__(
        self, translate_for: Callable[[str], Translate], languages: tuple[str, ...] = ("en", "es")
    ) -> None:
        self._translate_for = translate_for
        self._languages = languages
        self._translators: dict[str, Translate] = {}
        self._named: dict[tuple[str, str], Named] = {}
        self._other: dict[tuple[str, str, str], tuple[Card, ...]] = {}
        self._purpose: dict[tuple[str, str, str], bool] = {}

    def translate(self, language: str) -> Translate:
        if language not in self._translators:
            self._translators[language] = self._translate_for(language)
        return self._translators[language]

    def _in_turn(self, language: str) -> list[str]:
        """The sentence's language first, then the others: a class writes card names in
        either language whatever frame it wrote in ("senses with cámara")."""
        return [language, *(other for other in self._languages if other != language)]

    def other_category(self, text: str, category: str, language: str) -> tuple[Card, ...]:
        """Cards of another category than `category` that `text` names (the hint's rule), in
        the first language in which `text` names any card."""
        key = (normal_form(text), category, language)
        if key not in self._other:
            found: tuple[Card, ...] = ()
            for tongue in self._in_turn(language):
                if self._candidates(text, tongue):
                    translate = self.translate(tongue)
                    found = tuple(cards_named_in(text, category=category, translate=translate))
                    break
            self._other[key] = found
        return self._other[key]

    def _candidates(self, text: str, language: str) -> list[Card]:
        return cards_named_in(text, category="", translate=self.translate(language))

    def named(self, text: str, language: str) -> Named:
        """The card `text` names. Candidates are the hint's (any category); the one whose
        name (English or the sentence's language) has the largest share of its words in the
        text wins. Equal candidates of one kind name only that kind; of several kinds, nothing
        certain, so the first in deck order (the hint would flag it anyway)."""
        key = (normal_form(text), language)
        if key in self._named:
            return self._named[key]
        found = set(words(text))
        result = NOTHING
        for tongue in self._in_turn(language):
            candidates = self._candidates(text, tongue)
            if candidates:
                result = self._best(candidates, found, self.translate(tongue))
                break
        self._named[key] = result
        return result

    @staticmethod
    def _best(candidates: list[Card], found: set[str], translate: Translate) -> Named:
        if candidates:

            def cover(card: Card) -> float:
                names = {card.name, translate(card.name)}
                return max(len(set(words(n)) & found) / max(1, len(words(n))) for n in names)

            best = max(cover(card) for card in candidates)
            top = [card for card in candidates if cover(card) == best]
            if len(top) == 1 or len({card.kind for card in top}) > 1:
                return Named(top[0], top[0].kind)
            return Named(None, top[0].kind)
        return NOTHING

    def no_purpose(self, because: str, mission: str | None, language: str) -> bool:
        """The `because` names neither the Mission nor any purpose (the hint's rule)."""
        key = (normal_form(because), mission or "", language)
        if key not in self._purpose:
            self._purpose[key] = bool(because_hints(because, mission, self.translate(language)))
        return self._purpose[key]


def card(card_id: str | None) -> Card | None:
    return CARDS.get(card_id or "")
