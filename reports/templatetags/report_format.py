"""Numbers as the reports print them: `{% load report_format %}`, then `value|pct`,
`value|num`, `value|signed`. None prints as an en dash (nothing to show yet)."""

from django import template

register = template.Library()
NOTHING = "–"


@register.filter
def pct(value: float | None) -> str:
    return NOTHING if value is None else f"{value * 100:.0f}%"


@register.filter
def num(value: float | None, digits: int = 1) -> str:
    return NOTHING if value is None else f"{value:.{int(digits)}f}"


@register.filter
def signed(value: float | None) -> str:
    """A trend: +1.5, −0.7 or 0.0, with a real minus sign."""
    if value is None:
        return NOTHING
    if abs(value) < 0.05:
        return "0.0"
    return f"+{value:.1f}" if value > 0 else f"−{abs(value):.1f}"


@register.filter
def trend_word(value: float | None) -> str:
    if value is None:
        return "not enough sessions"
    if value >= 0.5:
        return "rising"
    if value <= -0.5:
        return "falling"
    return "steady"


@register.filter
def ordinal(value: int | None) -> str:
    if value is None:
        return NOTHING
    suffix = "th" if 10 <= value % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
    return f"{value}{suffix}"
