""" "Teach next": the two or three patterns most worth a reteach, from rules a teacher can check.

The rules, in order:
1. A candidate is a misconception, a rubric criterion most teams scored low on, or a law the
   class's Error calls got wrong.
2. It must concern at least `MIN_TEAMS` teams (calls, for a law) and at least `MIN_SHARE` of
   them: one team's slip is a conversation, not a lesson.
3. Candidates are ranked by that share, largest first; ties go to the larger count, then to the
   order above (misconceptions, criteria, laws). The first `LIMIT` are shown.

A criterion counts as scored low when the score is under half its maximum.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from reports.insights.misconceptions import Misconception
from reports.insights.three_laws import LawTally

MIN_TEAMS = 2
MIN_SHARE = 0.2
LIMIT = 3
LOW = 0.5

MISCONCEPTION = "misconception"
CRITERION = "criterion"
LAW = "law"
SOURCES = (MISCONCEPTION, CRITERION, LAW)


@dataclass(frozen=True)
class CriterionLevels:
    """One rubric criterion's scores over the teams: `label` as shown, each score as a
    fraction of its maximum, with the team names beside them."""

    label: str
    scores: tuple[tuple[str, float], ...]

    @property
    def low_teams(self) -> list[str]:
        return [team for team, fraction in self.scores if fraction < LOW]


@dataclass
class Suggestion:
    source: str
    count: int
    of: int
    misconception: Misconception | None = None
    criterion: CriterionLevels | None = None
    law: LawTally | None = None
    # The teams to start with.
    teams: list[str] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.count / self.of if self.of else 0.0


def _qualifies(count: int, of: int) -> bool:
    return count >= MIN_TEAMS and of > 0 and count / of >= MIN_SHARE


def _unique(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(names))


def teach_next(
    misconceptions: Iterable[Misconception],
    criteria: Iterable[CriterionLevels] = (),
    laws: Iterable[LawTally] = (),
    *,
    limit: int = LIMIT,
) -> list[Suggestion]:
    candidates: list[Suggestion] = []
    for item in misconceptions:
        if _qualifies(item.count, item.of):
            teams = _unique(s.team for s in item.sentences)
            candidates.append(
                Suggestion(MISCONCEPTION, item.count, item.of, misconception=item, teams=teams)
            )
    for criterion in criteria:
        low = criterion.low_teams
        if _qualifies(len(low), len(criterion.scores)):
            candidates.append(
                Suggestion(
                    CRITERION,
                    len(low),
                    len(criterion.scores),
                    criterion=criterion,
                    teams=_unique(low),
                )
            )
    for law in laws:
        if _qualifies(law.wrong, law.calls):
            candidates.append(
                Suggestion(LAW, law.wrong, law.calls, law=law, teams=_unique(law.wrong_callers))
            )
    candidates.sort(key=lambda s: (-s.share, -s.count, SOURCES.index(s.source)))
    return candidates[:limit]
