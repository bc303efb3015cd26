"""Drawing Bot-Builders cards and benches: `{% load bot_builders %}`.

Both are drawn over and over: every phone of a table draws the other teams' benches, every move
redraws every screen of the table, and most benches do not change from one move to the next.
Benches were about half of a phone's region drawing. A drawing depends only on what its key
holds, so each one is drawn once and kept in this process (`Drawings`):

- a card: its id (`display.card` makes the whole card from the catalogue entry of that id), its
  size;
- a bench: the card in each slot, its score and Full Bot, its heading, heading level and whether
  it is compact;
- both: the language they are drawn in and whether the projector shows both languages.

Benches and cards are public: every seat and the projector see all of them, so a drawing kept
from one viewer's page can be served to any other.

Kept in the process, not in the shared cache with the regions that draw them (games.kept_html):
each region a table version draws (a seat's, the projector's, a grid cell) draws the same
benches again, and keeps drawing them after a move while they do not change, but asks for them
a tag at a time; a round trip to Redis and unpickling for each cost more than drawing them,
where the process's own copy costs a dictionary lookup.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from django import template
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString

from games.display import bot_builders as display

register = template.Library()

CARD_TEMPLATE = "games/bot_builders/_card.html"
BENCH_TEMPLATE = "games/bot_builders/_bench.html"


class Drawings:
    """The `size` most recently used drawings, by key; shared by a process's threads.

    Not Django's local-memory cache: it wants string keys and pickles every value in and out,
    which costs about what drawing a small card does."""

    def __init__(self, size: int):
        self.size = size
        self._kept: OrderedDict[Hashable, SafeString] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, draw: Callable[[], SafeString]) -> SafeString:
        with self._lock:
            drawn = self._kept.get(key)
            if drawn is not None:
                self._kept.move_to_end(key)
                return drawn
        # Drawn outside the lock: two threads may both draw a new key, and draw the same.
        drawn = draw()
        with self._lock:
            self._kept[key] = drawn
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return drawn

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


# A class's benches change a card at a time: a few thousand drawings hold many classes' tables
# (about 1 KB each).
DRAWINGS = Drawings(4096)


def _drawing_of(name: str, key: tuple, values: dict, context: template.Context) -> SafeString:
    bilingual = bool(context.get("bilingual", False))
    values = {**values, "bilingual": bilingual}
    return DRAWINGS.get(
        (name, *key, bilingual, translation.get_language()),
        lambda: render_to_string(name, values),
    )


def _card_id(card: dict | None) -> str | None:
    return card["id"] if card else None


@register.simple_tag(takes_context=True)
def bb_card(context: template.Context, card, size: str = "") -> SafeString:
    """A card from its id or from a display dict; `size` "small" or "tiny" for compact places.
    A bilingual projector (`bilingual` in the context) names the card in both languages."""
    if isinstance(card, str):
        card = display.card(card)
    if not card:
        return SafeString("")
    return _drawing_of(CARD_TEMPLATE, (card["id"], size), {"card": card, "size": size}, context)


@register.simple_tag(takes_context=True)
def bb_bench(
    context: template.Context, bench: dict, compact: bool = False, heading: str = "", level: int = 3
) -> SafeString:
    """A bench of five slots; `heading` names it at heading `level` (2 where no h2 is above)."""
    cards = tuple((slot["slot"], _card_id(slot["card"])) for slot in bench["slots"])
    # The heading as drawn: a name, or words that say themselves in the active language.
    key = (cards, bench["score"], bench["full_bot"], bool(compact), str(heading), level)
    values = {"bench": bench, "compact": compact, "heading": heading, "level": level}
    return _drawing_of(BENCH_TEMPLATE, key, values, context)


@register.filter
def category_name(kind: str) -> str:
    """A category's name ("sense": "Sense") in the active language: `{{ slot|category_name }}`.
    The ids are not msgids; translating `kind|title` would look up "Sense" before it exists."""
    label = display.LABELS.get(kind)
    return str(label) if label is not None else ""
