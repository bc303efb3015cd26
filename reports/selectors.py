"""Reads for the four reports. Each builder runs a fixed number of queries whatever the number of
sessions, tables or students (tests/reports/test_selectors.py holds them to it) and returns plain
dataclasses the web pages, the PDFs and the CSV files all draw from.

Results come from `TableGame.results`, the engine's `results()` (best first): Bot-Builders rows
carry score, full_bot, mission_match and four_loop; 3 Laws rows carry vp. Robot seats are shown at
their tables but left out of class averages: they are not the class.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from django.db.models import Avg, Count, F, FloatField, Prefetch, Q
from django.db.models.functions import Cast

from classroom.models import (
    Classroom,
    GameKind,
    School,
    Session,
    SessionStatus,
    Student,
    Team,
    TeamMembership,
)
from games.display import bot_builders as bb_display
from games.engines import bot_builders
from games.models import (
    Assessment,
    CriterionScore,
    TableGame,
    TableMode,
    TableStatus,
    TeachBack,
)
from games.teachback.selectors import rubric_averages, teachbacks_for_session

# Sessions still being prepared have nobody present and nothing played: reports skip them.
REPORTED = ~Q(status=SessionStatus.DRAFT)


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return statistics.fmean(values) if values else None


def _rate(flags: Iterable[bool]) -> float | None:
    flags = list(flags)
    return sum(1 for f in flags if f) / len(flags) if flags else None


def _score_fraction():
    return Avg(Cast("score", FloatField()) / Cast("criterion__max_score", FloatField()))


# -- session -------------------------------------------------------------------------------


@dataclass
class SeatResult:
    team: Team | None
    name: str
    members: list[str]
    seat: str
    place: int | None = None
    score: int | None = None
    full_bot: bool = False
    mission_match: bool = False
    four_loop: bool = False
    vp: int | None = None
    won: bool | None = None
    bench: dict | None = None  # games.display bench dict, Bot-Builders only


@dataclass
class TableReport:
    number: int
    kind: str
    kind_label: str
    status: str
    status_label: str
    mode: str
    seats: list[SeatResult]

    @property
    def finished(self) -> bool:
        return self.status == TableStatus.OVER

    @property
    def is_three_laws(self) -> bool:
        return self.kind == GameKind.THREE_LAWS

    @property
    def winners(self) -> list[str]:
        return [s.name for s in self.seats if s.place == 1]


@dataclass
class SessionReport:
    session: Session
    classroom: Classroom
    school: School
    present: int
    roster: int
    tables: list[TableReport]
    teachbacks: list[TeachBack]
    rubric: list[dict]

    @property
    def three_laws_tables(self) -> list[TableReport]:
        return [t for t in self.tables if t.is_three_laws]

    @property
    def bot_builders_tables(self) -> list[TableReport]:
        return [t for t in self.tables if not t.is_three_laws]


def final_benches(game: TableGame) -> dict[str, dict]:
    """Every seat's final bench of a Bot-Builders game, from the engine's public view (one
    decode per table, not per team); tabletop tables keep the recorded benches in the state.
    Same rules as games.teachback.selectors.final_bench_for."""
    if game.kind != GameKind.BOT_BUILDERS or not game.state:
        return {}
    recorded = game.state.get("benches") or {}
    if game.mode == TableMode.TABLETOP or not game.state.get("seats"):
        return {seat: dict(bench or {}) for seat, bench in recorded.items()}
    return bot_builders.Game.from_dict(game.state).view(None)["benches"]


def _seat_results(game: TableGame, teams_by_seat: dict[str, Team]) -> list[SeatResult]:
    benches = final_benches(game)
    by_seat = {row["seat"]: row for row in game.results or []}
    order = [row["seat"] for row in game.results] if game.results else list(game.seats)
    rows = []
    for seat in order:
        team = teams_by_seat.get(seat)
        result = by_seat.get(seat, {})
        bench = benches.get(seat)
        rows.append(
            SeatResult(
                team=team,
                name=team.name if team else bb_display.name_of(seat, {}),
                members=[m.student.name for m in team.memberships.all()] if team else [],
                seat=seat,
                place=result.get("place"),
                score=result.get("score"),
                full_bot=bool(result.get("full_bot")),
                mission_match=bool(result.get("mission_match")),
                four_loop=bool(result.get("four_loop")),
                vp=result.get("vp"),
                won=result.get("won"),
                bench=bb_display.bench(bench) if bench is not None else None,
            )
        )
    return rows


def session_report(session: Session) -> SessionReport:
    teams = list(
        Team.objects.filter(session=session).prefetch_related(
            Prefetch(
                "memberships",
                queryset=TeamMembership.objects.select_related("student").order_by("student__name"),
            )
        )
    )
    teams_by_seat = {team.seat: team for team in teams}
    games = TableGame.objects.filter(session=session).select_related("table")
    tables = [
        TableReport(
            number=game.table.number,
            kind=game.kind,
            kind_label=game.get_kind_display(),
            status=game.status,
            status_label=game.get_status_display(),
            mode=game.mode,
            seats=_seat_results(game, teams_by_seat),
        )
        for game in games.order_by("table__number")
    ]
    teachbacks = list(teachbacks_for_session(session))
    assessments = Assessment.objects.filter(teachback__team__session=session)
    classroom = session.classroom
    return SessionReport(
        session=session,
        classroom=classroom,
        school=classroom.school,
        present=session.present.count(),
        roster=classroom.students.count(),
        tables=tables,
        teachbacks=teachbacks,
        rubric=rubric_averages(assessments),
    )


# -- class progress ------------------------------------------------------------------------


@dataclass
class SessionPoint:
    """One session of a class, summed up."""

    session: Session
    present: int
    roster: int
    teams: int = 0
    tables: int = 0
    finished_tables: int = 0
    scores: list[int] = field(default_factory=list)
    full_bots: list[bool] = field(default_factory=list)
    mission_matches: list[bool] = field(default_factory=list)
    vps: list[int] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    teachbacks: int = 0
    rubric_fraction: float | None = None

    @property
    def label(self) -> str:
        return f"{self.session.date:%b} {self.session.date.day}"

    @property
    def participation(self) -> float | None:
        return self.present / self.roster if self.roster else None

    @property
    def average_score(self) -> float | None:
        return _mean(self.scores)

    @property
    def best_score(self) -> int | None:
        return max(self.scores) if self.scores else None

    @property
    def full_bot_rate(self) -> float | None:
        return _rate(self.full_bots)

    @property
    def mission_match_rate(self) -> float | None:
        return _rate(self.mission_matches)

    @property
    def vp_total(self) -> int | None:
        return sum(self.vps) if self.vps else None

    @property
    def vp_average(self) -> float | None:
        return _mean(self.vps)


@dataclass
class StudentAttendance:
    student: Student
    sessions: int
    of: int

    @property
    def rate(self) -> float | None:
        return self.sessions / self.of if self.of else None


@dataclass
class ClassReport:
    classroom: Classroom
    school: School
    points: list[SessionPoint]
    rubric: list[dict]
    attendance: list[StudentAttendance]

    @property
    def bot_builders_points(self) -> list[SessionPoint]:
        return [p for p in self.points if p.scores]

    @property
    def three_laws_points(self) -> list[SessionPoint]:
        return [p for p in self.points if p.vps]

    @property
    def average_score(self) -> float | None:
        return _mean(s for p in self.points for s in p.scores)

    @property
    def full_bot_rate(self) -> float | None:
        return _rate(f for p in self.points for f in p.full_bots)

    @property
    def mission_match_rate(self) -> float | None:
        return _rate(f for p in self.points for f in p.mission_matches)

    @property
    def participation(self) -> float | None:
        return _mean(p.participation for p in self.points if p.participation is not None)

    @property
    def rubric_fraction(self) -> float | None:
        total = sum(r["count"] for r in self.rubric)
        if not total:
            return None
        return sum(r["fraction"] * r["count"] for r in self.rubric) / total

    @property
    def trend(self) -> float | None:
        return score_trend(self.points)


def score_trend(points: list[SessionPoint], window: int = 3) -> float | None:
    """Average score of the last `window` Bot-Builders sessions minus that of the first ones
    (None with fewer than two such sessions): a plain number a teacher can read."""
    averages = [p.average_score for p in points if p.scores]
    if len(averages) < 2:
        return None
    size = min(window, len(averages) // 2)
    return statistics.fmean(averages[-size:]) - statistics.fmean(averages[:size])


def _fill_points(
    points: dict[int, SessionPoint], games: Iterable[dict], teams: Iterable[dict]
) -> None:
    """Add the table results (`games`: session_id, status, results) to the points, leaving out
    robot seats; `teams` gives the names of 3 Laws winners and which seats are robots."""
    robots: set[tuple[int, str]] = set()
    names: dict[tuple[int, str], str] = {}
    for team in teams:
        key = (team["session_id"], f"team-{team['number']}")
        names[key] = team["name"]
        if team["is_robot"]:
            robots.add(key)
        elif team["session_id"] in points:
            points[team["session_id"]].teams += 1
    for game in games:
        point = points.get(game["session_id"])
        if point is None:
            continue
        point.tables += 1
        if game["status"] != TableStatus.OVER or not game["results"]:
            continue
        point.finished_tables += 1
        for row in game["results"]:
            key = (game["session_id"], row["seat"])
            if key in robots:
                continue
            if game["kind"] == GameKind.THREE_LAWS:
                point.vps.append(row.get("vp", row.get("score", 0)))
                if row.get("place") == 1:
                    point.winners.append(names.get(key, row["seat"]))
            else:
                point.scores.append(row["score"])
                point.full_bots.append(bool(row.get("full_bot")))
                point.mission_matches.append(bool(row.get("mission_match")))


def _points_for(sessions_filter: Q, roster: dict[int, int]) -> dict[int, SessionPoint]:
    """Every reported session matching `sessions_filter` as a SessionPoint, with its results,
    teach-back counts and rubric average: five queries in all."""
    sessions = (
        Session.objects.filter(sessions_filter & REPORTED)
        .annotate(present_count=Count("present", distinct=True))
        .order_by("date", "created_at", "pk")
    )
    points = {
        s.pk: SessionPoint(session=s, present=s.present_count, roster=roster.get(s.classroom_id, 0))
        for s in sessions
    }
    ids = list(points)
    games = TableGame.objects.filter(session_id__in=ids).values(
        "session_id", "kind", "status", "results"
    )
    teams = Team.objects.filter(session_id__in=ids).values(
        "session_id", "number", "name", "is_robot"
    )
    _fill_points(points, games, teams)
    for row in (
        TeachBack.objects.filter(team__session_id__in=ids)
        .values("team__session_id")
        .annotate(n=Count("id"))
    ):
        points[row["team__session_id"]].teachbacks = row["n"]
    for row in (
        CriterionScore.objects.filter(
            assessment__teachback__team__session_id__in=ids, score__isnull=False
        )
        .values("assessment__teachback__team__session_id")
        .annotate(fraction=_score_fraction())
    ):
        points[row["assessment__teachback__team__session_id"]].rubric_fraction = row["fraction"]
    return points


def class_report(classroom: Classroom) -> ClassReport:
    students = list(classroom.students.order_by("name"))
    points = list(_points_for(Q(classroom=classroom), {classroom.pk: len(students)}).values())
    attended: dict[int, int] = defaultdict(int)
    for row in (
        Session.present.through.objects.filter(session_id__in=[p.session.pk for p in points])
        .values("student_id")
        .annotate(n=Count("session_id"))
    ):
        attended[row["student_id"]] = row["n"]
    assessments = Assessment.objects.filter(teachback__team__session__classroom=classroom)
    return ClassReport(
        classroom=classroom,
        school=classroom.school,
        points=points,
        rubric=rubric_averages(assessments),
        attendance=[StudentAttendance(s, attended[s.pk], len(points)) for s in students],
    )


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

    @property
    def label(self) -> str:
        return f"{self.session.date:%b} {self.session.date.day}"


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
        return _mean(r.score for r in self.scored)


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
        .annotate(teams_at_table=Count("table__teams", filter=Q(table__teams__is_robot=False)))
        .values("table_id", "kind", "status", "results", "teams_at_table")
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
        if game.get("status") == TableStatus.OVER:
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


# -- school overview ------------------------------------------------------------------------


@dataclass
class ClassSummary:
    classroom: Classroom
    students: int
    points: list[SessionPoint]
    rubric_fraction: float | None = None

    @property
    def sessions(self) -> int:
        return len(self.points)

    @property
    def participation(self) -> float | None:
        return _mean(p.participation for p in self.points if p.participation is not None)

    @property
    def average_score(self) -> float | None:
        return _mean(s for p in self.points for s in p.scores)

    @property
    def full_bot_rate(self) -> float | None:
        return _rate(f for p in self.points for f in p.full_bots)

    @property
    def trend(self) -> float | None:
        return score_trend(self.points)

    @property
    def last_session(self) -> date | None:
        return self.points[-1].session.date if self.points else None


@dataclass
class SchoolReport:
    school: School
    classes: list[ClassSummary]
    rubric: list[dict]

    @property
    def sessions(self) -> int:
        return sum(c.sessions for c in self.classes)


def school_report(school: School) -> SchoolReport:
    classes = list(
        Classroom.objects.filter(school=school)
        .select_related("teacher")
        .annotate(student_count=Count("students"))
        .order_by("name")
    )
    roster = {c.pk: c.student_count for c in classes}
    by_class: dict[int, list[SessionPoint]] = defaultdict(list)
    for point in _points_for(Q(classroom__school=school), roster).values():
        by_class[point.session.classroom_id].append(point)
    fractions = {
        row["cls"]: row["fraction"]
        for row in CriterionScore.objects.filter(
            assessment__teachback__team__session__classroom__school=school, score__isnull=False
        )
        .values(cls=F("assessment__teachback__team__session__classroom_id"))
        .annotate(fraction=_score_fraction())
    }
    assessments = Assessment.objects.filter(teachback__team__session__classroom__school=school)
    return SchoolReport(
        school=school,
        classes=[
            ClassSummary(c, c.student_count, by_class.get(c.pk, []), fractions.get(c.pk))
            for c in classes
        ],
        rubric=rubric_averages(assessments),
    )


def school_classes_to_export(school: School) -> list[Classroom]:
    """The classes a whole-school export holds: every class not archived, by name."""
    return list(
        Classroom.objects.filter(school=school, archived_at__isnull=True)
        .select_related("teacher", "school")
        .order_by("name", "pk")
    )
