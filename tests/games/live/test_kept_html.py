"""Drawn HTML kept in the cache (games.kept_html): drawn once a key, served with each request's
own values in its holes, never kept when the drawing says it is not the key's."""

from django.core.cache import cache

from games.kept_html import kept, kept_each, punched

HOLE = "bbHoleTestValue"


def counting(html: str | None):
    """A draw that records each time it is called."""
    calls: list[str | None] = []

    def draw() -> str | None:
        calls.append(html)
        return html

    return draw, calls


def test_a_drawing_is_drawn_once_and_served_with_each_request_s_value(db):
    draw, calls = counting(f'<input name="id" value="{HOLE}"><p>{HOLE}</p>')
    first = kept("test:one", draw, {HOLE: "alpha"})
    second = kept("test:one", draw, {HOLE: "beta"})
    assert first == '<input name="id" value="alpha"><p>alpha</p>'
    assert second == '<input name="id" value="beta"><p>beta</p>'
    assert len(calls) == 1
    # What is kept holds the hole, not the first request's value.
    assert "alpha" not in next(iter(cache.get_many(["test:one"]).values()))


def test_a_drawing_made_with_a_viewer_s_value_is_kept_with_its_hole(db):
    html = '<a href="/poll/?t=tok123&amp;v=1">poll</a>'
    kept("test:punched", lambda: punched(html, {HOLE: "tok123"}), {HOLE: "tok123"})
    served = kept("test:punched", lambda: "never drawn", {HOLE: "tok456"})
    assert served == '<a href="/poll/?t=tok456&amp;v=1">poll</a>'


def test_a_draw_that_finds_another_key_s_drawing_keeps_nothing(db):
    refused, calls = counting(None)
    assert kept("test:refused", refused, {}) is None
    assert kept("test:refused", refused, {}) is None
    assert len(calls) == 2
    assert cache.get_many(["test:refused"]) == {}


def test_several_drawings_are_read_at_once_and_only_the_missing_ones_drawn(db):
    kept("test:a", lambda: f"a {HOLE}", {HOLE: "x"})
    draw_a, calls_a = counting("not this")
    draw_b, calls_b = counting(f"b {HOLE}")
    served = kept_each([("test:a", draw_a, {HOLE: "1"}), ("test:b", draw_b, {HOLE: "2"})])
    assert served == ["a 1", "b 2"]
    assert calls_a == [] and len(calls_b) == 1
    assert kept_each([("test:b", draw_b, {HOLE: "3"})]) == ["b 3"]
    assert len(calls_b) == 1
