"""Class progress and the school overview: sessions summed up over time."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Count, Q

from classroom.models import (
    Classroom,
    GameKind,
    School,
    Session,
    Student,
    Team,
)
from games.models import (
    CriterionScore,
    TableGame,
    TableStatus,
    TeachBack,
)
from games.selectors import has_moves, was_played
from games.teachback.selectors import averages_by_key, criterion_sums
from reports.selectors.common import REPORTED, mean, rate
from reports.templatetags.report_format import format_day

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
    # How many rubric scores `rubric_fraction` averages (the school's class averages weigh by it).
    rubric_scores: int = 0

    @property
    def label(self) -> str:
        # "Oct 1" in English, "1 oct" in Spanish: the chart's axis label.
        return format_day(self.session.date, "short_day")

    @property
    def participation(self) -> float | None:
        return self.present / self.roster if self.roster else None

    @property
    def average_score(self) -> float | None:
        return mean(self.scores)

    @property
    def best_score(self) -> int | None:
        return max(self.scores) if self.scores else None

    @property
    def full_bot_rate(self) -> float | None:
        return rate(self.full_bots)

    @property
    def mission_match_rate(self) -> float | None:
        return rate(self.mission_matches)

    @property
    def vp_total(self) -> int | None:
        return sum(self.vps) if self.vps else None

    @property
    def vp_average(self) -> float | None:
        return mean(self.vps)


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
        return mean(s for p in self.points for s in p.scores)

    @property
    def full_bot_rate(self) -> float | None:
        return rate(f for p in self.points for f in p.full_bots)

    @property
    def mission_match_rate(self) -> float | None:
        return rate(f for p in self.points for f in p.mission_matches)

    @property
    def participation(self) -> float | None:
        return mean(p.participation for p in self.points if p.participation is not None)

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
        # A table ended before any move has all-zero standings, not results.
        if game["status"] != TableStatus.OVER or not game["results"]:
            continue
        if not was_played(moved=game["moved"], results=game["results"]):
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


SESSION_OF_SCORE = "assessment__teachback__team__session_id"


def _points_for(
    sessions_filter: Q, roster: dict[int, int]
) -> tuple[dict[int, SessionPoint], list[dict]]:
    """Every reported session matching `sessions_filter` as a SessionPoint, with its results,
    teach-back counts and rubric average: five queries in all. Also the rubric scores summed
    per session and criterion (`criterion_sums`), from which the report's rubric table is
    made without reading the scores again."""
    sessions = (
        Session.objects.filter(sessions_filter & REPORTED)
        .annotate(present_count=Count("present", distinct=True))
        .order_by("date", "created_at", "pk")
    )
    points = {
        s.pk: SessionPoint(session=s, present=s.present_count, roster=roster.get(s.classroom_id, 0))
        for s in sessions
    }
    # The sessions again as a subquery, not a list of their ids: a school's 2,400 ids bound
    # into four queries cost the driver more than the database took to answer them.
    reported = Session.objects.filter(sessions_filter & REPORTED).values("pk")
    games = (
        TableGame.objects.filter(session_id__in=reported)
        .annotate(moved=has_moves())
        .values("session_id", "kind", "status", "results", "moved")
    )
    teams = Team.objects.filter(session_id__in=reported).values(
        "session_id", "number", "name", "is_robot"
    )
    _fill_points(points, games, teams)
    for row in (
        TeachBack.objects.filter(team__session_id__in=reported)
        .values("team__session_id")
        .annotate(n=Count("id"))
    ):
        points[row["team__session_id"]].teachbacks = row["n"]
    sums = criterion_sums(
        CriterionScore.objects.filter(assessment__teachback__team__session_id__in=reported),
        SESSION_OF_SCORE,
    )
    for row in sums:
        point = points[row[SESSION_OF_SCORE]]
        point.rubric_scores += row["count"]
        point.rubric_fraction = (point.rubric_fraction or 0) + row["fractions"]
    for point in points.values():
        if point.rubric_scores:
            point.rubric_fraction /= point.rubric_scores
    return points, sums


def class_report(classroom: Classroom) -> ClassReport:
    students = list(classroom.students.order_by("name"))
    by_session, sums = _points_for(Q(classroom=classroom), {classroom.pk: len(students)})
    points = list(by_session.values())
    attended: dict[int, int] = defaultdict(int)
    for row in (
        Session.present.through.objects.filter(session_id__in=[p.session.pk for p in points])
        .values("student_id")
        .annotate(n=Count("session_id"))
    ):
        attended[row["student_id"]] = row["n"]
    return ClassReport(
        classroom=classroom,
        school=classroom.school,
        points=points,
        rubric=averages_by_key(sums),
        attendance=[StudentAttendance(s, attended[s.pk], len(points)) for s in students],
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
        return mean(p.participation for p in self.points if p.participation is not None)

    @property
    def average_score(self) -> float | None:
        return mean(s for p in self.points for s in p.scores)

    @property
    def full_bot_rate(self) -> float | None:
        return rate(f for p in self.points for f in p.full_bots)

    @property
    def trend(self) -> float | None:
        return score_trend(self.points)


@dataclass
class SchoolReport:
    school: School
    classes: list[ClassSummary]
    rubric: list[dict]

    @property
    def sessions(self) -> int:
        return sum(c.sessions for c in self.classes)


def _weighed(points: list[SessionPoint]) -> float | None:
    """The rubric average of every score of `points`, from each session's average and count
    (one query for the sessions serves the classes too)."""
    scores = sum(p.rubric_scores for p in points)
    if not scores:
        return None
    return sum(p.rubric_fraction * p.rubric_scores for p in points if p.rubric_scores) / scores


def school_report(school: School) -> SchoolReport:
    classes = list(
        Classroom.objects.filter(school=school)
        .select_related("teacher")
        .annotate(student_count=Count("students"))
        .order_by("name")
    )
    roster = {c.pk: c.student_count for c in classes}
    by_class: dict[int, list[SessionPoint]] = defaultdict(list)
    by_session, sums = _points_for(Q(classroom__school=school), roster)
    for point in by_session.values():
        by_class[point.session.classroom_id].append(point)
    return SchoolReport(
        school=school,
        classes=[
            ClassSummary(c, c.student_count, by_class.get(c.pk, []), _weighed(by_class[c.pk]))
            for c in classes
        ],
        rubric=averages_by_key(sums),
    )


def school_classes_to_export(school: School) -> list[Classroom]:
    """The classes a whole-school export holds: every class not archived, by name."""
    return list(
        Classroom.objects.filter(school=school, archived_at__isnull=True)
        .select_related("teacher", "school")
        .order_by("name", "pk")
    )
