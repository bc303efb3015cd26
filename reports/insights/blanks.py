"""What the class wrote in each blank, grouped.

A part blank's answer is grouped by the card it names (in English or the sentence's language,
accents ignored): the group knows the card's category and whether it is the category the blank
asks for. An answer naming no card is grouped with the answers of the same normal form
("Ruedas" and "ruedas"), as is every `because`. Groups are largest first.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from games.engines.bot_builders.cards import Card
from games.teachback.hints import BLANK_LABELS, PART_BLANKS
from reports.insights.sentences import Reader, Sentence, normal_form

BLANKS: tuple[str, ...] = tuple(BLANK_LABELS)


@dataclass
class BlankGroup:
    blank: str
    key: str
    card: Card | None
    category: str | None
    # Does the group's category match the blank's? None when it names no card (or `because`).
    right: bool | None
    sentences: list[Sentence] = field(default_factory=list)
    wordings: Counter = field(default_factory=Counter)

    @property
    def count(self) -> int:
        return len(self.sentences)

    @property
    def label(self) -> str:
        """For free words: the wording the class used most (ties: the first written)."""
        return self.wordings.most_common(1)[0][0] if self.wordings else ""


@dataclass
class BlankSummary:
    blank: str
    # The category this blank asks for; None for `because`.
    wanted: str | None
    groups: list[BlankGroup]

    @property
    def total(self) -> int:
        return sum(group.count for group in self.groups)

    @property
    def wrong(self) -> int:
        return sum(group.count for group in self.groups if group.right is False)


def _group_key(blank: str, text: str, sentence: Sentence, reader: Reader) -> tuple:
    if blank in PART_BLANKS:
        named = reader.named(text, sentence.language)
        if named.card is not None:
            return (f"card:{named.card.id}", named.card, named.card.kind)
        if named.category is not None:
            return (f"kind:{named.category}", None, named.category)
    return (f"words:{normal_form(text)}", None, None)


def group_blanks(sentences: list[Sentence], reader: Reader) -> list[BlankSummary]:
    """One summary per blank of the sentence, in the sentence's order."""
    summaries = []
    for blank in BLANKS:
        wanted = PART_BLANKS.get(blank)
        groups: dict[str, BlankGroup] = {}
        for sentence in sentences:
            text = sentence.text(blank)
            key, card, category = _group_key(blank, text, sentence, reader)
            group = groups.get(key)
            if group is None:
                right = None if category is None or wanted is None else category == wanted
                group = groups[key] = BlankGroup(blank, key, card, category, right)
            group.sentences.append(sentence)
            group.wordings[text] += 1
        ordered = sorted(groups.values(), key=lambda g: (-g.count, g.key))
        summaries.append(BlankSummary(blank, wanted, ordered))
    return summaries
