"""Cards and benches are drawn once and kept (games.templatetags.bot_builders): what is served
from the kept drawings must be what a fresh drawing gives, in the language and the projector
mode it is asked for, and a different bench must never get another bench's drawing."""

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import translation

from games.display import bot_builders as display
from games.templatetags import bot_builders as tags

BENCH = Template(
    "{% load bot_builders %}{% bb_bench bench compact=compact heading=heading level=level %}"
)
CARD = Template('{% load bot_builders %}{% bb_card card "small" %}')


@pytest.fixture(autouse=True)
def _nothing_kept():
    tags.DRAWINGS.clear()
    yield
    tags.DRAWINGS.clear()
    translation.deactivate()


def bench(**slots) -> dict:
    return display.bench(slots)


def draw(bench: dict, *, compact=False, heading="Team 2", level=3, bilingual=False) -> str:
    values = {"bench": bench, "compact": compact, "heading": heading, "level": level}
    return BENCH.render(Context({**values, "bilingual": bilingual}))


def fresh(bench: dict, *, compact=False, heading="Team 2", level=3, bilingual=False) -> str:
    """The bench as its template draws it, with nothing kept."""
    values = {"bench": bench, "compact": compact, "heading": heading, "level": level}
    return render_to_string(tags.BENCH_TEMPLATE, {**values, "bilingual": bilingual})


@pytest.mark.parametrize("compact", [False, True])
def test_a_kept_bench_is_the_fresh_drawing(compact):
    built = bench(sense="camera", think="loop_chip")
    first = draw(built, compact=compact)
    assert first == draw(built, compact=compact) == fresh(built, compact=compact)
    assert "Team 2" in first


def test_a_bench_is_drawn_again_for_another_card_score_or_heading():
    one = draw(bench(sense="camera"))
    assert draw(bench(sense="ultrasonic_sensor")) == fresh(bench(sense="ultrasonic_sensor"))
    assert draw(bench(sense="ultrasonic_sensor")) != one
    assert "Team 3" in draw(bench(sense="camera"), heading="Team 3")
    assert "<h2" in draw(bench(sense="camera"), level=2)
    assert "bb-bench-compact" in draw(bench(sense="camera"), compact=True)
    assert "bb-bench-compact" not in draw(bench(sense="camera"))


def test_a_bench_kept_in_english_is_drawn_again_in_spanish():
    built = bench(sense="camera")
    english = draw(built)
    with translation.override("es"):
        spanish = draw(built)
        assert spanish == fresh(built)
    assert ": vacío" in spanish and ": vacío" not in english
    assert draw(built) == english


def test_a_bilingual_projector_is_not_served_the_one_language_drawing():
    built = bench(sense="camera")
    plain = draw(built)
    both = draw(built, bilingual=True)
    assert both == fresh(built, bilingual=True)
    assert 'lang="es"' in both and 'lang="es"' not in plain


def test_a_kept_card_is_the_fresh_drawing_by_id_or_dict():
    by_id = CARD.render(Context({"card": "camera"}))
    by_dict = CARD.render(Context({"card": display.card("camera")}))
    other = CARD.render(Context({"card": "microphone"}))
    expected = render_to_string(
        tags.CARD_TEMPLATE, {"card": display.card("camera"), "size": "small", "bilingual": False}
    )
    assert by_id == by_dict == expected
    assert other != by_id
    assert CARD.render(Context({"card": None})) == ""


def test_the_least_recently_used_drawing_is_dropped_past_the_size():
    drawn = []
    kept = tags.Drawings(2)

    def drawing(name):
        def draw_it():
            drawn.append(name)
            return name

        return draw_it

    for name in ["a", "b", "a", "c", "a", "b"]:
        assert kept.get(name, drawing(name)) == name
    # "b" was the least recently used when "c" came, so it is drawn again; "a" never is.
    assert drawn == ["a", "b", "c", "b"]
