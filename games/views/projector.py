"""The projector: one table's public view, or every table of a session as a grid.

Read by the class's teacher (the projector runs on their computer) or the school's
administrator; both only ever see `view(None)`.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.access import get_game_for_viewer, get_session_for_viewer
from games.views.screens import grid_screen, projector_screen

# The `screen` a control was posted from, when it is the one-table projector page.
PROJECTOR = "projector"


def render_projector(
    request: HttpRequest, game_id: int, *, notice: str = "", error: str = ""
) -> HttpResponse:
    """The projector's live region after a control made from it (re-read: the table moved)."""
    game = get_game_for_viewer(request, game_id)
    context = projector_screen(game, request.user.pk, notice=notice, error=error)
    return render(request, "games/projector.html#live", context)


@require_GET
def projector(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_game_for_viewer(request, game_id)
    return render(request, "games/projector.html", projector_screen(game, request.user.pk))


@require_GET
def projector_grid(request: HttpRequest, session_pk: int) -> HttpResponse:
    session = get_session_for_viewer(request, session_pk)
    return render(request, "games/projector_grid.html", grid_screen(session, request.user.pk))
