"""One student's progress, for a parent."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q

from classroom.models import (
    Classroom,
    GameKind,
    School,
    Session,
    Student,
    Team,
    TeamMembership,
)
from games.models import (
    CriterionScore,
    TableGame,
    TableStatus,
    TeachBack,
)
from games.selectors import has_moves, was_played
from reports.selectors.common import REPORTED, mean
from reports.templatetags.report_format import format_day

# -- student progress -----------------------------------------------------------------------


@dataclass
class StudentSession:
    session: Session
    team: Team
    table: int | None
    kind: str
    teams_at_table: int = 0
    place: int | None = None
    score: int | None = None
    full_bot: bool = False
    mission_match: bool = False
    vp: int | None = None
    teachback: TeachBack | None = None
    not_played: bool = False  # the table was ended before any move

    @property
    def label(self) -> str:
        # "Oct 1" in English, "1 oct" in Spanish: the chart's axis label.
        return format_day(self.session.date, "short_day")


@dataclass
class StudentReport:
    """One student's record, for a parent: the first name, the sessions, team names, results and
    sentences. Teammates' names are left out on purpose (other families' children)."""

    student: Student
    classroom: Classroom
    school: School
    rows: list[StudentSession]
    sessions_held: int

    @property
    def scored(self) -> list[StudentSession]:
        return [r for r in self.rows if r.score is not None and r.kind == GameKind.BOT_BUILDERS]

    @property
    def average_score(self) -> float | None:
        return mean(r.score for r in self.scored)


def student_report(student: Student) -> StudentReport:
    memberships = list(
        TeamMembership.objects.filter(student=student, session__in=Session.objects.filter(REPORTED))
        .select_related("team__session", "team__table")
        .order_by("team__session__date", "team__session__created_at")
    )
    teams = [m.team for m in memberships]
    games = {
        g["table_id"]: g
        for g in TableGame.objects.filter(table_id__in=[t.table_id for t in teams if t.table_id])
        .annotate(
            teams_at_table=Count("table__teams", filter=Q(table__teams__is_robot=False)),
            moved=has_moves(),
        )
        .values("table_id", "kind", "status", "results", "teams_at_table", "moved")
    }
    teachbacks = {
        tb.team_id: tb
        for tb in TeachBack.objects.filter(team__in=teams)
        .select_related("assessment__rubric")
        .prefetch_related(
            Prefetch(
                "assessment__scores",
                queryset=CriterionScore.objects.select_related("criterion").order_by(
                    "criterion__position"
                ),
            )
        )
    }
    rows = []
    for team in teams:
        game = games.get(team.table_id) or {}
        row = StudentSession(
            session=team.session,
            team=team,
            table=team.table.number if team.table_id else None,
            kind=game.get("kind") or team.session.game,
            teams_at_table=game.get("teams_at_table", 0),
            teachback=teachbacks.get(team.pk),
        )
        row.not_played = game.get("status") == TableStatus.OVER and not was_played(
            moved=game["moved"], results=game["results"]
        )
        if game.get("status") == TableStatus.OVER and not row.not_played:
            result = next((r for r in game.get("results") or [] if r["seat"] == team.seat), {})
            row.place = result.get("place")
            row.score = result.get("score")
            row.full_bot = bool(result.get("full_bot"))
            row.mission_match = bool(result.get("mission_match"))
            row.vp = result.get("vp")
        rows.append(row)
    held = Session.objects.filter(REPORTED, classroom_id=student.classroom_id).count()
    classroom = student.classroom
    return StudentReport(
        student=student, classroom=classroom, school=classroom.school, rows=rows, sessions_held=held
    )
