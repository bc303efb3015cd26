"""A team device's live region, drawn once a table version and served from the cache, with the
viewer's own values put in as it is served.

After a move every screen of the table fetches its region again. A seat's drawing goes to more
than one request: each student of a team may join on their own device, and one screen may
fetch a version twice (its stream's event and its fallback poll, a reconnect after a restart,
a move's own answer and then the stream's refetch). Working the region out and drawing it (the
engine's view, the narration, the template) is most of a redraw's cost, and only three values
in it belong to one device: the CSRF token of its forms, the id that makes a double tap one
move, and the signed watch token in its poll URL. The cached copy holds a placeholder for each.

Secrets: the drawing is one seat's (`view(seat)`), keyed by that seat, and served only after
`get_game_for_device` (or, for a poll, `get_seat_version`: the same rule in one query) has
seated the requesting device there, as the uncached drawing is.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlsplit

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation

from games import live
from games.access import DeviceSeat, SeatVersion, get_seat_version
from games.views.screens import device_screen, device_watch, new_client_move_id

TEMPLATE = "games/device.html#live"
# A drawing is asked for within seconds of its version (the stream's refetch, the 10 s fallback
# poll, a teammate's phone); kept longer, a busy school's drawings would fill Redis (about 10 KB
# a seat and move). A key names its version, so nothing stale is ever served either way.
TTL = 60
# Placeholders: plain letters, so HTML escaping and URL encoding leave them as they are.
CSRF_HOLE = "bbHoleCsrfToken"
MOVE_HOLE = "bbHoleClientMoveId"
WATCH_HOLE = "bbHoleWatchToken"


def region_key(game_id: int, seat: str, now: SeatVersion) -> str:
    """Everything the drawing depends on: the table's version (every move and control changes
    it), its status, the seat and team (whose name is fixed when it is made), and the language
    it is drawn in."""
    table = f"{game_id}:{now.version}:{now.status}"
    return f"games:region:device:{table}:{seat}:{now.team_id}:{translation.get_language()}"


def _watch_in_url(token: str) -> str:
    return urlencode({"t": token})[2:]


def _serve(request: HttpRequest, drawn: str, watch: live.Watch) -> HttpResponse:
    mine = {
        CSRF_HOLE: get_token(request),
        MOVE_HOLE: new_client_move_id(),
        WATCH_HOLE: _watch_in_url(live.mint(watch)),
    }
    for hole, value in mine.items():
        drawn = drawn.replace(hole, value)
    return HttpResponse(drawn)


def cached_device_region(request: HttpRequest, watch: live.Watch) -> HttpResponse | None:
    """The region a device's poll asks for, if its seat's drawing of the table's version is in
    the cache and `get_seat_version` finds the device still plays that seat there: one query.
    None otherwise (the poll then checks and draws as `device_region`)."""
    now = get_seat_version(request, watch)
    if now is None:
        return None
    drawn = cache.get(region_key(watch.game_ids[0], watch.seat, now))
    return None if drawn is None else _serve(request, drawn, watch)


def device_region(request: HttpRequest, ds: DeviceSeat) -> HttpResponse:
    """The device's live region as `device_screen` draws it (with no error to show)."""
    game = ds.game
    now = SeatVersion(team_id=ds.team.pk, version=game.version, status=game.status)
    key = region_key(game.pk, ds.seat, now)
    drawn = cache.get(key)
    if drawn is not None:
        return _serve(request, drawn, device_watch(ds))
    csrf = get_token(request)
    context = device_screen(ds)
    html = render_to_string(TEMPLATE, {**context, "csrf_token": csrf}, request)
    token = parse_qs(urlsplit(context["live_url"]).query)["t"][0]
    punched = html
    for value, hole in (
        (csrf, CSRF_HOLE),
        (context["client_move_id"], MOVE_HOLE),
        (_watch_in_url(token), WATCH_HOLE),
    ):
        punched = punched.replace(value, hole)
    cache.set(key, punched, TTL)
    return HttpResponse(html)
