"""The projector: one table's public view, or every table of a session as a grid.

Read by the class's teacher (the projector runs on their computer) or the school's
administrator; both only ever see `view(None)`. The projector speaks the language the lobby chose
for the session (`Session.projector_language`), not the teacher's: English, Spanish, or both
lines (English first) for a bilingual classroom.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_GET

from classroom.access import is_class_teacher
from classroom.language import projector_language
from classroom.models import ProjectorLanguage, Session
from games.access import get_game_for_viewer, get_session_for_viewer
from games.models import TableGame
from games.views.screens import CHANGING, grid_screen, projector_screen

# The `screen` a control was posted from, when it is the one-table projector page.
PROJECTOR = "projector"


def render_for_projector(
    request: HttpRequest, session: Session, template: str, context: dict
) -> HttpResponse:
    """Draw a projector page, or its live region, in the session's projector language. For
    both languages the page is drawn in English with `bilingual` set, and each text wrapped in
    `{% bilingual %}` says itself again in Spanish."""
    language = projector_language(session)
    with translation.override(language or ProjectorLanguage.ENGLISH):
        return render(request, template, {**context, "bilingual": language is None})


def _can_control(request: HttpRequest, game) -> bool:
    return is_class_teacher(request.user, game.session.classroom)


def render_projector(
    request: HttpRequest, game: TableGame, *, notice: str = "", error: str = ""
) -> HttpResponse:
    """The projector's live region after a control made from it (re-read: the table moved)."""
    game.refresh_from_db(fields=CHANGING)
    context = projector_screen(
        game, request.user.pk, can_control=_can_control(request, game), notice=notice, error=error
    )
    return render_for_projector(request, game.session, "games/projector.html#live", context)


@require_GET
def projector(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_game_for_viewer(request, game_id)
    context = projector_screen(game, request.user.pk, can_control=_can_control(request, game))
    return render_for_projector(request, game.session, "games/projector.html", context)


@require_GET
def projector_grid(request: HttpRequest, session_pk: int) -> HttpResponse:
    session = get_session_for_viewer(request, session_pk)
    context = grid_screen(session, request.user.pk)
    return render_for_projector(request, session, "games/projector_grid.html", context)
