"""Live regions kept through games.kept_html: drawn once and served to every screen they fit,
each with its viewer's own values put in.

A team device's region is drawn once a table version, seat and language: each student of a
team may join on their own device, and one screen may fetch a version twice (its stream's event
and its fallback poll, a reconnect after a restart, a move's own answer and then the stream's
refetch). Two values in it belong to one device: the id that makes a double tap one move, and
the signed watch token in its poll URL. It holds no CSRF token: it is drawn only for htmx, whose
requests carry the page's.

The projector grid is redrawn on every move of every table of the session, by each of the
class's grids (the projector, the teacher's laptop, an administrator looking in): it is kept
whole with a hole for its viewer's watch token, and each table's cell is kept too, so a grid
drawn after a move draws only the cell of the table that moved.

The teacher's dashboard is redrawn on every move of every table of the session too, and only
the moved table's row changes: each row is kept, with holes for the CSRF token of its forms
and the move id of its facilitator buttons (the dashboard's watch token is outside the rows).

Secrets: a device's drawing is one seat's (`view(seat)`), keyed by that seat, and served only
after `get_game_for_device` (or, for a poll, `get_seat_version`: the same rule in one query) has
seated the requesting device there, as the uncached drawing is. The grid shows `view(None)` only,
and is served only after `get_session_versions` (get_session_for_viewer's rule in one query),
as the uncached drawing is. A dashboard row shows `view(None)` only, and its teacher's controls
are kept apart from the rows drawn without them (`can_control` is in the key); the rows are
drawn for a viewer whom `get_session_for_viewer` (or, for a poll, `get_session_versions`) has
let see the session.
"""

from __future__ import annotations

import hashlib
from urllib.parse import parse_qs, urlencode, urlsplit

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString

from classroom.access import is_class_teacher
from classroom.http import HtmxHttpRequest
from classroom.models import Session
from classroom.watch import GRID, Watch, mint
from games import live
from games.access import (
    DeviceSeat,
    SeatVersion,
    get_game_for_device,
    get_seat_version,
    get_session_for_viewer,
    get_session_versions,
)
from games.kept_html import Holes, kept, kept_each, punched
from games.views.projector import render_for_projector
from games.views.screens import (
    DashboardRow,
    GridCell,
    dashboard_screen,
    device_screen,
    device_watch,
    grid_screen,
    new_client_move_id,
)

TEMPLATE = "games/device.html#live"
GRID_TEMPLATE = "games/projector_grid.html#live"
DASHBOARD_TEMPLATE = "games/teacher_tables.html"
DASHBOARD_REGION = "games/teacher_tables.html#live"
DASHBOARD_ROW_TEMPLATE = "games/_dashboard_row.html"
# The holes of a live drawing (see games.kept_html.Holes).
CSRF_HOLE = "bbHoleCsrfToken"
MOVE_HOLE = "bbHoleClientMoveId"
WATCH_HOLE = "bbHoleWatchToken"


def _watch_in_url(token: str) -> str:
    return urlencode({"t": token})[2:]


def _drawn_watch(context: dict) -> str:
    """The watch token of a drawn screen's context, as its poll URL holds it."""
    return _watch_in_url(parse_qs(urlsplit(context["live_url"]).query)["t"][0])


def _digest(drawn: tuple) -> str:
    return hashlib.blake2s(repr(drawn).encode(), digest_size=16).hexdigest()


# -- A team device's region ------------------------------------------------------------------


def region_key(game_id: int, seat: str, now: SeatVersion) -> str:
    """Everything the drawing depends on: the table's version (every move and control changes
    it), its status, the seat and team (whose name is fixed when it is made), and the language
    it is drawn in."""
    table = f"{game_id}:{now.version}:{now.status}"
    return f"games:region:device:{table}:{seat}:{now.team_id}:{translation.get_language()}"


def _seat_key(ds: DeviceSeat) -> str:
    now = SeatVersion(team_id=ds.team.pk, version=ds.game.version, status=ds.game.status)
    return region_key(ds.game.pk, ds.seat, now)


def _device_holes(watch: Watch) -> Holes:
    return {MOVE_HOLE: new_client_move_id(), WATCH_HOLE: _watch_in_url(mint(watch))}


def _draw_device(request: HttpRequest, ds: DeviceSeat) -> str:
    context = device_screen(ds)
    # Drawn for htmx only (a poll, a move's answer), so its forms post through htmx, which sends
    # the page's CSRF token (base.html's hx-headers): the forms hold none (`{% if csrf_token %}`),
    # and Django masks no token for each response (docs/architecture.md, "What keeps a redraw
    # cheap").
    context.update(csrf_token="", client_move_id=MOVE_HOLE)
    html = render_to_string(TEMPLATE, context, request)
    return punched(html, {WATCH_HOLE: _drawn_watch(context)})


def device_region(request: HttpRequest, ds: DeviceSeat) -> HttpResponse:
    """The device's live region as `device_screen` draws it (with no error to show), for a
    device `get_game_for_device` has seated at `ds`."""
    holes = _device_holes(device_watch(ds))
    return HttpResponse(kept(_seat_key(ds), lambda: _draw_device(request, ds), holes))


def cached_device_region(request: HttpRequest, watch: Watch) -> HttpResponse | None:
    """The region a device's poll asks for, checked and then kept or drawn: None when
    `get_seat_version` does not find the device playing the watched seat (the poll then asks
    `get_game_for_device` what to answer: 404, 403 or a reload). When a device of the seat has
    drawn the table's version, this is one query."""
    now = get_seat_version(request, watch)
    if now is None:
        return None
    key = region_key(watch.game_ids[0], watch.seat, now)

    def draw() -> str | None:
        ds = get_game_for_device(request, watch.game_ids[0])
        # Read a moment later than `now`: a drawing of anything but that seat's version (a
        # move came in between) is not kept under its key, and the poll draws it afresh.
        return _draw_device(request, ds) if _seat_key(ds) == key else None

    drawn = kept(key, draw, _device_holes(watch))
    return None if drawn is None else HttpResponse(drawn)


# -- The projector grid -----------------------------------------------------------------------


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
    read the session: kept by the tables' versions (as the database has them now) and the
    session stamp the poll just read."""
    watch = seen.watch
    now = get_session_versions(request, watch.session_id)
    if now is None:  # not allowed: get_session_for_viewer says so (404)
        session = get_session_for_viewer(request, watch.session_id)
        context = grid_screen(session, watch.user_id)
        return render_for_projector(request, session, GRID_TEMPLATE, context)
    session = now.session
    shown = Watch(GRID, session.pk, tuple(now.versions), user_id=watch.user_id)
    key = grid_key(session, live.Fingerprint(shown, now.versions, seen.stamp).render())

    def draw() -> str:
        context = grid_screen(session, watch.user_id)
        response = render_for_projector(request, session, GRID_TEMPLATE, context)
        return punched(response.content.decode(), {WATCH_HOLE: _drawn_watch(context)})

    return HttpResponse(kept(key, draw, {WATCH_HOLE: _watch_in_url(mint(shown))}))


def grid_cells(cells: list[GridCell], *, bilingual: bool) -> list[SafeString]:
    """Each cell of a grid (`{% grid_cells %}`, in the projector's language): kept by table
    version, language and projector mode, as every grid of the class shows the same."""
    language = translation.get_language()

    def draw(cell: GridCell) -> str:
        values = {
            "table": cell.table,
            "screen": cell.screen,
            "events": cell.events,
            "results": cell.results,
            "bilingual": bilingual,
        }
        return render_to_string(cell.compact_template, values)

    def key(cell: GridCell) -> str:
        digest = _digest((cell.fragment_key, language, bilingual))
        return f"games:region:grid-cell:{cell.table.pk}:{digest}"

    return kept_each([(key(cell), lambda cell=cell: draw(cell), {}) for cell in cells])


# -- The teacher's dashboard -----------------------------------------------------------------


def dashboard_row_key(row: DashboardRow) -> str:
    """The row's `fragment_key` and the language it is drawn in, hashed: the key holds team
    names, which may hold any character."""
    digest = _digest((row.fragment_key, translation.get_language()))
    return f"games:region:dashboard-row:{row.table.pk}:{digest}"


def dashboard_rows(request: HttpRequest, session: Session, rows: list[DashboardRow]) -> list[str]:
    """Each row's drawing, kept by its `fragment_key`, with this request's CSRF token and a
    move id of its own put in."""
    csrf = get_token(request)

    def draw(row: DashboardRow) -> str:
        context = {
            "row": {**row.context, "client_move_id": MOVE_HOLE},
            "session": session,
            "can_control": row.can_control,
            "csrf_token": CSRF_HOLE,
        }
        return render_to_string(DASHBOARD_ROW_TEMPLATE, context)

    return kept_each(
        [
            # One move id a row: each table dedupes its own double taps.
            (
                dashboard_row_key(row),
                lambda row=row: draw(row),
                {CSRF_HOLE: csrf, MOVE_HOLE: new_client_move_id()},
            )
            for row in rows
        ]
    )


def render_dashboard(
    request: HtmxHttpRequest,
    session: Session,
    *,
    notice: str = "",
    error: str = "",
) -> HttpResponse:
    """The teacher's dashboard of the session's tables, for a viewer `get_session_for_viewer`
    has let see it, with the controls for the class's teacher: its live region for htmx (a
    control's answer, the poll), the page otherwise."""
    template = DASHBOARD_REGION if request.htmx else DASHBOARD_TEMPLATE
    can_control = is_class_teacher(request.user, session.classroom)
    context = dashboard_screen(
        session, request.user.pk, can_control=can_control, notice=notice, error=error
    )
    context["rows"] = dashboard_rows(request, session, context["rows"])
    return render(request, template, context)
