"""Teams and tables of a session: auto-pair, move a student, robot seats, auto-split, move a
team. Every view answers an htmx request with the setup region and a plain POST by redirect."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from classroom import access, services
from classroom.views.sessions import render_setup


def _choice(request: HttpRequest, field: str) -> tuple[int | None, bool]:
    """A select's value: an id, "new", or "" (none). Anything else is a 404 (a forged form)."""
    value = request.POST.get(field, "")
    if value == "new":
        return None, True
    if value == "":
        return None, False
    if not value.isdigit():
        raise Http404("No such choice.")
    return int(value), False


@login_required
@require_POST
def team_autopair(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    try:
        teams = services.team_autopair(session=session, by=request.user)
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"{len(teams)} teams made. Now split them into tables.")
    return render_setup(request, session)


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
    try:
        target = services.team_move_student(
            session=session, student=student, team=team, new_team=new_team, by=request.user
        )
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    else:
        where = target.name if target else "no team"
        messages.success(request, f"{student.name} is now on {where}.")
    return render_setup(request, session)


@login_required
@require_POST
def team_add_robot(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    table_pk, _ = _choice(request, "table")
    table = access.get_session_table(session, table_pk) if table_pk else None
    try:
        robot = services.team_add_robot(session=session, table=table, by=request.user)
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"{robot.name} added.")
    return render_setup(request, session)


@login_required
@require_POST
def team_remove_robot(request: HttpRequest, pk: int, team_pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    team = access.get_session_team(session, team_pk)
    try:
        services.team_remove_robot(team=team, by=request.user)
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"{team.name} removed.")
    return render_setup(request, session)


@login_required
@require_POST
def tables_autosplit(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.get_session_for_teacher(request, pk)
    try:
        tables = services.tables_autosplit(session=session, by=request.user)
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    else:
        noun = "table" if len(tables) == 1 else "tables"
        messages.success(request, f"Teams split into {len(tables)} {noun}.")
    return render_setup(request, session)


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
    try:
        team = services.team_set_table(team=team, table=table, new_table=new_table, by=request.user)
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    else:
        where = str(team.table) if team.table else "no table"
        messages.success(request, f"{team.name} is now at {where}.")
    return render_setup(request, session)
