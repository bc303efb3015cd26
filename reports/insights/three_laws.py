"""3 Laws evidence: every Error call and counter, right or wrong as the game settled it.

The engine records each call in its public view (`view(None)["calls"]`) with the status the
rules left it in, so nothing is guessed here:

- an Error call that still stands ("active") was right: nobody showed it wrong, and the
  teacher, the referee, let it stand; the law it names was broken;
- an Error call "countered" (by a counter that stood) or "voided" by the teacher was wrong: the
  caller misread the law, or its breaking;
- a counter that stands was right (it showed a call wrong); a voided counter was wrong, and
  the call it countered stands again ("active" once more).

A game still being played counts as it stands now.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

STOOD = "active"
ERROR = "error"
COUNTER = "counter"


@dataclass(frozen=True)
class GameCalls:
    """One table's calls, as the selector reads them from the engine's public view."""

    session_id: int
    session_label: str
    table: int
    # Seat name -> team name.
    names: Mapping[str, str]
    calls: list[Mapping]


@dataclass(frozen=True)
class Call:
    session_id: int
    session_label: str
    table: int
    id: str
    kind: str
    round: int
    caller: str
    offender: str
    law: str | None
    status: str

    @property
    def right(self) -> bool:
        return self.status == STOOD


@dataclass
class TeamCalls:
    session_id: int
    session_label: str
    table: int
    team: str
    errors: list[Call] = field(default_factory=list)
    counters: list[Call] = field(default_factory=list)
    # Calls against this team that stood: the laws it broke.
    broke: list[Call] = field(default_factory=list)

    @property
    def errors_right(self) -> int:
        return sum(1 for call in self.errors if call.right)

    @property
    def errors_wrong(self) -> int:
        return len(self.errors) - self.errors_right

    @property
    def counters_right(self) -> int:
        return sum(1 for call in self.counters if call.right)

    @property
    def counters_wrong(self) -> int:
        return len(self.counters) - self.counters_right


@dataclass
class LawTally:
    law: str
    # Error calls naming it that stood (it was broken) and that were wrong (misunderstood).
    broken: int = 0
    wrong: int = 0
    # The teams that made the wrong calls, in order.
    wrong_callers: list[str] = field(default_factory=list)

    @property
    def calls(self) -> int:
        return self.broken + self.wrong

    @property
    def wrong_share(self) -> float:
        return self.wrong / self.calls if self.calls else 0.0


@dataclass
class ThreeLawsEvidence:
    calls: list[Call]
    teams: list[TeamCalls]
    laws: list[LawTally]

    @property
    def errors(self) -> list[Call]:
        return [call for call in self.calls if call.kind == ERROR]

    @property
    def errors_right(self) -> int:
        return sum(1 for call in self.errors if call.right)

    @property
    def errors_wrong(self) -> int:
        return len(self.errors) - self.errors_right

    @property
    def counters(self) -> int:
        return sum(1 for call in self.calls if call.kind == COUNTER)

    @property
    def most_broken(self) -> list[LawTally]:
        """Laws broken at least once, most often first (ties in law order)."""
        return sorted((t for t in self.laws if t.broken), key=lambda t: (-t.broken, t.law))

    @property
    def most_misunderstood(self) -> list[LawTally]:
        """Laws named by at least one wrong call, most wrong calls first."""
        return sorted((t for t in self.laws if t.wrong), key=lambda t: (-t.wrong, t.law))


def read_calls(games: Iterable[GameCalls]) -> ThreeLawsEvidence:
    calls: list[Call] = []
    teams: dict[tuple[int, str], TeamCalls] = {}
    laws: dict[str, LawTally] = {}
    for game in sorted(games, key=lambda g: (g.session_label, g.session_id, g.table)):

        def team(seat: str, game: GameCalls = game) -> TeamCalls:
            key = (game.session_id, seat)
            if key not in teams:
                name = game.names.get(seat, seat)
                teams[key] = TeamCalls(game.session_id, game.session_label, game.table, name)
            return teams[key]

        for seat in game.names:
            team(seat)
        for raw in game.calls:
            call = Call(
                session_id=game.session_id,
                session_label=game.session_label,
                table=game.table,
                id=str(raw.get("call")),
                kind=raw.get("kind") or ERROR,
                round=int(raw.get("round") or 0),
                caller=game.names.get(raw.get("caller"), str(raw.get("caller"))),
                offender=game.names.get(raw.get("offender"), str(raw.get("offender"))),
                law=raw.get("law"),
                status=raw.get("status") or "",
            )
            calls.append(call)
            caller = team(raw.get("caller"))
            if call.kind == COUNTER:
                caller.counters.append(call)
                continue
            caller.errors.append(call)
            tally = laws.setdefault(call.law or "", LawTally(call.law or ""))
            if call.right:
                tally.broken += 1
                team(raw.get("offender")).broke.append(call)
            else:
                tally.wrong += 1
                tally.wrong_callers.append(call.caller)
    ordered_laws = sorted(laws.values(), key=lambda t: t.law)
    return ThreeLawsEvidence(calls, list(teams.values()), ordered_laws)
