"""Misconceptions, named and counted, each with the sentences behind it.

Three kinds, each the class-wide count of one teach-back hint or bench check:

- `wrong_category`: a part blank names a card of another category ("senses with Drive
  wheels"), counted per blank and per category named: the hint's rule (`cards_named_in`);
- `no_purpose`: a `because` that names neither the Mission nor any purpose: the hint's rule
  (`because_hints`);
- `not_on_bench`: a part blank names a part of the right category that is not on the team's
  own bench (a part of another category is the first kind already). A blank whose bench slot
  was empty is left out: the sentence frame asks the team to name the part it would have added.

A team counts once per misconception, however many blanks of its sentence show it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from games.engines.bot_builders.cards import CARDS, Card
from games.teachback.hints import PART_BLANKS
from reports.insights.sentences import Reader, Sentence

WRONG_CATEGORY = "wrong_category"
NO_PURPOSE = "no_purpose"
NOT_ON_BENCH = "not_on_bench"
KINDS = (WRONG_CATEGORY, NO_PURPOSE, NOT_ON_BENCH)


@dataclass
class Misconception:
    kind: str
    # The blank it shows in (None: across the part blanks), the category the blank asks for,
    # and for `wrong_category` the category named instead.
    blank: str | None
    wanted: str | None
    named: str | None
    # Out of how many sentences.
    of: int
    sentences: list[Sentence] = field(default_factory=list)
    cards: Counter = field(default_factory=Counter)

    @property
    def key(self) -> str:
        return ":".join(part or "" for part in (self.kind, self.blank, self.named))

    @property
    def count(self) -> int:
        return len(self.sentences)

    @property
    def share(self) -> float:
        return self.count / self.of if self.of else 0.0

    @property
    def card_counts(self) -> list[tuple[Card, int]]:
        """The cards behind it, most named first (ties in deck order)."""
        order = list(CARDS)
        return sorted(
            ((CARDS[card_id], n) for card_id, n in self.cards.items()),
            key=lambda item: (-item[1], order.index(item[0].id)),
        )


def _add(found: dict, key: tuple, make, sentence: Sentence, cards=()) -> None:
    item = found.get(key)
    if item is None:
        item = found[key] = make()
    if not item.sentences or item.sentences[-1] is not sentence:
        item.sentences.append(sentence)
    for card in cards:
        item.cards[card.id] += 1


def find_misconceptions(sentences: list[Sentence], reader: Reader) -> list[Misconception]:
    """Every misconception shown by at least one sentence, most teams first."""
    found: dict[tuple, Misconception] = {}
    of = len(sentences)
    for sentence in sentences:
        on_bench = {card_id for card_id in sentence.bench.values() if card_id}
        for blank, wanted in PART_BLANKS.items():
            text = sentence.text(blank)
            other = reader.other_category(text, wanted, sentence.language)
            for named in sorted({card.kind for card in other}):
                _add(
                    found,
                    (WRONG_CATEGORY, blank, named),
                    lambda b=blank, w=wanted, n=named: Misconception(WRONG_CATEGORY, b, w, n, of),
                    sentence,
                    [card for card in other if card.kind == named],
                )
            part = reader.named(text, sentence.language).card
            slot_filled = bool(sentence.bench.get(wanted))
            if part is not None and part.kind == wanted and slot_filled and part.id not in on_bench:
                _add(
                    found,
                    (NOT_ON_BENCH,),
                    lambda: Misconception(NOT_ON_BENCH, None, None, None, of),
                    sentence,
                    [part],
                )
        because = sentence.text("because")
        if because and reader.no_purpose(because, sentence.mission, sentence.language):
            _add(
                found,
                (NO_PURPOSE,),
                lambda: Misconception(NO_PURPOSE, "because", None, None, of),
                sentence,
            )
    return sorted(found.values(), key=lambda m: (-m.count, KINDS.index(m.kind), m.key))
