"""Reads for the teach-back pages (and for the reports that come later): each returns what a
page needs with its related rows fetched up front."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count, F, FloatField, Prefetch, QuerySet
from django.db.models.functions import Cast

from classroom.models import Session, Team
from games.engine_registry import final_benches
from games.engines import bot_builders
from games.models import (
    Assessment,
    CriterionScore,
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


def rubric_averages(assessments: QuerySet[Assessment]) -> list[dict]:
    """Per criterion key over `assessments` (any rubric versions): title (of the newest
    version, in the active language: `shown_wording`), number of scores, the average score,
    and the average as a fraction of each score's maximum (versions may differ in their
    maximum). Skipped scores do not count."""
    rows = (
        CriterionScore.objects.filter(assessment__in=assessments, score__isnull=False)
        .values("criterion__key")
        .annotate(
            count=Count("id"),
            average=Avg("score"),
            fraction=Avg(Cast("score", FloatField()) / Cast("criterion__max_score", FloatField())),
        )
        .order_by("criterion__key")
    )
    titles = {}
    for key, title, title_es, position, version in (
        CriterionScore.objects.filter(assessment__in=assessments)
        .order_by("criterion__rubric__version")
        .values_list(
            "criterion__key",
            "criterion__title",
            "criterion__title_es",
            "criterion__position",
            "criterion__rubric__version",
        )
    ):
        titles[key] = (shown_wording(title, title_es), position, version)
    result = [
        {
            "key": row["criterion__key"],
            "title": titles[row["criterion__key"]][0],
            "count": row["count"],
            "average": row["average"],
            "fraction": row["fraction"],
        }
        for row in rows
    ]
    return sorted(result, key=lambda r: titles[r["key"]][1])
