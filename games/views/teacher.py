"""The teacher's side of live play: start the tables, the dashboard of tables, the controls
over one table, and the step-by-step replay."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from classroom.access import get_session_table
from classroom.http import HtmxHttpRequest, htmx_or_redirect
from classroom.models import Session
from games import services
from games.access import (
    get_game_for_teacher,
    get_game_for_viewer,
    get_session_for_teacher,
    get_session_for_viewer,
)
from games.engine_registry import engine_for
from games.models import TableGame, TableMode
from games.selectors import replay_view, table_info
from games.views.projector import PROJECTOR, render_projector
from games.views.regions import render_dashboard

UNREADABLE = _("That request could not be read: reload the page and try again.")


@require_POST
def start_tables(request: HtmxHttpRequest, session_pk: int) -> HttpResponse:
    session = get_session_for_teacher(request, session_pk)
    try:
        games = services.session_start_tables(session=session, by=request.user)
    except services.ServiceError as exc:
        messages.error(request, str(exc))
        target = session.get_absolute_url()
    else:
        count = len(games)
        playing = ngettext("%(count)d table playing.", "%(count)d tables playing.", count)
        messages.success(request, playing % {"count": count})
        target = reverse("games:teacher_tables", args=[session.pk])
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@require_POST
def table_add_robot(request: HtmxHttpRequest, session_pk: int, table_pk: int) -> HttpResponse:
    """Fill an empty seat of a table that has not started with a robot team."""
    session = get_session_for_teacher(request, session_pk)
    table = get_session_table(session, table_pk)
    notice = error = ""
    try:
        robot = services.table_add_robot(table=table, by=request.user)
        notice = gettext("%(robot)s sits at table %(number)s.") % {
            "robot": robot.name,
            "number": table.number,
        }
    except services.ServiceError as exc:
        error = str(exc)
    return _answer_dashboard(request, session, notice=notice, error=error)


@require_POST
def table_start_one(request: HtmxHttpRequest, session_pk: int, table_pk: int) -> HttpResponse:
    """Deal the game of one table (a table filled or added after the others started)."""
    session = get_session_for_teacher(request, session_pk)
    table = get_session_table(session, table_pk)
    notice = error = ""
    try:
        services.table_start(table=table, by=request.user)
        notice = gettext("Table %(number)s is playing.") % {"number": table.number}
    except services.ServiceError as exc:
        error = str(exc)
    return _answer_dashboard(request, session, notice=notice, error=error)


def _answer_dashboard(
    request: HtmxHttpRequest, session: Session, *, notice: str, error: str
) -> HttpResponse:
    return htmx_or_redirect(
        request,
        functools.partial(render_dashboard, request, session, notice=notice, error=error),
        reverse("games:teacher_tables", args=[session.pk]),
        success=notice,
        error=error,
    )


@require_GET
def teacher_tables(request: HtmxHttpRequest, session_pk: int) -> HttpResponse:
    session = get_session_for_viewer(request, session_pk)
    return render_dashboard(request, session)


CONTROLS: dict[str, tuple[Callable, str]] = {
    "pause": (services.game_pause, _("Table %(n)s is paused.")),
    "resume": (services.game_resume, _("Table %(n)s is playing again.")),
    "robot_turn": (services.game_robot_turn, _("The robot played the turn at table %(n)s.")),
    "undo": (services.game_undo, _("Undone at table %(n)s.")),
    "end_now": (services.game_end_now, _("Table %(n)s is over: the benches are scored.")),
}


def answer_control(
    request: HtmxHttpRequest,
    game: TableGame,
    *,
    notice: str,
    error: str,
    message_done: bool = True,
) -> HttpResponse:
    """The ending of a teacher's move or control on one table: the screen it was posted from
    (the dashboard, or the projector page with `screen=projector`) re-drawn for htmx, or the
    message and a redirect to that page."""
    if request.POST.get("screen") == PROJECTOR:
        redraw = functools.partial(render_projector, request, game, notice=notice, error=error)
        to = reverse("games:projector", args=[game.pk])
    else:
        redraw = functools.partial(
            render_dashboard, request, game.session, notice=notice, error=error
        )
        to = reverse("games:teacher_tables", args=[game.session_id])
    success = notice if message_done else ""
    return htmx_or_redirect(request, redraw, to, success=success, error=error)


@require_POST
def control(request: HtmxHttpRequest, game_id: int, *, name: str) -> HttpResponse:
    """One teacher control (see CONTROLS), made on the table version the dashboard showed.
    Posted from the projector page (`screen=projector`), it answers with that page's region."""
    game = get_game_for_teacher(request, game_id)
    service, done = CONTROLS[name]
    notice = error = ""
    try:
        version = int(request.POST["version"])
    except (KeyError, ValueError):
        error = UNREADABLE
    else:
        try:
            service(game_id=game.pk, by=request.user, expected_version=version)
            notice = str(done) % {"n": game.table.number}
        except services.ServiceError as exc:
            error = gettext("Table %(number)s: %(error)s") % {
                "number": game.table.number,
                "error": exc,
            }
    return answer_control(request, game, notice=notice, error=error)


@require_GET
def replay(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The table after move k of its live log, rebuilt from the seed (?step=k)."""
    game = get_game_for_viewer(request, game_id)
    if game.mode != TableMode.LIVE:
        raise Http404("Tabletop games have no move log to replay.")
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    view, total, moves = replay_view(game, step)
    step = len(moves)
    info = table_info(game)
    engine = engine_for(game)
    display = engine.display
    context = {
        "session": game.session,
        "table": info,
        "view": view,
        "step": step,
        "total": total,
        "steps": range(total + 1),
        "screen": display.public_context(view, info.names),
        "events": display.narrate_moves(moves[-1:], info.names),
        "show_results": False,
        "mover": info.name(moves[-1].seat) if moves else "",
        "screen_template": engine.template("public"),
    }
    return render(request, "games/replay.html", context)
