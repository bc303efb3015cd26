"""Report charts as SVG, drawn by pygal.

The same SVG serves the web page and the PDF, embedded as a `data:image/svg+xml` image: the site's
Content Security Policy forbids the `<style>` and `<script>` a pygal SVG carries inline in a page,
but not inside an image (which can run no script at all). pygal's own JavaScript is switched off.

Charts must read on a grayscale printout: series differ by dash pattern and dot shape as well as
colour, lines are thick, and the type is large enough at 6.5 inches wide.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Sequence
from dataclasses import dataclass

import pygal
from django.utils.translation import gettext
from pygal.style import Style

WIDTH = 760
HEIGHT = 340
# Dark, well-separated colours that stay distinct in grayscale (light to dark).
COLOURS = ("#1f4fa3", "#c2410c", "#17703a", "#6a1b9a", "#46506a")
DASHES = ("", "12, 6", "3, 5", "14, 5, 3, 5")
STYLE = Style(
    background="#ffffff",
    plot_background="#ffffff",
    foreground="#16213e",
    foreground_strong="#16213e",
    foreground_subtle="#b8bfcf",
    opacity="0.85",
    opacity_hover="0.95",
    colors=COLOURS,
    font_family="DejaVu Sans, Verdana, sans-serif",
    label_font_size=16,
    major_label_font_size=16,
    legend_font_size=17,
    title_font_size=20,
    value_font_size=15,
    tooltip_font_size=15,
    stroke_width="3",
    guide_stroke_color="#d5d9e4",
    major_guide_stroke_color="#b8bfcf",
)


@dataclass(frozen=True)
class Chart:
    title: str
    svg: bytes
    # What the chart shows, in words: the image's alt text (the tables hold the numbers).
    description: str

    @property
    def uri(self) -> str:
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg).decode("ascii")


def _options(labels: Sequence[str]) -> dict:
    # More than ten dates do not fit side by side: label every other (every third...) one
    # rather than rotating them into the legend.
    every = max(1, -(-len(labels) // 10))
    return {
        "style": STYLE,
        "js": [],
        "width": WIDTH,
        "height": HEIGHT,
        "explicit_size": False,
        "legend_at_bottom": True,
        "legend_at_bottom_columns": 3,
        "truncate_legend": -1,
        "x_label_rotation": 0,
        "truncate_label": -1,
        "x_labels_major_every": every,
        "show_minor_x_labels": every == 1,
        "margin": 12,
        # pygal measures text with its own estimate; DejaVu runs wider in WeasyPrint and
        # Chromium, and the bottom legend would be clipped without this room.
        "margin_bottom": 34,
        "spacing": 12,
        "no_data_text": gettext("No results yet"),
        "pretty_print": False,
        "disable_xml_declaration": True,
    }


def _svg(chart: pygal.graph.graph.Graph) -> bytes:
    # Without the XML declaration pygal returns text; the image wants bytes.
    return chart.render(is_unicode=True).encode("utf-8")


def _number(value: float) -> str:
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


def _percent(value: float | None) -> float | None:
    return None if value is None else round(value * 100, 1)


def line_chart(
    title: str,
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None]]],
    *,
    description: str,
    percent: bool = False,
    y_max: float | None = None,
) -> Chart:
    chart = pygal.Line(
        **_options(labels),
        show_dots=True,
        dots_size=5,
        allow_interruptions=True,
        range=(0, 100 if percent else y_max) if (percent or y_max) else None,
        print_values=False,
        include_x_axis=True,
        value_formatter=(lambda v: f"{v:.0f}%") if percent else _number,
    )
    if y_max and not percent:
        chart.y_labels = list(range(0, int(y_max) + 1, 2))
    chart.title = title
    chart.x_labels = list(labels)
    for i, (name, values) in enumerate(series):
        values = [_percent(v) for v in values] if percent else list(values)
        chart.add(
            name,
            values,
            stroke_style={"width": 4, "dasharray": DASHES[i % len(DASHES)], "linecap": "round"},
        )
    return Chart(title, _svg(chart), description)


def bar_chart(
    title: str,
    labels: Sequence[str],
    series: Sequence[tuple[str, Sequence[float | None]]],
    *,
    description: str,
    percent: bool = False,
    horizontal: bool = False,
) -> Chart:
    kind = pygal.HorizontalBar if horizontal else pygal.Bar
    options = _options(labels)
    if horizontal:
        options["x_label_rotation"] = 0
        options["height"] = max(HEIGHT, 120 + 46 * len(labels) * max(1, len(series)))
    chart = kind(
        **options,
        range=(0, 100) if percent else None,
        include_x_axis=True,
        print_values=True,
        print_values_position="top",
        value_formatter=(lambda v: f"{v:.0f}%") if percent else (lambda v: f"{v:g}"),
        show_legend=len(series) > 1,
    )
    if not percent:
        # Whole-number steps: pygal's own ticks go by 0.2 for small values.
        top = max((v for _, values in series for v in values if v is not None), default=0)
        chart.y_labels = list(range(0, math.ceil(top) + 1, max(1, math.ceil(top / 8))))
    chart.title = title
    # pygal draws horizontal bars bottom-up: reverse them so they read top-down like the table.
    order = (lambda items: list(items)[::-1]) if horizontal else list
    chart.x_labels = order(labels)
    for name, values in series:
        chart.add(name, order(_percent(v) for v in values) if percent else order(values))
    return Chart(title, _svg(chart), description)
