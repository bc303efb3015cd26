"""Numbers and dates as the reports print them, in the active language: `{% load report_format %}`,
then `value|pct`, `value|num`, `value|signed`, `date|day` and friends. None prints as an en dash
(nothing to show yet).

Numbers go through Django's localisation (a decimal comma in Spanish); dates use a pattern per
language (`pgettext("report date", ...)`), so the English pages read exactly as before and the
Spanish ones say "1 oct 2026" with Django's own month names.
"""

from __future__ import annotations

import datetime

from django import template
from django.utils.dateformat import format as date_format
from django.utils.formats import number_format
from django.utils.translation import gettext, pgettext

register = template.Library()

NOTHING = "–"


@register.filter
def pct(value: float | None) -> str:
    return NOTHING if value is None else f"{number_format(round(value * 100), 0)}%"


@register.filter
def num(value: float | None, digits: int = 1) -> str:
    return NOTHING if value is None else number_format(value, int(digits))


@register.filter
def signed(value: float | None) -> str:
    """A trend: +1.5, −0.7 or 0.0, with a real minus sign."""
    if value is None:
        return NOTHING
    if abs(value) < 0.05:
        return number_format(0.0, 1)
    magnitude = number_format(abs(value), 1)
    return f"+{magnitude}" if value > 0 else f"−{magnitude}"


TREND_WORDS = ("rising", "falling", "steady")


@register.filter
def trend_word(value: float | None) -> str:
    """The trend's CSS word (rising, falling, steady): an id, never translated."""
    if value is None:
        return "none"
    if value >= 0.5:
        return "rising"
    if value <= -0.5:
        return "falling"
    return "steady"


@register.filter
def trend_label(value: float | None) -> str:
    """The trend in words, in the active language."""
    word = trend_word(value)
    if word == "rising":
        return pgettext("score trend", "rising")
    if word == "falling":
        return pgettext("score trend", "falling")
    if word == "steady":
        return pgettext("score trend", "steady")
    return gettext("not enough sessions")


@register.filter
def ordinal(value: int | None) -> str:
    if value is None:
        return NOTHING
    if 10 <= value % 100 <= 20:
        text = pgettext("place", "%(number)sth")
    else:
        text = {
            1: pgettext("place", "%(number)sst"),
            2: pgettext("place", "%(number)snd"),
            3: pgettext("place", "%(number)srd"),
        }.get(value % 10) or pgettext("place", "%(number)sth")
    return text % {"number": value}


def _pattern(name: str) -> str:
    # Django date-format patterns (see the `date` filter); Spanish says day before month.
    patterns = {
        "day": pgettext("report date: month day, year", "M j, Y"),
        "short_day": pgettext("report date: month day", "M j"),
        "long_day": pgettext("report date: weekday, month day, year", "l, F j, Y"),
        "long_date": pgettext("report date: month day, year, long", "F j, Y"),
        "stamp": pgettext("report time stamp", "F j, Y, g:i a"),
        "short_stamp": pgettext("report time stamp, short", "M j, g:i a"),
        "stamp_with_year": pgettext("report time stamp, with year", "M j, Y g:i a"),
    }
    return patterns[name]


def format_day(value: datetime.date | datetime.datetime | None, name: str = "day") -> str:
    """`value` in the report date pattern `name`, in the active language (for Python callers:
    chart labels)."""
    if value is None:
        return NOTHING
    return date_format(value, _pattern(name))


@register.filter(expects_localtime=True)
def day(value, name: str = "day") -> str:
    """`{{ date|day }}` (Oct 1, 2026), `|day:"short_day"`, `"long_day"`, `"long_date"`,
    `"stamp"`, `"short_stamp"`, `"stamp_with_year"`."""
    return format_day(value, name)


@register.simple_tag
def page_of_pages() -> str:
    """The PDF's "Page 2 of 5" as a CSS `content` value, in the active language."""
    from django.utils.safestring import mark_safe

    from games.printables.layout import css_page_counter

    # css_page_counter quotes and escapes the words: safe inside the template's <style>.
    return mark_safe(css_page_counter(gettext("Page %(page)s of %(pages)s")))  # noqa: S308
