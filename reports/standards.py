"""The standards a school may align its results to: a shipped list of codes with a link to
where each is published (the standards' own words are not copied here), which codes each game
and each built-in rubric criterion carries by default, and which codes count for a school.

A criterion's codes: its own (`RubricCriterion.standards`) when it has any, else the default
for its key; a game's: the school's pick for it (`SchoolStandards.games`), else its default. A
school reports against the codes it picked (`SchoolStandards.codes`); before it picks, against
every code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from classroom.models import GameKind

CSTA = "CSTA"
NGSS = "NGSS"
CSTA_URL = "https://csteachers.org/k12standards/interactive/"
NGSS_URL = "https://www.nextgenscience.org/search-standards?keys={code}"


@dataclass(frozen=True)
class Standard:
    code: str
    framework: str

    @property
    def url(self) -> str:
        return CSTA_URL if self.framework == CSTA else NGSS_URL.format(code=self.code)

    @property
    def label(self) -> str:
        return f"{self.framework} {self.code}"


STANDARDS: tuple[Standard, ...] = (
    Standard("1A-CS-01", CSTA),
    Standard("1A-CS-02", CSTA),
    Standard("1A-AP-08", CSTA),
    Standard("1A-AP-10", CSTA),
    Standard("1B-CS-01", CSTA),
    Standard("1B-CS-02", CSTA),
    Standard("1B-AP-08", CSTA),
    Standard("2-CS-02", CSTA),
    Standard("K-2-ETS1-2", NGSS),
    Standard("3-5-ETS1-1", NGSS),
    Standard("3-5-ETS1-2", NGSS),
    Standard("4-LS1-2", NGSS),
)
BY_CODE: dict[str, Standard] = {s.code: s for s in STANDARDS}

GAME_STANDARDS: dict[str, tuple[str, ...]] = {
    GameKind.BOT_BUILDERS: ("1A-CS-02", "1B-CS-01", "2-CS-02", "4-LS1-2", "K-2-ETS1-2"),
    GameKind.THREE_LAWS: ("1A-AP-08", "1B-AP-08"),
}
# The built-in criteria (games.teachback.rubrics.DEFAULT_CRITERIA), by key.
CRITERION_STANDARDS: dict[str, tuple[str, ...]] = {
    "complete": ("1A-CS-02",),
    "right_jobs": ("1A-CS-02", "1B-CS-01", "4-LS1-2"),
    "mission_link": ("2-CS-02", "K-2-ETS1-2", "3-5-ETS1-2"),
}


def known(codes: Iterable[str]) -> list[str]:
    """`codes` that are on the shipped list, in its order, once each."""
    wanted = set(codes or ())
    return [s.code for s in STANDARDS if s.code in wanted]


def criterion_codes(key: str, own: Iterable[str] | None) -> list[str]:
    return known(own) or list(CRITERION_STANDARDS.get(key, ()))


def game_codes(game: str, own: Iterable[str] | None = None) -> list[str]:
    """A game's codes: the school's pick for it (`SchoolStandards.games`) when it made one,
    else the shipped default."""
    return known(own) or list(GAME_STANDARDS.get(game, ()))
