"""The session report: tables, places, final benches, teach-backs."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from classroom.models import (
    Classroom,
    GameKind,
    School,
    Session,
    Team,
    TeamMembership,
)
from games.display import bot_builders as bb_display
from games.engine_registry import final_benches
from games.models import (
    Assessment,
    TableGame,
    TableStatus,
    TeachBack,
)
from games.selectors import has_moves, was_played
from games.teachback.selectors import rubric_averages, teachbacks_for_session

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
    tied: bool = False  # another team of the table shares this place


@dataclass
class TableReport:
    number: int
    kind: str
    kind_label: str
    status: str
    status_label: str
    mode: str
    seats: list[SeatResult]
    played: bool = True  # False: ended before any move, so no places

    @property
    def finished(self) -> bool:
        return self.status == TableStatus.OVER

    @property
    def ranked(self) -> bool:
        """Places mean something: the table finished after at least one move."""
        return self.finished and self.played

    @property
    def is_three_laws(self) -> bool:
        return self.kind == GameKind.THREE_LAWS

    @property
    def winners(self) -> list[str]:
        return [s.name for s in self.seats if s.place == 1] if self.ranked else []


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


def _seat_results(game: TableGame, teams_by_seat: dict[str, Team]) -> list[SeatResult]:
    benches = final_benches(game)
    by_seat = {row["seat"]: row for row in game.results or []}
    order = [row["seat"] for row in game.results] if game.results else list(game.seats)
    places = [row.get("place") for row in game.results or []]
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
                tied=result.get("place") is not None and places.count(result.get("place")) > 1,
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
    games = (
        TableGame.objects.filter(session=session)
        .select_related("table")
        .annotate(moved=has_moves())
    )
    tables = [
        TableReport(
            number=game.table.number,
            kind=game.kind,
            kind_label=game.get_kind_display(),
            status=game.status,
            status_label=game.get_status_display(),
            mode=game.mode,
            seats=_seat_results(game, teams_by_seat),
            played=was_played(moved=game.moved, results=game.results),
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
