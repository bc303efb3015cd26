"""Who may see and do what with teach-backs, built on classroom.access: a device works only for
its own team in its own session; the class's teacher assesses, locks, edits the rubric and picks
the projector's sentence; the school's administrator reads (PermissionDenied for any write);
anyone else gets a 404."""

from __future__ import annotations

from django.http import Http404, HttpRequest

from classroom import access
from classroom.models import Classroom, GameKind, Session, Team
from games.models import TeachBack


def _bot_builders(session: Session) -> Session:
    if session.game != GameKind.BOT_BUILDERS:
        raise Http404("Teach-back sentences belong to Bot-Builders sessions.")
    return session


def get_team_for_device(request: HttpRequest, session_pk: int) -> Team:
    """The requesting device's own team in `session_pk` (403 for a device of another session,
    404 for a browser that has not joined)."""
    team = access.get_device_team(request, session_pk)
    _bot_builders(team.session)
    return team


def get_session_for_reader(request: HttpRequest, session_pk: int) -> Session:
    """Read the session's sentences and assessments: its teacher or the administrator."""
    return _bot_builders(access.get_session_for_viewer(request, session_pk))


def get_session_for_assessor(request: HttpRequest, session_pk: int) -> Session:
    """Assess, lock, choose the projector's sentence: only the class's teacher."""
    return _bot_builders(access.get_session_for_teacher(request, session_pk))


def get_teachback_in(session: Session, teachback_pk: int | str | None) -> TeachBack:
    """A sentence of `session` (a pk from another session is simply not found)."""
    try:
        return TeachBack.objects.select_related("team__session__classroom").get(
            pk=int(teachback_pk or 0), team__session=session
        )
    except (TeachBack.DoesNotExist, ValueError, TypeError):
        raise Http404("No such sentence in this session.") from None


def get_class_for_rubric_reader(request: HttpRequest, class_pk: int) -> Classroom:
    return access.get_class_for_viewer(request, class_pk)


def get_class_for_rubric_editor(request: HttpRequest, class_pk: int) -> Classroom:
    return access.get_class_for_teacher(request, class_pk)


def can_assess(request: HttpRequest, session: Session) -> bool:
    """Whether to show the scoring forms (the views still check on every write)."""
    return access.is_class_teacher(request.user, session.classroom)
