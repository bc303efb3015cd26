"""Scoring a bench and ranking the seats (rulebook section 6)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .cards import CARDS, CATEGORY

PART_POINTS = 1
FOUR_LOOP_POINTS = 4
MISSION_POINTS = 2
MISSION_MATCH_POINTS = 3
FULL_BOT_POINTS = 3
MAX_SCORE = (
    4 * PART_POINTS + FOUR_LOOP_POINTS + MISSION_POINTS + MISSION_MATCH_POINTS + FULL_BOT_POINTS
)

# Solo: the player wins with at least this score.
SOLO_WIN_SCORE = 10

BIRTH_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")


@dataclass(frozen=True, slots=True)
class BenchScore:
    """How one bench scores: the count of parts, which bonuses apply, and the total."""

    parts: int
    four_loop: bool
    mission: bool
    mission_match: bool
    full_bot: bool
    total: int

    def breakdown(self) -> dict[str, int]:
        """Points per line of the score sheet (JSON-safe), for results and reports."""
        return {
            "parts": self.parts * PART_POINTS,
            "four_loop": FOUR_LOOP_POINTS if self.four_loop else 0,
            "mission": MISSION_POINTS if self.mission else 0,
            "mission_match": MISSION_MATCH_POINTS if self.mission_match else 0,
            "full_bot": FULL_BOT_POINTS if self.full_bot else 0,
        }


def score_bench(ids: Iterable[str | None] | Mapping[str, str | None]) -> BenchScore:
    """Score the cards installed on one bench.

    Takes the installed card ids (a list, or a `{slot: id}` mapping as in `view()["benches"]`);
    `None` entries are empty slots. Raises ValueError for an unknown id, a Glitch, or two cards of
    one slot: such a bench cannot exist.
    """
    if isinstance(ids, Mapping):
        ids = ids.values()
    slots: dict[str, str] = {}
    for card_id in ids:
        if card_id is None:
            continue
        card = CARDS.get(card_id) if isinstance(card_id, str) else None
        if card is None:
            raise ValueError(f"Unknown card: {card_id!r}.")
        if card.is_glitch:
            raise ValueError(f"A Glitch cannot be on a bench: {card_id!r}.")
        if card.slot in slots:
            raise ValueError(
                f"Two cards in the {card.slot} slot: {slots[card.slot]!r}, {card_id!r}."
            )
        slots[card.slot] = card_id
    parts = sum(1 for category in CATEGORY if category in slots)
    four_loop = parts == len(CATEGORY)
    mission_id = slots.get("mission")
    has_mission = mission_id is not None
    match = has_mission and all(c in slots for c in CARDS[mission_id].prefers)
    full_bot = four_loop and has_mission
    total = (
        parts * PART_POINTS
        + (FOUR_LOOP_POINTS if four_loop else 0)
        + (MISSION_POINTS if has_mission else 0)
        + (MISSION_MATCH_POINTS if match else 0)
        + (FULL_BOT_POINTS if full_bot else 0)
    )
    return BenchScore(parts, four_loop, has_mission, match, full_bot, total)


def valid_birth_month(value: object) -> bool:
    return isinstance(value, str) and BIRTH_MONTH.match(value) is not None


def rank(
    seats: list[str],
    scores: Mapping[str, BenchScore],
    birth_months: Mapping[str, str] | None = None,
) -> list[tuple[str, int]]:
    """Order the seats best first and give each a place; true ties share a place (1, 1, 3).

    Equal totals are split by Full Bot, then four-loop, then the younger seat (the later
    "YYYY-MM" birth month), the last only when every seat of the tied group has a month.
    Seats that stay tied keep the turn order of `seats`, so the output is deterministic.
    """
    months = birth_months or {}

    def strength(seat: str) -> tuple[int, bool, bool]:
        s = scores[seat]
        return (s.total, s.full_bot, s.four_loop)

    # sorted() is stable, so seats that stay tied keep turn order.
    ordered = sorted(seats, key=strength, reverse=True)
    placed: list[tuple[str, int]] = []
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and strength(ordered[end]) == strength(ordered[start]):
            end += 1
        group = ordered[start:end]
        if len(group) > 1 and all(months.get(seat) for seat in group):
            # "YYYY-MM" strings sort like dates; a later month is a younger seat.
            group.sort(key=lambda seat: months[seat], reverse=True)
            for i, seat in enumerate(group):
                same_as_before = i > 0 and months[seat] == months[group[i - 1]]
                place = placed[-1][1] if same_as_before else start + i + 1
                placed.append((seat, place))
        else:
            placed.extend((seat, start + 1) for seat in group)
        start = end
    return placed


def standings(
    seats: list[str],
    scores: Mapping[str, BenchScore],
    birth_months: Mapping[str, str] | None = None,
    *,
    solo: bool = False,
) -> list[dict]:
    """`Game.results()` entries for these scores, best first: seat, place, score, full_bot,
    four_loop, mission_match, breakdown, and in solo whether the player won. Also used by the
    site to score benches recorded from printed cards or frozen when a round is ended early."""
    entries = []
    for seat, place in rank(seats, scores, birth_months):
        score = scores[seat]
        entry: dict = {
            "seat": seat,
            "place": place,
            "score": score.total,
            "full_bot": score.full_bot,
            "four_loop": score.four_loop,
            "mission_match": score.mission_match,
            "breakdown": score.breakdown(),
        }
        if solo:
            entry["won"] = score.total >= SOLO_WIN_SCORE
        entries.append(entry)
    return entries
