"""What the teacher's page shows for one team: its sentence, bench, hints and scoring form
state. Kept apart from the views so the full page and the one-row htmx answer build rows the
same way."""

from __future__ import annotations

from classroom.models import Session, Team
from games.models import Rubric, RubricCriterion, TeachBack
from games.models.teachback import TEACHBACK_SLOTS
from games.teachback import selectors
from games.teachback.hints import BLANK_LABELS, hints_for


def _current_scores(teachback: TeachBack | None) -> tuple[dict[str, int | None], int | None]:
    """The saved scores by criterion key, and the rubric version they were given under."""
    assessment = getattr(teachback, "assessment", None) if teachback else None
    if assessment is None:
        return {}, None
    return {s.criterion.key: s.score for s in assessment.scores.all()}, assessment.rubric.version


def assessment_row(
    team: Team,
    teachback: TeachBack | None,
    *,
    rubric: Rubric | None,
    criteria: list[RubricCriterion],
    posted: dict | None = None,
    error: str | None = None,
    saved: bool = False,
) -> dict:
    saved_scores, scored_version = _current_scores(teachback)
    assessment = getattr(teachback, "assessment", None) if teachback else None
    scoring = []
    for criterion in criteria:
        if posted:
            # Posted text as sent: "" or None when nothing was chosen, "skip" when skipped.
            value = str(posted["scores"].get(criterion.key) or "")
        elif criterion.key in saved_scores:
            score = saved_scores[criterion.key]
            value = "skip" if score is None else str(score)
        else:
            value = ""
        scoring.append(
            {
                "criterion": criterion,
                "choices": [str(n) for n in range(criterion.max_score + 1)],
                "value": value,
            }
        )
    fields = (
        [(BLANK_LABELS[f], getattr(teachback, f)) for f in (*TEACHBACK_SLOTS, "because")]
        if teachback
        else []
    )
    return {
        "team": team,
        "teachback": teachback,
        "assessment": assessment,
        "fields": fields,
        "bench": selectors.bench_cards(teachback.bench_snapshot) if teachback else [],
        "mission": selectors.card(teachback.mission) if teachback else None,
        "hints": (
            hints_for(
                {f: getattr(teachback, f) for f in (*TEACHBACK_SLOTS, "because")}, teachback.mission
            )
            if teachback
            else []
        ),
        "scoring": scoring,
        "scored_version": scored_version,
        "older_version": bool(rubric and scored_version and scored_version != rubric.version),
        "comment": posted["comment"] if posted else (assessment.comment if assessment else ""),
        "error": error,
        "saved": saved,
    }


def spotlight_context(session: Session) -> dict:
    spotlight = selectors.spotlight_for(session)
    return {
        "spotlight": spotlight.teachback if spotlight else None,
        "spotlight_mission": (
            selectors.card(spotlight.teachback.mission)
            if spotlight and spotlight.teachback
            else None
        ),
        # A revision of the shown sentence must reach the projector too.
        "spotlight_version": (
            f"{spotlight.version}-{spotlight.teachback.revision if spotlight.teachback else 0}"
            if spotlight
            else "0"
        ),
    }
