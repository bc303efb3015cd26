"""Live regions drawn once a table version and served from the cache, with the viewer's own
values put in as each is served: a team device's, and the projector grid's.

After a move every screen of the table fetches its region again. A seat's drawing goes to more
than one request: each student of a team may join on their own device, and one screen may
fetch a version twice (its stream's event and its fallback poll, a reconnect after a restart,
a move's own answer and then the stream's refetch). Working the region out and drawing it (the
engine's view, the narration, the template) is most of a redraw's cost, and only three values
in it belong to one device: the CSRF token of its forms, the id that makes a double tap one
move, and the signed watch token in its poll URL. The cached copy holds a placeholder for each.

The projector grid is redrawn on every move of every table of the session, by each of the
class's grids (the projector, the teacher's laptop, an administrator looking in). Its drawing
holds one value of its viewer's: the signed watch token in its poll URL.

The teacher's dashboard is redrawn on every move of every table of the session too, and only
the moved table's row changes: each row is kept, with holes for the CSRF token of its forms
and the move id of its facilitator buttons, the two values of its viewer's it holds (the
dashboard's watch token is outside the rows).

Secrets: a device's drawing is one seat's (`view(seat)`), keyed by that seat, and served only
after `get_game_for_device` (or, for a poll, `get_seat_version`: the same rule in one query) has
seated the requesting device there, as the uncached drawing is. The grid shows `view(None)` only,
and is served only after `get_session_versions` (get_session_for_viewer's rule in one query),
as the uncached drawing is. A dashboard row shows `view(None)` only, and its teacher's controls
are kept apart from the rows drawn without them (`can_control` is in the key); the rows are
drawn for a viewer whom `get_session_for_viewer` has let see the session.
"""

from __future__ import annotations

import hashlib
from urllib.parse import parse_qs, urlencode, urlsplit

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from classroom.access import is_class_teacher
from classroom.models import Session
from games import live
from games.access import (
    DeviceSeat,
    SeatVersion,
    get_seat_version,
    get_session_for_viewer,
    get_session_versions,
)
from games.views.projector import render_for_projector
from games.views.screens import (
    DashboardRow,
    dashboard_screen,
    device_screen,
    device_watch,
    grid_screen,
    new_client_move_id,
)

TEMPLATE = "games/device.html#live"
GRID_TEMPLATE = "games/projector_grid.html#live"
DASHBOARD_ROW_TEMPLATE = "games/_dashboard_row.html"
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


def _punch(html: str, values: dict[str, str]) -> str:
    """The drawing to keep: each viewer's value replaced by its hole."""
    for hole, value in values.items():
        html = html.replace(value, hole)
    return html


def _filled(drawn: str, values: dict[str, str]) -> str:
    """The kept drawing with this viewer's value in each hole."""
    for hole, value in values.items():
        drawn = drawn.replace(hole, value)
    return drawn


def _fill(drawn: str, values: dict[str, str]) -> HttpResponse:
    return HttpResponse(_filled(drawn, values))


def _serve(request: HttpRequest, drawn: str, watch: live.Watch) -> HttpResponse:
    return _fill(
        drawn,
        {
            CSRF_HOLE: get_token(request),
            MOVE_HOLE: new_client_move_id(),
            WATCH_HOLE: _watch_in_url(live.mint(watch)),
        },
    )


def cached_device_region(request: HttpRequest, watch: live.Watch) -> HttpResponse | None:
    """The region a device's poll asks for, if its seat's drawing of the table's version is in
    the cache and `get_seat_version` finds the device still plays that seat there: one query.
    None otherwise (the poll then checks and draws as `device_region`)."""
    now = get_seat_version(request, watch)
    if now is None:
        return None
    key = region_key(watch.game_ids[0], watch.seat, now)
    drawn = cache.get(key)
    if drawn is None:
        # device_region draws it next; it need not ask the cache a second time.
        request.region_missed = key
        return None
    return _serve(request, drawn, watch)


def device_region(request: HttpRequest, ds: DeviceSeat) -> HttpResponse:
    """The device's live region as `device_screen` draws it (with no error to show)."""
    game = ds.game
    now = SeatVersion(team_id=ds.team.pk, version=game.version, status=game.status)
    key = region_key(game.pk, ds.seat, now)
    drawn = None if getattr(request, "region_missed", None) == key else cache.get(key)
    if drawn is not None:
        return _serve(request, drawn, device_watch(ds))
    csrf = get_token(request)
    context = device_screen(ds)
    html = render_to_string(TEMPLATE, {**context, "csrf_token": csrf}, request)
    holes = {
        CSRF_HOLE: csrf,
        MOVE_HOLE: context["client_move_id"],
        WATCH_HOLE: _token_in_url(context),
    }
    cache.set(key, _punch(html, holes), TTL)
    return HttpResponse(html)


def _token_in_url(context: dict) -> str:
    return _watch_in_url(parse_qs(urlsplit(context["live_url"]).query)["t"][0])


def _digest(drawn: tuple) -> str:
    return hashlib.blake2s(repr(drawn).encode(), digest_size=16).hexdigest()


def grid_key(session: Session, shown: str) -> str:
    """Everything the grid's drawing depends on: the fingerprint its poll URL shows (each
    table's version, and the stamp that changes when tables are dealt: the teams in a dealt
    table's seats are fixed), and the session's title, date, game (its name when untitled) and
    projector language. Hashed, as the fingerprint grows with the tables and a title may hold
    any character."""
    digest = _digest((shown, session.title, session.date, session.game, session.projector_language))
    return f"games:region:grid:{session.pk}:{digest}"


def grid_region(request: HttpRequest, seen: live.Fingerprint) -> HttpResponse:
    """The live region of the projector grid of the session `seen` watches, if the request may
    read the session: from the cache if a grid of the class has drawn its tables' versions (as
    the database has them now) and the session stamp the poll just read, else drawn and kept."""
    watch = seen.watch
    now = get_session_versions(request, watch.session_id)
    if now is None:  # not allowed: get_session_for_viewer says so (404)
        session = get_session_for_viewer(request, watch.session_id)
    else:
        session = now.session
        shown = live.Watch(live.GRID, session.pk, tuple(now.versions), user_id=watch.user_id)
        drawn = cache.get(
            grid_key(session, live.Fingerprint(shown, now.versions, seen.stamp).render())
        )
        if drawn is not None:
            return _fill(drawn, {WATCH_HOLE: _watch_in_url(live.mint(shown))})
    context = grid_screen(session, watch.user_id)
    response = render_for_projector(request, session, GRID_TEMPLATE, context)
    drawn = _punch(response.content.decode(), {WATCH_HOLE: _token_in_url(context)})
    cache.set(grid_key(session, context["live_version"]), drawn, TTL)
    return response


def dashboard_row_key(row: DashboardRow) -> str:
    """The row's `fragment_key` and the language it is drawn in, hashed: the key holds team
    names, which may hold any character."""
    digest = _digest((row.fragment_key, translation.get_language()))
    return f"games:region:dashboard-row:{row.table.pk}:{digest}"


def dashboard_rows(request: HttpRequest, session: Session, rows: list[DashboardRow]) -> list[str]:
    """Each row's drawing, from the cache where a dashboard of the class drew it, with this
    request's CSRF token and a move id of its own put in; the others drawn and kept."""
    keys = [dashboard_row_key(row) for row in rows]
    kept = cache.get_many(keys)
    drawn: list[SafeString] = []
    new: dict[str, str] = {}
    csrf = get_token(request)
    for key, row in zip(keys, rows, strict=True):
        html = kept.get(key)
        if html is None:
            context = {
                "row": {**row.context, "client_move_id": MOVE_HOLE},
                "session": session,
                "can_control": row.can_control,
                "csrf_token": CSRF_HOLE,
            }
            html = new[key] = render_to_string(DASHBOARD_ROW_TEMPLATE, context)
        # One move id a row: each table dedupes its own double taps.
        filled = _filled(html, {CSRF_HOLE: csrf, MOVE_HOLE: new_client_move_id()})
        drawn.append(mark_safe(filled))  # noqa: S308 -- drawn by our template, autoescaped
    if new:
        cache.set_many(new, TTL)
    return drawn


def render_dashboard(
    request: HttpRequest, session: Session, template: str, *, notice: str = "", error: str = ""
) -> HttpResponse:
    """The teacher's dashboard of the session's tables (the page, or its live region), for a
    viewer `get_session_for_viewer` has let see it; with the controls for the class's teacher."""
    can_control = is_class_teacher(request.user, session.classroom)
    context = dashboard_screen(
        session, request.user.pk, can_control=can_control, notice=notice, error=error
    )
    context["rows"] = dashboard_rows(request, session, context["rows"])
    return render(request, template, context)
