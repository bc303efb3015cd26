"""What the 3 Laws of Robotics printables show, built from the engine's components."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engines import three_laws
from games.engines.i18n import say
from games.engines.three_laws import components
from games.printables.layout import AVERY_5388, CUT_GRID_12, sheets

# The rulebook's supply is "player count + 2" tokens; the engine computes it inline
# (Game.token_total) and exports no constant, so the rule is restated here.
TOKEN_SUPPLY_EXTRA = 2
# Two full supplies for the largest table: one sheet serves a table with spares to lose.
TOKENS_PER_SHEET = 2 * (components.MAX_SEATS + TOKEN_SUPPLY_EXTRA)


FACTION_LABELS: dict[str, str] = {
    "androids": _("Androids"),
    "cyborgs": _("Cyborgs"),
    "drones": _("Drones"),
}


def faction_label(faction: str) -> str:
    """The faction's name in the active language (ids stay English)."""
    label = FACTION_LABELS.get(faction)
    return str(label) if label is not None else faction.capitalize()


def emblem(faction: str) -> str:
    return f"img/icons/{faction}.svg"


def faction_cards() -> list[dict[str, Any]]:
    """Every faction card any table can use: each faction, ranks 1 to the top rank for 8."""
    top = components.max_rank(components.MAX_SEATS)
    small_table_top = components.max_rank(components.MIN_SEATS)
    return [
        {
            "faction": faction,
            "name": faction_label(faction),
            "member": say(components.A_MEMBER[faction], gettext),
            "rank": rank,
            "emblem": emblem(faction),
            # Rank 5 joins only at the bigger tables: say so on the card.
            "big_tables_only": rank > small_table_top,
        }
        for faction in three_laws.FACTIONS
        for rank in range(1, top + 1)
    ]


def law_cards() -> list[dict[str, Any]]:
    return [
        {"id": law_id, "number": int(law_id.rsplit("_", 1)[1]), "text": say(text, gettext)}
        for law_id, text in three_laws.LAWS.items()
    ]


def victory_point_cards() -> list[dict[str, Any]]:
    return [{"value": value, "pips": range(value)} for value in components.vp_deck()]


def factions_context() -> dict[str, Any]:
    return {
        "sheets": sheets(faction_cards(), AVERY_5388.per_sheet),
        "small_top": components.max_rank(components.MIN_SEATS),
        "big_top": components.max_rank(components.MAX_SEATS),
    }


def laws_context() -> dict[str, Any]:
    return {"sheets": sheets(law_cards(), AVERY_5388.per_sheet)}


def victory_points_context() -> dict[str, Any]:
    return {
        "sheets": sheets(victory_point_cards(), CUT_GRID_12.per_sheet),
        "counts": sorted(components.VP_DECK_COUNTS.items()),
        "total": len(components.vp_deck()),
    }


def keys_tokens_context() -> dict[str, Any]:
    keys: list[dict[str, Any]] = [{"kind": "key"} for _ in range(components.MAX_SEATS)]
    keys.append({"kind": "start"})
    return {
        "keys": keys,
        "max_seats": components.MAX_SEATS,
        "extra": TOKEN_SUPPLY_EXTRA,
        "max_supply": components.MAX_SEATS + TOKEN_SUPPLY_EXTRA,
        "tokens": range(TOKENS_PER_SHEET),
        "token_count": TOKENS_PER_SHEET,
    }
