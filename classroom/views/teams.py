"""Teams and tables of a session: auto-pair, move a student, robot seats, auto-split, move a
team. Every view answers an htmx request with the setup region and a plain POST by redirect."""

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from classroom import access, services
from classroom.views.sessions import setup_step

_ID = forms.IntegerField(min_value=1)


def _choice(request: HttpRequest, field: str) -> tuple[int | None, bool]:
    """A select's value: an id, "new", or "" (none). Anything else is a 404 (a forged form).
    The id is read by a form field: `str.isdigit` accepts "²", which `int` refuses."""
    value = request.POST.get(field, "")
    if value == "new":
        return None, True
    if value == "":
        return None, False
    try:
        return _ID.clean(value), False
    except ValidationError:
        raise Http404("No such choice.") from None


@login_required
@require_POST
def team_autopair(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    return setup_step(
        request,
        session,
        lambda: services.team_autopair(session=session, by=request.user),
        lambda teams: (
            ngettext(
                "%(count)s team made. Now split them into tables.",
                "%(count)s teams made. Now split them into tables.",
                len(teams),
            )
            % {"count": len(teams)}
        ),
    )


@login_required
@require_POST
def team_move(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    student_pk, _ = _choice(request, "student")
    if student_pk is None:
        raise Http404("No student chosen.")
    student = access.get_session_student(session, student_pk)
    team_pk, new_team = _choice(request, "team")
    team = access.get_session_team(session, team_pk) if team_pk else None
    return setup_step(
        request,
        session,
        lambda: services.team_move_student(
            session=session, student=student, team=team, new_team=new_team, by=request.user
        ),
        lambda target: (
            gettext("%(student)s is now on %(team)s.")
            % {"student": student.name, "team": target.name}
            if target
            else gettext("%(student)s is now on no team.") % {"student": student.name}
        ),
    )


@login_required
@require_POST
def team_add_robot(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    table_pk, _ = _choice(request, "table")
    table = access.get_session_table(session, table_pk) if table_pk else None
    return setup_step(
        request,
        session,
        lambda: services.team_add_robot(session=session, table=table, by=request.user),
        lambda robot: gettext("%(team)s added.") % {"team": robot.name},
    )


@login_required
@require_POST
def team_remove_robot(request: HttpRequest, pk: int, team_pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    team = access.get_session_team(session, team_pk)
    return setup_step(
        request,
        session,
        lambda: services.team_remove_robot(team=team, by=request.user),
        lambda _: gettext("%(team)s removed.") % {"team": team.name},
    )


@login_required
@require_POST
def tables_autosplit(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    return setup_step(
        request,
        session,
        lambda: services.tables_autosplit(session=session, by=request.user),
        lambda tables: (
            ngettext(
                "Teams split into %(count)s table.",
                "Teams split into %(count)s tables.",
                len(tables),
            )
            % {"count": len(tables)}
        ),
    )


@login_required
@require_POST
def team_table(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    team_pk, _ = _choice(request, "team")
    if team_pk is None:
        raise Http404("No team chosen.")
    team = access.get_session_team(session, team_pk)
    table_pk, new_table = _choice(request, "table")
    table = access.get_session_table(session, table_pk) if table_pk else None
    return setup_step(
        request,
        session,
        lambda: services.team_set_table(
            team=team, table=table, new_table=new_table, by=request.user
        ),
        lambda moved: (
            gettext("%(team)s is now at %(table)s.") % {"team": moved.name, "table": moved.table}
            if moved.table
            else gettext("%(team)s is now at no table.") % {"team": moved.name}
        ),
    )
