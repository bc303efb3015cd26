"""Results grouped by standard, for the class and student reports: the rubric scores of the
criteria that carry each code, and the sessions of the games that carry it. Three queries.

The school's row is read once: which codes count, and each game's."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count

from classroom.models import Classroom, School, Session, Student
from games.models import CriterionScore, RubricCriterion
from reports.models import SchoolStandards
from reports.selectors.common import REPORTED
from reports.standards import (
    BY_CODE,
    GAME_STANDARDS,
    STANDARDS,
    Standard,
    criterion_codes,
    game_codes,
)


@dataclass
class StandardResult:
    standard: Standard
    criteria: list[str] = field(default_factory=list)
    fractions: list[float] = field(default_factory=list)
    sessions: int = 0

    @property
    def scores(self) -> int:
        return len(self.fractions)

    @property
    def fraction(self) -> float | None:
        return sum(self.fractions) / len(self.fractions) if self.fractions else None


def _pick(school: School) -> tuple[list[str], dict[str, list[str]]]:
    """The school's row as (codes it reports against, {game: its codes}); empty without one."""
    row = SchoolStandards.objects.filter(school=school).values_list("codes", "games").first()
    return (row[0] or [], row[1] or {}) if row else ([], {})


def picked(school: School, codes: list[str] | None = None) -> list[Standard]:
    if codes is None:
        codes, _ = _pick(school)
    if not codes:
        return list(STANDARDS)
    return [BY_CODE[code] for code in codes if code in BY_CODE]


def school_game_codes(school: School) -> dict[str, list[str]]:
    """Each game's codes as the school counts them: its own pick, else the shipped default."""
    _, games = _pick(school)
    return {game: game_codes(game, games.get(game)) for game in GAME_STANDARDS}


def by_standard(classroom: Classroom, student: Student | None = None) -> list[StandardResult]:
    """Each standard the school picked that any criterion or game of the class carries."""
    codes, games = _pick(classroom.school)
    results = {s.code: StandardResult(s) for s in picked(classroom.school, codes)}
    scores = CriterionScore.objects.filter(
        assessment__teachback__team__session__classroom=classroom,
        assessment__teachback__team__session__in=Session.objects.filter(REPORTED),
        score__isnull=False,
    )
    sessions = Session.objects.filter(REPORTED, classroom=classroom)
    if student is not None:
        scores = scores.filter(assessment__teachback__team__memberships__student=student)
        sessions = sessions.filter(teams__memberships__student=student)
    for row in scores.values(
        "score", "criterion__key", "criterion__title", "criterion__title_es",
        "criterion__max_score", "criterion__standards",
    ):  # fmt: skip
        title = RubricCriterion(
            title=row["criterion__title"], title_es=row["criterion__title_es"]
        ).shown_title
        for code in criterion_codes(row["criterion__key"], row["criterion__standards"]):
            result = results.get(code)
            if result is None:
                continue
            if title not in result.criteria:
                result.criteria.append(title)
            result.fractions.append(row["score"] / row["criterion__max_score"])
    played = defaultdict(int)
    for row in sessions.values("game").annotate(n=Count("pk", distinct=True)):
        played[row["game"]] = row["n"]
    for game, count in played.items():
        for code in game_codes(game, games.get(game)):
            if code in results:
                results[code].sessions += count
    return [r for r in results.values() if r.criteria or r.sessions]
