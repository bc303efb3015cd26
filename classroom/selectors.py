"""Reads for classroom pages: querysets with what each page needs, no N+1."""

import datetime
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from classroom import sql, statements
from classroom.access import classes_visible_to
from classroom.models import (
    Classroom,
    DeviceBinding,
    Invitation,
    LtiCourse,
    LtiPerson,
    Role,
    School,
    Session,
    SessionStatus,
    Student,
    Team,
    TeamMembership,
    User,
)
from classroom.tables import seat_limits, table_problems

REVIEW_DAYS = 14


def classes_with_counts(user: User, *, archived: bool | None = False) -> QuerySet[Classroom]:
    classes = classes_visible_to(user).select_related("teacher")
    if archived is not None:
        classes = classes.filter(archived_at__isnull=not archived)
    return classes.annotate(
        student_count=Count("students", distinct=True),
        session_count=Count("sessions", distinct=True),
    )


def _sessions_of(user: User) -> QuerySet[Session]:
    return Session.objects.filter(classroom__in=classes_visible_to(user)).select_related(
        "classroom"
    )


def sessions_upcoming(user: User) -> QuerySet[Session]:
    """Today's and later sessions that are not closed, plus any still open from an earlier
    day (forgotten open sessions keep their room code busy), soonest first."""
    today = timezone.localdate()
    live = Q(status__in=[SessionStatus.OPEN, SessionStatus.PLAYING])
    ahead = Q(date__gte=today) & ~Q(status=SessionStatus.CLOSED)
    return _sessions_of(user).filter(live | ahead).order_by("date", "created_at")


def sessions_awaiting_assessment(user: User) -> QuerySet[Session]:
    """Sessions to review: for now, those closed in the last REVIEW_DAYS days. The reports or
    games app may narrow this to sessions with unassessed teach-backs."""
    since = timezone.now() - datetime.timedelta(days=REVIEW_DAYS)
    return (
        _sessions_of(user)
        .filter(status=SessionStatus.CLOSED, closed_at__gte=since)
        .order_by("-closed_at")
    )


def class_roster(classroom: Classroom) -> QuerySet[Student]:
    """The roster; `left_lms` marks a student the LMS roster sync archived (left the course)."""
    departed = LtiPerson.objects.filter(student=OuterRef("pk"), departed_at__isnull=False)
    return classroom.students.annotate(left_lms=Exists(departed)).order_by("name")


def class_lti_course(classroom: Classroom) -> LtiCourse | None:
    """The LMS course the class is taught in, if it is linked to one."""
    return LtiCourse.objects.filter(classroom=classroom).first()


def class_sessions(classroom: Classroom) -> QuerySet[Session]:
    return classroom.sessions.annotate(
        team_count=Count("teams", distinct=True), present_count=Count("present", distinct=True)
    ).order_by("-date", "-created_at")


@dataclass(frozen=True)
class DeletionCounts:
    students: int
    sessions: int
    teams: int
    devices: int


def class_deletion_counts(classroom: Classroom) -> DeletionCounts:
    return DeletionCounts(
        students=classroom.students.count(),
        sessions=classroom.sessions.count(),
        teams=Team.objects.filter(session__classroom=classroom).count(),
        devices=DeviceBinding.objects.filter(session__classroom=classroom).count(),
    )


def session_teams(session: Session) -> list[Team]:
    members = Prefetch(
        "memberships",
        queryset=TeamMembership.objects.select_related("student").order_by("student__name"),
    )
    return list(session.teams.select_related("table").prefetch_related(members).order_by("number"))


def session_seating(session: Session) -> list[dict]:
    """The seating plan: each table (`{"table", "teams"}`) with its teams in seat order."""
    tables = {table.pk: {"table": table, "teams": []} for table in session.tables.all()}
    for team in session_teams(session):
        if team.table_id in tables:
            tables[team.table_id]["teams"].append(team)
    for entry in tables.values():
        entry["teams"].sort(key=lambda team: team.seat_position)
    return list(tables.values())


def session_table_problems(session: Session, tables: list[dict], teams: list[Team]) -> list[str]:
    limits = seat_limits(session.game, session.variant)
    counted = [
        entry
        for entry in tables
        if entry["teams"]  # an empty table is removed by the services anyway
    ]
    sizes = {
        entry["table"].number: sum(
            1 for team in entry["teams"] if not (limits.humans_only and team.is_robot)
        )
        for entry in counted
    }
    problems = table_problems(sizes, limits)
    unseated = [team.name for team in teams if team.table_id is None and not team.is_robot]
    if tables and unseated:
        problems.append(gettext("Not at a table yet: %(teams)s.") % {"teams": ", ".join(unseated)})
    return problems


def students_without_team(session: Session) -> list[Student]:
    """Students present (or joined) but on no team yet."""
    on_team = TeamMembership.objects.filter(session=session).values("student_id")
    return list(session.present.exclude(pk__in=on_team).order_by("name"))


def session_devices(session: Session) -> QuerySet[DeviceBinding]:
    return session.devices.filter(revoked_at__isnull=True).select_related("student")


def joinable_students(session: Session, current: DeviceBinding | None) -> list[Student]:
    """Names a device may pick: students not bound to another device, plus its own."""
    bound = session_devices(session)
    if current is not None:
        bound = bound.exclude(pk=current.pk)
    return list(
        session.classroom.students.exclude(pk__in=bound.values("student_id")).order_by("name")
    )


def join_names(session: Session, current: DeviceBinding | None) -> list[tuple[Student, bool]]:
    """Every name of the class with whether another device holds it (a taken name is still
    listed, so a student on a replacement phone sees theirs and what to do)."""
    bound = session_devices(session)
    if current is not None:
        bound = bound.exclude(pk=current.pk)
    taken = set(bound.values_list("student_id", flat=True))
    return [(student, student.pk in taken) for student in class_roster(session.classroom)]


@dataclass(frozen=True)
class JoinedDevice:
    """A device joined under a student's name, as the tables dashboard lists it for freeing."""

    binding_id: int
    student_name: str


def session_devices_by_table(session: Session) -> dict[int | None, list[JoinedDevice]]:
    """The session's joined devices by the table of their student's team (None: no table),
    names in order, in one query (`classroom.statements.DEVICES_BY_TABLE`): the dashboard draws
    them again after every move."""
    by_table: dict[int | None, list[JoinedDevice]] = {}
    for binding_id, name, table_id in sql.all_rows(statements.DEVICES_BY_TABLE, [session.pk]):
        by_table.setdefault(table_id, []).append(JoinedDevice(binding_id, name))
    return by_table


def lobby_teams(session: Session) -> dict:
    """Who has joined, by team, for the projector."""
    joined = set(session_devices(session).values_list("student_id", flat=True))
    teams = []
    for team in session_teams(session):
        if team.is_robot:
            continue
        members = [(m.student, m.student_id in joined) for m in team.memberships.all()]
        teams.append({"team": team, "members": members, "joined": sum(j for _, j in members)})
    on_team = {m.student_id for t in teams for m in t["team"].memberships.all()}
    loose = list(
        Student.objects.filter(pk__in=joined - on_team).order_by("name")
    )  # joined but not on a team yet
    return {"teams": teams, "loose": loose, "joined_count": len(joined)}


def device_teammates(binding: DeviceBinding) -> tuple[Team | None, list[Student]]:
    membership = (
        TeamMembership.objects.filter(session_id=binding.session_id, student_id=binding.student_id)
        .select_related("team__table")
        .first()
    )
    if membership is None:
        return None, []
    mates = list(membership.team.members.exclude(pk=binding.student_id).order_by("name"))
    return membership.team, mates


def school_overview(school: School) -> dict:
    teachers = (
        User.objects.filter(school=school)
        .annotate(class_count=Count("classes", distinct=True))
        .order_by("role", "display_name", "email")
    )
    classes = (
        Classroom.objects.filter(school=school)
        .select_related("teacher")
        .annotate(
            student_count=Count("students", distinct=True),
            session_count=Count("sessions", distinct=True),
        )
        .order_by("teacher__display_name", "name")
    )
    sessions = (
        Session.objects.filter(classroom__school=school)
        .select_related("classroom__teacher")
        .order_by("-date", "-created_at")[:100]
    )
    invitations = Invitation.objects.filter(
        school=school, accepted_at__isnull=True, expires_at__gt=timezone.now()
    ).select_related("invited_by")
    return {
        "teachers": teachers,
        "admins": [u for u in teachers if u.role == Role.ADMINISTRATOR],
        "classes": classes,
        "sessions": sessions,
        "invitations": invitations,
    }


def student_export_data(student: Student) -> dict:
    """Everything classroom knows about one student (the games and reports apps add theirs)."""
    memberships = (
        TeamMembership.objects.filter(student=student)
        .select_related("team", "session")
        .order_by("session__date")
    )
    teams_by_session = {m.session_id: m.team for m in memberships}
    sessions = Session.objects.filter(
        Q(present=student) | Q(pk__in=teams_by_session.keys())
    ).distinct()
    return {
        "student": {
            "name": student.name,
            "birth_month": student.birth_month or None,
            "class": student.classroom.name,
            "school": student.classroom.school.name,
            "added": student.created_at.isoformat(),
        },
        "sessions": [
            {
                "date": session.date.isoformat(),
                "game": session.get_game_display(),
                "variant": session.get_variant_display(),
                "status": session.get_status_display(),
                "team": (
                    {
                        "name": teams_by_session[session.pk].name,
                        "teammates": [
                            m.name
                            for m in teams_by_session[session.pk].members.exclude(pk=student.pk)
                        ],
                    }
                    if session.pk in teams_by_session
                    else None
                ),
            }
            for session in sessions.order_by("date", "pk")
        ],
    }
