"""Every printable the site offers: what it is, what paper it needs, and how it is built."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import Http404

from games.printables import bot_builders as bb
from games.printables import three_laws as tl
from games.printables.layout import AVERY_5388, CUT_GRID_12, sheet_count

BOT_BUILDERS = "Bot-Builders"
THREE_LAWS = "3 Laws of Robotics"
PLAIN = "Plain Letter paper"
AVERY = "Avery 5388 index cards"


@dataclass(frozen=True, slots=True)
class Printable:
    slug: str
    game: str
    title: str
    description: str
    paper: str
    pages: int
    template: str
    context: Callable[[], dict[str, Any]]
    duplex: bool = False

    @property
    def filename(self) -> str:
        return f"botbench-{self.slug}.pdf"

    @property
    def page_label(self) -> str:
        unit = "sheet" if self.paper == AVERY else "page"
        return f"{self.pages} {unit}{'' if self.pages == 1 else 's'}"


PRINTABLES: tuple[Printable, ...] = (
    Printable(
        slug="bot-builders-instructions",
        game=BOT_BUILDERS,
        title="Instruction sheet",
        description="One page for the middle of the table: setup, a turn, the last lap and "
        "scoring.",
        paper=PLAIN,
        pages=1,
        template="printables/bot_builders_instructions.html",
        context=bb.instructions_context,
    ),
    Printable(
        slug="bot-builders-rules",
        game=BOT_BUILDERS,
        title="Bot-Builders rules",
        description="The whole game in larger type, with the variants and the teach-back "
        "sentence. Prints on both sides of one sheet.",
        paper=PLAIN,
        pages=2,
        template="printables/bot_builders_rules.html",
        context=bb.rules_context,
        duplex=True,
    ),
    Printable(
        slug="bot-builders-parts",
        game=BOT_BUILDERS,
        title="Parts deck",
        description=f"The {len(bb.parts_cards())} Sense, Think, Act and Power cards, plus a "
        "scoring card in the spare slot.",
        paper=AVERY,
        pages=sheet_count(len(bb.parts_deck()), AVERY_5388.per_sheet),
        template="printables/bot_builders_deck.html",
        context=bb.parts_context,
    ),
    Printable(
        slug="bot-builders-missions-glitches",
        game=BOT_BUILDERS,
        title="Missions + Glitches deck",
        description=f"The {len(bb.cards_of_kind('mission'))} Missions (why the bot exists) and "
        f"{len(bb.cards_of_kind('glitch'))} Glitches (setbacks), plus two rule cards in the "
        "spare slots.",
        paper=AVERY,
        pages=sheet_count(len(bb.missions_glitches_deck()), AVERY_5388.per_sheet),
        template="printables/bot_builders_deck.html",
        context=bb.missions_glitches_context,
    ),
    Printable(
        slug="bot-builders-teachback",
        game=BOT_BUILDERS,
        title="Teach-back worksheet",
        description="The “My bot senses with…” sentence frame on paper, one per team, for "
        "classes without devices.",
        paper=PLAIN,
        pages=1,
        template="printables/bot_builders_teachback.html",
        context=bb.teachback_context,
    ),
    Printable(
        slug="three-laws-factions",
        game=THREE_LAWS,
        title="Faction cards",
        description="Androids, Cyborgs and Drones, every rank. Players hold them up facing out.",
        paper=AVERY,
        pages=sheet_count(len(tl.faction_cards()), AVERY_5388.per_sheet),
        template="printables/three_laws_factions.html",
        context=tl.factions_context,
    ),
    Printable(
        slug="three-laws-laws",
        game=THREE_LAWS,
        title="Law cards",
        description=f"The {len(tl.law_cards())} laws, revealed from round 2 on.",
        paper=AVERY,
        pages=sheet_count(len(tl.law_cards()), AVERY_5388.per_sheet),
        template="printables/three_laws_laws.html",
        context=tl.laws_context,
    ),
    Printable(
        slug="three-laws-victory-points",
        game=THREE_LAWS,
        title="Victory Point cards",
        description=f"The deck of {len(tl.victory_point_cards())} cards worth 1, 2 or 3. "
        "Card stock keeps the values from showing through.",
        paper=PLAIN,
        pages=sheet_count(len(tl.victory_point_cards()), CUT_GRID_12.per_sheet),
        template="printables/three_laws_victory_points.html",
        context=tl.victory_points_context,
    ),
    Printable(
        slug="three-laws-keys-tokens",
        game=THREE_LAWS,
        title="Security Keys + Enforcement tokens",
        description="A Security Key for each player, the Start player card, and a sheet of "
        "Enforcement tokens.",
        paper=PLAIN,
        pages=2,
        template="printables/three_laws_keys_tokens.html",
        context=tl.keys_tokens_context,
    ),
)

_BY_SLUG: dict[str, Printable] = {printable.slug: printable for printable in PRINTABLES}


def get_printable(slug: str) -> Printable:
    """The printable called `slug`, or Http404."""
    try:
        return _BY_SLUG[slug]
    except KeyError:
        raise Http404("No such printable.") from None


def by_game() -> list[tuple[str, list[Printable]]]:
    """The printables grouped by game, in registry order (for the index page)."""
    groups: dict[str, list[Printable]] = {}
    for printable in PRINTABLES:
        groups.setdefault(printable.game, []).append(printable)
    return list(groups.items())
