"""What the Bot-Builders printables show, built from the engine's own card data and scoring.

Nothing here restates a card or a point value: names, texts, slots, preferences and points all
come from `games.engines.bot_builders`, so a change there reaches the printed decks too.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.engines import bot_builders
from games.engines.bot_builders import CATEGORY, cards_of_kind, scoring
from games.engines.bot_builders import cards as bb_cards
from games.engines.i18n import say
from games.printables.layout import AVERY_5388, css_page_counter, sheets

# Lazy: the words are looked up in the language active when a printable is rendered.
LABELS: dict[str, str] = {
    "sense": _("Sense"),
    "think": _("Think"),
    "act": _("Act"),
    "power": _("Power"),
    "mission": _("Mission"),
    "glitch": _("Glitch"),
}

# The rulebook's worked example: a perfect bench.
EXAMPLE_BENCH: tuple[str, ...] = (
    "camera",
    "if_then_board",
    "drive_wheels",
    "battery_pack",
    "rescue_rover",
)

# The sentence frame's words, in a context of their own: "because" alone may mean other things.
TEACHBACK_FRAME: tuple[tuple[str, str], ...] = (
    (pgettext_lazy("teach-back frame", "My bot senses with"), "sense"),
    (pgettext_lazy("teach-back frame", "thinks with"), "think"),
    (pgettext_lazy("teach-back frame", "acts with"), "act"),
    (pgettext_lazy("teach-back frame", "powered by"), "power"),
    (pgettext_lazy("teach-back frame", "because"), "mission"),
)


def card_name(card: bot_builders.Card) -> str:
    """A card's name in the active language (the engine marks its words with N_)."""
    return say(card.name, gettext)


def icon(kind: str) -> str:
    """The static path of a category's icon (relative to the print base URL)."""
    return f"img/icons/{kind}.svg"


def card_face(card: bot_builders.Card) -> dict[str, Any]:
    """One card as the deck templates draw it."""
    face: dict[str, Any] = {
        "id": card.id,
        "name": card_name(card),
        "kind": card.kind,
        "label": LABELS[card.kind],
        "text": say(card.text, gettext),
        "icon": icon(card.kind),
        "template": "printables/_bb_card.html",
    }
    if card.prefers:
        face["prefers"] = [{"kind": k, "label": LABELS[k], "icon": icon(k)} for k in card.prefers]
    if card.is_glitch:
        face["slot"] = {"kind": card.slot, "label": LABELS[card.slot], "icon": icon(card.slot)}
        # The chip goes inside a translated sentence ("Hits the … slot"), so it is made here.
        face["slot"]["chip"] = format_html(
            '<span class="chip chip-{}"><img src="{}" alt="">{}</span>',
            card.slot,
            icon(card.slot),
            LABELS[card.slot],
        )
        face["returns_to_hand"] = card.returns_to_hand
    return face


def points() -> dict[str, int]:
    return {
        "part": scoring.PART_POINTS,
        "four_loop": scoring.FOUR_LOOP_POINTS,
        "mission": scoring.MISSION_POINTS,
        "match": scoring.MISSION_MATCH_POINTS,
        "full_bot": scoring.FULL_BOT_POINTS,
        "max": scoring.MAX_SCORE,
    }


def example() -> dict[str, Any]:
    cards = [bot_builders.CARDS[card_id] for card_id in EXAMPLE_BENCH]
    mission = cards[-1]
    return {
        "parts": [card_name(card) for card in cards[:-1]],
        "mission": card_name(mission),
        "prefers": " + ".join(str(LABELS[k]) for k in mission.prefers),
        "score": scoring.score_bench(EXAMPLE_BENCH).total,
    }


def _game_facts() -> dict[str, Any]:
    return {
        "deck_size": bb_cards.DECK_SIZE,
        "deal_size": bb_cards.DEAL_SIZE,
        "hand_limit": bb_cards.HAND_LIMIT,
        "solo_win": bot_builders.SOLO_WIN_SCORE,
        "counts": {kind: len(cards_of_kind(kind)) for kind in bb_cards.KINDS},
        "part_count": sum(len(cards_of_kind(kind)) for kind in CATEGORY),
        "points": points(),
        "example": example(),
        "categories": [{"kind": k, "label": LABELS[k], "icon": icon(k)} for k in CATEGORY],
        "frame": [
            {"words": words, "kind": kind, "label": LABELS[kind], "icon": icon(kind)}
            for words, kind in TEACHBACK_FRAME
        ],
    }


def instructions_context() -> dict[str, Any]:
    return _game_facts()


def rules_context() -> dict[str, Any]:
    return {
        **_game_facts(),
        # The running foot of the two-sided rules (a CSS page-margin box, see the template).
        "page_foot": css_page_counter(gettext("Bot-Builders rules · page %(page)s of %(pages)s")),
    }


def _reference(title: str, kind: str, lines: list[str]) -> dict[str, Any]:
    """A table-reference card filling a deck's spare slot: clearly not a game card."""
    return {
        "name": title,
        "kind": kind,
        "label": gettext("Reference"),
        "lines": lines,
        "icon": icon(kind),
        "template": "printables/_bb_reference.html",
    }


def _scoring_reference() -> dict[str, Any]:
    p = points()
    return _reference(
        gettext("How to score"),
        "score",
        [
            gettext("+%(points)s each part installed") % {"points": p["part"]},
            gettext("+%(points)s four-loop: Sense, Think, Act and Power")
            % {"points": p["four_loop"]},
            gettext("+%(points)s a Mission installed") % {"points": p["mission"]},
            gettext("+%(points)s mission match: both preferred parts") % {"points": p["match"]},
            gettext("+%(points)s Full Bot: four-loop and a Mission") % {"points": p["full_bot"]},
            gettext("Perfect score: %(points)s") % {"points": p["max"]},
        ],
    )


def _glitch_reference() -> dict[str, Any]:
    return _reference(
        gettext("Glitch rules"),
        "glitch",
        [
            gettext("Play a Glitch on one opponent, never yourself."),
            gettext("Read it aloud; the target does what it says."),
            gettext("An empty slot? The Glitch fizzles: discard it."),
            gettext("No Glitches after someone shouts BOT!"),
        ],
    )


def _bot_reference() -> dict[str, Any]:
    return _reference(
        gettext("BOT! and the last lap"),
        "mission",
        [
            gettext("Full Bot: Sense + Think + Act + Power + a Mission."),
            gettext("End your turn with a Full Bot? You may shout BOT!"),
            gettext("Everyone else gets one last turn: install or discard only."),
            gettext("Empty draw pile: finish that turn, then stop."),
        ],
    )


def parts_cards() -> list[dict[str, Any]]:
    return [card_face(card) for kind in CATEGORY for card in cards_of_kind(kind)]


def missions_glitches_cards() -> list[dict[str, Any]]:
    return [card_face(card) for kind in ("mission", "glitch") for card in cards_of_kind(kind)]


def _pad_last_sheet(
    cards: list[dict[str, Any]], spares: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Fill the last sheet's empty slots with reference cards, so no index card is wasted."""
    empty = -len(cards) % AVERY_5388.per_sheet
    return cards + spares[:empty]


def parts_deck() -> list[dict[str, Any]]:
    return _pad_last_sheet(parts_cards(), [_scoring_reference(), _bot_reference()])


def missions_glitches_deck() -> list[dict[str, Any]]:
    return _pad_last_sheet(missions_glitches_cards(), [_glitch_reference(), _bot_reference()])


def parts_context() -> dict[str, Any]:
    return {"sheets": sheets(parts_deck(), AVERY_5388.per_sheet)}


def missions_glitches_context() -> dict[str, Any]:
    return {"sheets": sheets(missions_glitches_deck(), AVERY_5388.per_sheet)}


def teachback_context() -> dict[str, Any]:
    facts = _game_facts()
    # A few part names per blank, as ideas for a class without devices.
    facts["ideas"] = {
        kind: [card_name(card) for card in cards_of_kind(kind)[:4]]
        for kind in (*CATEGORY, "mission")
    }
    for line in facts["frame"]:
        line["ideas"] = facts["ideas"][line["kind"]]
    return facts
