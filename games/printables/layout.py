"""Paper layouts shared by the printables, in inches.

The numbers are the published template dimensions; the print CSS (static/css/print/) repeats
them, and tests/games/printables/test_avery.py measures the rendered PDFs against these.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil


@dataclass(frozen=True, slots=True)
class CardSheet:
    """Identical cards stacked on a Letter sheet with no gaps between them."""

    name: str
    page_width: float
    page_height: float
    card_width: float
    card_height: float
    columns: int
    rows: int
    margin_left: float
    margin_top: float

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    def card_box(self, index: int) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of slot `index` on its sheet, from the page's top left."""
        row, column = divmod(index, self.columns)
        left = self.margin_left + column * self.card_width
        top = self.margin_top + row * self.card_height
        return (left, top, left + self.card_width, top + self.card_height)


# Avery 5388 (and its twin 5389): 3 x 5 in index cards, three per 8.5 x 11 in sheet, printed in
# landscape: each card 5 in wide and 3 in tall, stacked, no gaps. Template margins 1.75 in left
# and right, 1 in top and bottom (8.5 = 1.75 + 5 + 1.75; 11 = 1 + 3 x 3 + 1).
AVERY_5388 = CardSheet(
    name="Avery 5388",
    page_width=8.5,
    page_height=11,
    card_width=5,
    card_height=3,
    columns=1,
    rows=3,
    margin_left=1.75,
    margin_top=1,
)

# Plain Letter paper cut along printed lines: 3 x 4 cards of 2.5 x 2.5 in inside 0.5 in margins.
CUT_GRID_12 = CardSheet(
    name="Letter, cut along the lines",
    page_width=8.5,
    page_height=11,
    card_width=2.5,
    card_height=2.5,
    columns=3,
    rows=4,
    margin_left=0.5,
    margin_top=0.5,
)

# Plain Letter paper, 3 x 3 cards of 2.5 x 3.25 in: Security Keys and the Start player card.
CUT_GRID_9 = CardSheet(
    name="Letter, cut along the lines",
    page_width=8.5,
    page_height=11,
    card_width=2.5,
    card_height=3.25,
    columns=3,
    rows=3,
    margin_left=0.5,
    margin_top=0.5,
)


def sheets[T](items: Sequence[T], per_sheet: int) -> list[list[T]]:
    """`items` split into sheets of `per_sheet` (the last one may be short)."""
    return [list(items[i : i + per_sheet]) for i in range(0, len(items), per_sheet)]


def sheet_count(item_count: int, per_sheet: int) -> int:
    return ceil(item_count / per_sheet)


def css_page_counter(sentence: str) -> str:
    """A CSS `content` value saying `sentence` with its `%(page)s` and `%(pages)s` drawn by the
    page counters: "Page %(page)s of %(pages)s" -> `"Page " counter(page) " of " counter(pages)`.
    The sentence comes translated whole, so each language orders it its own way."""
    parts = []
    for piece in re.split(r"(%\((?:page|pages)\)s)", sentence):
        if piece == "%(page)s":
            parts.append("counter(page)")
        elif piece == "%(pages)s":
            parts.append("counter(pages)")
        elif piece:
            escaped = piece.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
            escaped = escaped.replace("<", "\\3c ")  # never a "</style>" in a style block
            parts.append(f'"{escaped}"')
    return " ".join(parts)
