"""Reads for the teach-back pages (and for the reports that come later): each returns what a
page needs with its related rows fetched up front."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, F, FloatField, Prefetch, QuerySet, Sum
from django.db.models.functions import Cast

from classroom.models import Session, Team
from games.engine_registry import final_benches
from games.engines import bot_builders
from games.models import (
    Assessment,
    CriterionScore,
    RubricCriterion,
    TableGame,
    TeachBack,
    TeachBackSpotlight,
)
from games.models.teachback import TEACHBACK_SLOTS, shown_wording

PART_SLOTS = bot_builders.CATEGORY
BENCH_SLOTS = bot_builders.SLOTS
# Which bench slot each part blank of the sentence describes.
BLANK_SLOT = dict(zip(TEACHBACK_SLOTS, PART_SLOTS, strict=True))


def game_for(team: Team) -> TableGame | None:
    """The table game this team plays in, or None before its table has one."""
    if team.table_id is None:
        return None
    return TableGame.objects.filter(table_id=team.table_id).first()


def final_bench_for(team: Team, game: TableGame | None = None) -> dict[str, str | None]:
    """The team's bench as {slot: card id or None} for the five slots, live or recorded from
    printed cards alike (`engine_registry.final_benches`)."""
    game = game if game is not None else game_for(team)
    bench = (final_benches(game).get(team.seat) if game is not None else None) or {}
    return {slot: bench.get(slot) or None for slot in BENCH_SLOTS}


def card(card_id: str | None) -> bot_builders.Card | None:
    return bot_builders.CARDS.get(card_id or "")


def bench_cards(bench: dict) -> list[tuple[str, bot_builders.Card | None]]:
    """(slot, card or None) for the five slots, in the order the site shows them."""
    return [(slot, card(bench.get(slot))) for slot in BENCH_SLOTS]


def teachbacks_for_session(session: Session) -> QuerySet[TeachBack]:
    """Every sentence of the session in table order, with team, assessment, its rubric, its
    scores and their criteria already fetched."""
    return (
        TeachBack.objects.filter(team__session=session)
        .select_related("team__table", "assessment__rubric", "assessment__assessed_by")
        .prefetch_related(
            Prefetch(
                "assessment__scores",
                queryset=CriterionScore.objects.select_related("criterion").order_by(
                    "criterion__position"
                ),
            ),
            "assessment__rubric__criteria",
        )
        .order_by(
            F("team__table__number").asc(nulls_last=True), "team__seat_position", "team__number"
        )
    )


def teams_in_table_order(session: Session) -> QuerySet[Team]:
    return (
        Team.objects.filter(session=session, is_robot=False)
        .select_related("table")
        .order_by(F("table__number").asc(nulls_last=True), "seat_position", "number")
    )


@dataclass
class TeamEntry:
    """One row of the teacher's page: a team and its sentence, if sent."""

    team: Team
    teachback: TeachBack | None


def assessment_entries(session: Session) -> list[TeamEntry]:
    by_team = {tb.team_id: tb for tb in teachbacks_for_session(session)}
    return [TeamEntry(team, by_team.get(team.pk)) for team in teams_in_table_order(session)]


def spotlight_for(session: Session) -> TeachBackSpotlight | None:
    return (
        TeachBackSpotlight.objects.select_related("teachback__team").filter(session=session).first()
    )


def criterion_sums(scores: QuerySet[CriterionScore], *group: str) -> list[dict]:
    """`scores` that were given (skipped ones do not count) summed per criterion row, and per
    each field of `group` too: `count`, `total` and `fractions` (the sum of score / maximum).
    A report reads all its rubric figures from one such query: a school's overview has a few
    hundred criteria behind over a hundred thousand scores."""
    return list(
        scores.filter(score__isnull=False)
        .values("criterion_id", *group)
        .annotate(
            count=Count("id"),
            total=Sum("score"),
            fractions=Sum(Cast("score", FloatField()) / Cast("criterion__max_score", FloatField())),
        )
        .order_by()
    )


def rubric_averages(assessments: QuerySet[Assessment]) -> list[dict]:
    """Per criterion key over `assessments`: see `averages_by_key`."""
    return averages_by_key(
        criterion_sums(CriterionScore.objects.filter(assessment__in=assessments))
    )


def averages_by_key(sums: Iterable[dict]) -> list[dict]:
    """Per criterion key over `sums` (`criterion_sums`, any rubric versions): title (of the
    newest version, in the active language: `shown_wording`), number of scores, the average
    score, and the average as a fraction of each score's maximum (versions may differ in their
    maximum). One query: the words of the criteria summed, by primary key (joining the words
    onto every score made the overview of a school of 60 classes take seconds)."""
    sums = list(sums)
    criteria = RubricCriterion.objects.filter(pk__in={row["criterion_id"] for row in sums})
    titles: dict[str, tuple[str, int]] = {}
    key_of: dict[int, str] = {}
    for pk, key, title, title_es, position, _version in sorted(
        criteria.values_list("pk", "key", "title", "title_es", "position", "rubric__version"),
        # The newest version last, so its title wins.
        key=lambda c: (c[5], c[0]),
    ):
        titles[key] = (shown_wording(title, title_es), position)
        key_of[pk] = key
    by_key: dict[str, list] = {}
    for row in sums:
        totals = by_key.setdefault(key_of[row["criterion_id"]], [0, 0, 0.0])
        totals[0] += row["count"]
        totals[1] += row["total"]
        totals[2] += row["fractions"]
    result = [
        {
            "key": key,
            "title": titles[key][0],
            "count": count,
            "average": total / count,
            "fraction": fractions / count,
        }
        for key, (count, total, fractions) in sorted(by_key.items())
    ]
    return sorted(result, key=lambda r: titles[r["key"]][1])
