"""Drawing Bot-Builders cards and benches: `{% load bot_builders %}`."""

from django import template

from games.display import bot_builders as display

register = template.Library()


@register.inclusion_tag("games/bot_builders/_card.html", takes_context=True)
def bb_card(context: template.Context, card, size: str = "") -> dict:
    """A card from its id or from a display dict; `size` "small" or "tiny" for compact places.
    A bilingual projector (`bilingual` in the context) names the card in both languages."""
    if isinstance(card, str):
        card = display.card(card)
    return {"card": card, "size": size, "bilingual": context.get("bilingual", False)}


@register.inclusion_tag("games/bot_builders/_bench.html", takes_context=True)
def bb_bench(
    context: template.Context, bench: dict, compact: bool = False, heading: str = "", level: int = 3
) -> dict:
    """A bench of five slots; `heading` names it at heading `level` (2 where no h2 is above)."""
    return {
        "bench": bench,
        "compact": compact,
        "heading": heading,
        "level": level,
        "bilingual": context.get("bilingual", False),
    }
