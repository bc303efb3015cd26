"""A student's misconceptions over time: which ones their team showed, when last, and which
went away (shown in an earlier session, not in the latest one with a sentence)."""

from __future__ import annotations

from dataclasses import dataclass

from reports.insights.misconceptions import Misconception


@dataclass(frozen=True)
class Trend:
    misconception: Misconception
    # Labels of the sessions that showed it, in order.
    shown_in: tuple[str, ...]
    # The latest session with a sentence, when it no longer showed it.
    gone_since: str | None

    @property
    def gone(self) -> bool:
        return self.gone_since is not None


def trends(
    misconceptions: list[Misconception],
    by_session: dict[str, dict[int, int]],
    sessions: list[tuple[int, str]],
) -> list[Trend]:
    """`sessions`: (id, label) of the sessions with a sentence, oldest first. Gone first, then
    the ones still showing; each in the order they were first shown."""
    if not sessions:
        return []
    order = [pk for pk, _ in sessions]
    labels = dict(sessions)
    latest = order[-1]
    found = []
    for item in misconceptions:
        counts = by_session.get(item.key, {})
        shown = [pk for pk in order if counts.get(pk)]
        if not shown:
            continue
        gone = labels[latest] if latest not in shown else None
        found.append((order.index(shown[0]), Trend(item, tuple(labels[p] for p in shown), gone)))
    found.sort(key=lambda pair: (not pair[1].gone, pair[0]))
    return [trend for _, trend in found]
