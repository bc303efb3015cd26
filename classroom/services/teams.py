"""Teams and tables of a session. Every change locks the session row first, so two clicks at
once (or two teachers' tabs) are applied one after the other, never interleaved."""

import random

from django.db import transaction
from django.db.models import Count, Max
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_

from classroom import push
from classroom.models import Session, SessionStatus, Student, Table, Team, TeamMembership, User
from classroom.pairing import MAX_TEAM_SIZE, autopair, robot_name, team_name
from classroom.services.errors import ServiceError
from classroom.services.sessions import require_session_teacher
from classroom.tables import SplitError, seat_limits, split_sizes

_EDITABLE = (SessionStatus.DRAFT, SessionStatus.OPEN)


def _lock(session: Session, *, statuses=_EDITABLE) -> Session:
    locked = Session.objects.select_for_update().select_related("classroom").get(pk=session.pk)
    if locked.status not in statuses:
        if locked.status == SessionStatus.CLOSED:
            raise ServiceError(gettext("This session is closed."))
        raise ServiceError(
            gettext("The tables have started: teams and tables can no longer change.")
        )
    # Every team writer locks first: once it commits, the lobby and waiting phones re-draw.
    push.touch_after_commit(push.lobby_topic(session.pk))
    return locked


def _next_number(queryset) -> int:
    return (queryset.aggregate(top=Max("number"))["top"] or 0) + 1


def _new_team(session: Session) -> Team:
    number = _next_number(Team.objects.filter(session=session))
    return Team.objects.create(session=session, number=number, name=team_name(number))


def _compact_seats(table: Table | None) -> None:
    """Seat positions 0..n-1 in their current order, after a team left or joined."""
    if table is None:
        return
    for position, team in enumerate(table.teams.order_by("seat_position", "number")):
        if team.seat_position != position:
            Team.objects.filter(pk=team.pk).update(seat_position=position)


def drop_empty_teams(session: Session) -> None:
    """Never a team of 0: a human team that lost its last student goes, and its table closes
    up (an emptied table goes too)."""
    empty = list(
        Team.objects.filter(session=session, is_robot=False)
        .annotate(size=Count("memberships"))
        .filter(size=0)
        .select_related("table")
    )
    tables = {team.table for team in empty if team.table}
    Team.objects.filter(pk__in=[team.pk for team in empty]).delete()
    for table in tables:
        _compact_seats(table)
    Table.objects.filter(session=session, teams__isnull=True).delete()


def team_autopair(*, session: Session, by: User, rng: random.Random | None = None) -> list[Team]:
    """Replace all teams (and robot seats and tables) with new shuffled teams of the session's
    team size, made from the students marked present."""
    require_session_teacher(session, by, N_("make the teams"))
    with transaction.atomic():
        locked = _lock(session)
        present = list(locked.present.order_by("pk"))
        if not present:
            raise ServiceError(gettext("Mark who is present first: teams are made from them."))
        locked.tables.all().delete()
        locked.teams.all().delete()
        teams = []
        for number, group in enumerate(autopair(present, locked.team_size, rng), start=1):
            team = Team.objects.create(session=locked, number=number, name=team_name(number))
            TeamMembership.objects.bulk_create(
                TeamMembership(session=locked, team=team, student=student) for student in group
            )
            teams.append(team)
    return teams


def team_move_student(
    *,
    session: Session,
    student: Student,
    by: User,
    team: Team | None = None,
    new_team: bool = False,
) -> Team | None:
    """Put `student` on `team`, on a new team of their own (`new_team`), or on no team."""
    require_session_teacher(session, by, N_("change the teams"))
    if student.classroom_id != session.classroom_id:
        raise ServiceError(gettext("That student is not in this class."))
    if team is not None and (team.session_id != session.pk or team.is_robot):
        raise ServiceError(gettext("Choose one of this session's teams."))
    with transaction.atomic():
        locked = _lock(session)
        current = TeamMembership.objects.filter(session=locked, student=student).first()
        if team is not None and current is not None and current.team_id == team.pk:
            return team
        if team is not None:
            size = TeamMembership.objects.filter(team=team).count()
            if size >= MAX_TEAM_SIZE:
                raise ServiceError(
                    gettext("%(team)s already has %(count)s students.")
                    % {"team": team.name, "count": MAX_TEAM_SIZE}
                )
        if current is not None:
            current.delete()
        target = _new_team(locked) if new_team else team
        if target is not None:
            TeamMembership.objects.create(session=locked, team=target, student=student)
            locked.present.add(student)
        drop_empty_teams(locked)
    return target


def team_add_robot(*, session: Session, by: User, table: Table | None = None) -> Team:
    """A robot seat (no members; the games app plays it), seated last at `table` if given."""
    require_session_teacher(session, by, N_("add a robot seat"))
    if table is not None and table.session_id != session.pk:
        raise ServiceError(gettext("Choose one of this session's tables."))
    statuses = (*_EDITABLE, SessionStatus.PLAYING)
    with transaction.atomic():
        locked = _lock(session, statuses=statuses)
        number = _next_number(Team.objects.filter(session=locked))
        position = table.teams.count() if table is not None else 0
        return Team.objects.create(
            session=locked,
            number=number,
            name=robot_name(number),
            is_robot=True,
            table=table,
            seat_position=position,
        )


def team_remove_robot(*, team: Team, by: User) -> None:
    require_session_teacher(team.session, by, N_("remove a robot seat"))
    if not team.is_robot:
        raise ServiceError(gettext("Only robot seats can be removed; move the students instead."))
    with transaction.atomic():
        locked = _lock(team.session)
        table = team.table
        Team.objects.filter(pk=team.pk, session=locked).delete()
        _compact_seats(table)
        Table.objects.filter(session=locked, teams__isnull=True).delete()


def tables_autosplit(*, session: Session, by: User) -> list[Table]:
    """Seat every team at as few tables as the game allows, sizes as even as possible."""
    require_session_teacher(session, by, N_("make the tables"))
    with transaction.atomic():
        locked = _lock(session)
        limits = seat_limits(locked.game, locked.variant)
        teams = list(locked.teams.order_by("is_robot", "number"))
        seated = [team for team in teams if not (limits.humans_only and team.is_robot)]
        try:
            sizes = split_sizes(len(seated), limits)
        except SplitError as exc:
            raise ServiceError(str(exc)) from None
        locked.tables.all().delete()
        Team.objects.filter(session=locked).update(table=None, seat_position=0)
        # Deal teams round-robin so robot seats (sorted last) spread over the tables.
        tables = [Table.objects.create(session=locked, number=n + 1) for n in range(len(sizes))]
        order = [i for round_ in range(max(sizes)) for i, s in enumerate(sizes) if round_ < s]
        filled = [0] * len(sizes)
        for team, index in zip(seated, order, strict=True):
            Team.objects.filter(pk=team.pk).update(table=tables[index], seat_position=filled[index])
            filled[index] += 1
    return tables


def team_set_table(
    *, team: Team, by: User, table: Table | None = None, new_table: bool = False
) -> Team:
    """Move a team to `table`, to a new table (`new_table`), or off every table; it sits last."""
    require_session_teacher(team.session, by, N_("change the tables"))
    if table is not None and table.session_id != team.session_id:
        raise ServiceError(gettext("Choose one of this session's tables."))
    with transaction.atomic():
        locked = _lock(team.session)
        team = Team.objects.select_related("table").get(pk=team.pk)
        if table is not None and team.table_id == table.pk:
            return team
        if new_table:
            table = Table.objects.create(
                session=locked, number=_next_number(Table.objects.filter(session=locked))
            )
        previous = team.table
        team.table = table
        team.seat_position = table.teams.count() if table is not None else 0
        team.save(update_fields=["table", "seat_position"])
        _compact_seats(previous)
        Table.objects.filter(session=locked, teams__isnull=True).delete()
    return team
