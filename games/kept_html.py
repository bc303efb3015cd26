"""Drawn HTML kept in the cache and served to every request it fits, each with its own values.

One drawing goes to many requests: a seat's region to each phone of the team and to each fetch
of one screen (its stream's refetch, its fallback poll, a reconnect), the projector grid and the
dashboard's rows to every screen of the class. Working a drawing out and drawing it is most of
what such a request costs. A drawing may hold a few values that belong to one viewer (the CSRF
token of its forms, the id that makes a double tap one move, the signed watch token in its poll
URL): it is kept with a placeholder, a *hole*, where each of them goes, and each request gets it
with its own values put in.

A key names everything its drawing depends on (a table's version among them), so a kept drawing
is never stale and nothing deletes one: it expires. The keys, their lifetimes and who fills them
are listed in docs/architecture.md, "Caches".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe

# A drawing is asked for within seconds of its version (the stream's refetch, the 10 s fallback
# poll, a teammate's phone); kept longer, a busy school's drawings would fill Redis (about 10 KB
# a seat and move). A key names its version, so nothing stale is ever served either way.
TTL = 60

# Draws the HTML with each hole where a viewer's value goes; None when what it found may not be
# kept under the key asked for (see `kept`).
Draw = Callable[[], str | None]
# This request's value for each hole, by hole. Holes are plain letters ("bbHoleCsrfToken"), so
# HTML escaping and URL encoding leave them as they are; values are put in as they are, so they
# hold no HTML (tokens and ids of letters, digits and URL characters).
Holes = Mapping[str, str]


def punched(html: str, values: Holes) -> str:
    """`html` with each value of `values` replaced by its hole: for a drawing made with a
    viewer's own values in it."""
    for hole, value in values.items():
        html = html.replace(value, hole)
    return html


def filled(drawn: str, values: Holes) -> SafeString:
    """The kept drawing with this request's value in each hole."""
    for hole, value in values.items():
        drawn = drawn.replace(hole, value)
    return mark_safe(drawn)  # noqa: S308 -- drawn by our templates, autoescaped; see Holes


def kept(key: str, draw: Draw, holes: Holes) -> SafeString | None:
    """The drawing kept under `key`, with `holes` filled in; when the cache does not have it,
    `draw()` draws it, and it is kept for the next requests.

    `draw` may find, as it reads, that what it would draw is not what `key` names (the seat it
    checked is not the key's): it then returns None, nothing is kept and None is returned."""
    # `get`, not `kept_each`'s `get_many` of one key: a device's redraw from the cache is little
    # more than its seat check and this read, and the backend's get_many costs more than a get.
    drawn = cache.get(key)
    if drawn is None:
        drawn = draw()
        if drawn is None:
            return None
        cache.set(key, drawn, TTL)
    return filled(drawn, holes)


def kept_each(wanted: Sequence[tuple[str, Draw, Holes]]) -> list[SafeString | None]:
    """`kept` for several drawings (the rows or cells of one region): one cache read for all of
    them, and one write for those drawn."""
    found = cache.get_many([key for key, _, _ in wanted])
    new: dict[str, str] = {}
    served: list[SafeString | None] = []
    for key, draw, holes in wanted:
        drawn = found.get(key)
        if drawn is None:
            drawn = draw()
            if drawn is not None:
                new[key] = drawn
        served.append(None if drawn is None else filled(drawn, holes))
    if new:
        cache.set_many(new, TTL)
    return served
