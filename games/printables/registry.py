"""Every printable the site offers: what it is, what paper it needs, and how it is built."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import Http404
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.printables import bot_builders as bb
from games.printables import three_laws as tl
from games.printables.layout import AVERY_5388, CUT_GRID_12, sheet_count

# Lazy strings: the registry is built at import; each page and PDF says them in its language.
BOT_BUILDERS = _("Bot-Builders")
THREE_LAWS = _("3 Laws of Robotics")
PLAIN = _("Plain Letter paper")
AVERY = _("Avery 5388 index cards")


def _lazy_filled(template: str, **params: Any) -> str:
    """`template % params`, translated when it is shown (a lazy string)."""
    return lazy(lambda: str(template) % params, str)()


@dataclass(frozen=True, slots=True)
class Printable:
    slug: str
    # Lazy strings, said in the language active when read (the properties below).
    game_text: str
    title_text: str
    description_text: str
    paper_text: str
    pages: int
    template: str
    context: Callable[[], dict[str, Any]]
    duplex: bool = False

    @property
    def game(self) -> str:
        return str(self.game_text)

    @property
    def title(self) -> str:
        return str(self.title_text)

    @property
    def description(self) -> str:
        return str(self.description_text)

    @property
    def paper(self) -> str:
        return str(self.paper_text)

    @property
    def filename(self) -> str:
        return self.filename_for("en")

    def filename_for(self, language: str) -> str:
        """The download's name; a Spanish copy says so, so both can sit in one folder."""
        suffix = "" if language == "en" else f"-{language}"
        return f"botbench-{self.slug}{suffix}.pdf"

    @property
    def page_label(self) -> str:
        if self.paper_text is AVERY:
            text = ngettext("%(count)s sheet", "%(count)s sheets", self.pages)
        else:
            text = ngettext("%(count)s page", "%(count)s pages", self.pages)
        return text % {"count": self.pages}


PRINTABLES: tuple[Printable, ...] = (
    Printable(
        slug="bot-builders-instructions",
        game_text=BOT_BUILDERS,
        title_text=_("Instruction sheet"),
        description_text=_(
            "One page for the middle of the table: setup, a turn, the last lap and scoring."
        ),
        paper_text=PLAIN,
        pages=1,
        template="printables/bot_builders_instructions.html",
        context=bb.instructions_context,
    ),
    Printable(
        slug="bot-builders-rules",
        game_text=BOT_BUILDERS,
        title_text=_("Bot-Builders rules"),
        description_text=_(
            "The whole game in larger type, with the variants and the teach-back sentence. "
            "Prints on both sides of one sheet."
        ),
        paper_text=PLAIN,
        pages=2,
        template="printables/bot_builders_rules.html",
        context=bb.rules_context,
        duplex=True,
    ),
    Printable(
        slug="bot-builders-parts",
        game_text=BOT_BUILDERS,
        title_text=_("Parts deck"),
        description_text=_lazy_filled(
            _(
                "The %(count)s Sense, Think, Act and Power cards, plus a scoring card in the "
                "spare slot."
            ),
            count=len(bb.parts_cards()),
        ),
        paper_text=AVERY,
        pages=sheet_count(len(bb.parts_deck()), AVERY_5388.per_sheet),
        template="printables/bot_builders_deck.html",
        context=bb.parts_context,
    ),
    Printable(
        slug="bot-builders-missions-glitches",
        game_text=BOT_BUILDERS,
        title_text=_("Missions + Glitches deck"),
        description_text=_lazy_filled(
            _(
                "The %(missions)s Missions (why the bot exists) and %(glitches)s Glitches "
                "(setbacks), plus two rule cards in the spare slots."
            ),
            missions=len(bb.cards_of_kind("mission")),
            glitches=len(bb.cards_of_kind("glitch")),
        ),
        paper_text=AVERY,
        pages=sheet_count(len(bb.missions_glitches_deck()), AVERY_5388.per_sheet),
        template="printables/bot_builders_deck.html",
        context=bb.missions_glitches_context,
    ),
    Printable(
        slug="bot-builders-teachback",
        game_text=BOT_BUILDERS,
        title_text=_("Teach-back worksheet"),
        description_text=_(
            "The “My bot senses with…” sentence frame on paper, one per team, for classes "
            "without devices."
        ),
        paper_text=PLAIN,
        pages=1,
        template="printables/bot_builders_teachback.html",
        context=bb.teachback_context,
    ),
    Printable(
        slug="three-laws-factions",
        game_text=THREE_LAWS,
        title_text=_("Faction cards"),
        description_text=_(
            "Androids, Cyborgs and Drones, every rank. Players hold them up facing out."
        ),
        paper_text=AVERY,
        pages=sheet_count(len(tl.faction_cards()), AVERY_5388.per_sheet),
        template="printables/three_laws_factions.html",
        context=tl.factions_context,
    ),
    Printable(
        slug="three-laws-laws",
        game_text=THREE_LAWS,
        title_text=_("Law cards"),
        description_text=_lazy_filled(
            _("The %(count)s laws, revealed from round 2 on."), count=len(tl.law_cards())
        ),
        paper_text=AVERY,
        pages=sheet_count(len(tl.law_cards()), AVERY_5388.per_sheet),
        template="printables/three_laws_laws.html",
        context=tl.laws_context,
    ),
    Printable(
        slug="three-laws-victory-points",
        game_text=THREE_LAWS,
        title_text=_("Victory Point cards"),
        description_text=_lazy_filled(
            _(
                "The deck of %(count)s cards worth 1, 2 or 3. Card stock keeps the values from "
                "showing through."
            ),
            count=len(tl.victory_point_cards()),
        ),
        paper_text=PLAIN,
        pages=sheet_count(len(tl.victory_point_cards()), CUT_GRID_12.per_sheet),
        template="printables/three_laws_victory_points.html",
        context=tl.victory_points_context,
    ),
    Printable(
        slug="three-laws-keys-tokens",
        game_text=THREE_LAWS,
        title_text=_("Security Keys + Enforcement tokens"),
        description_text=_(
            "A Security Key for each player, the Start player card, and a sheet of "
            "Enforcement tokens."
        ),
        paper_text=PLAIN,
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
        raise Http404(_("No such printable.")) from None


def by_game() -> list[tuple[str, list[Printable]]]:
    """The printables grouped by game, in registry order (for the index page)."""
    groups: dict[str, list[Printable]] = {}
    for printable in PRINTABLES:
        # Keyed by the lazy string's identity: every printable of a game shares the one object.
        groups.setdefault(id(printable.game_text), []).append(printable)
    return [(group[0].game, group) for group in groups.values()]
