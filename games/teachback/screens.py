"""What the teach-back pages show, read only: one team's row of the teacher's page (its
sentence, bench, hints and scoring form state), the spotlight, and each whole page. Kept apart
from the views so the full page and the one-row htmx answer build rows the same way."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from classroom.lti import grades
from classroom.models import Classroom, Session, Team
from games.engines.i18n import say
from games.models import Rubric, RubricCriterion, TableStatus, TeachBack
from games.models.teachback import TEACHBACK_SLOTS
from games.teachback import selectors
from games.teachback.hints import BLANK_LABELS, hints_for
from games.teachback.rubrics import rubric_is_used, rubric_shown


def in_language(language: str) -> Callable[[str], str]:
    """`gettext` of one language, whatever the page's language is (a sentence's own)."""

    def translate(text: str) -> str:
        with translation.override(language or "en"):
            return gettext(text)

    return translate


def sentence_hints(teachback: TeachBack) -> list:
    """The hints about one sentence, looked for in the sentence's language and worded in the
    page's (the teacher's)."""
    fields = {f: getattr(teachback, f) for f in (*TEACHBACK_SLOTS, "because")}
    hints = hints_for(fields, teachback.mission, in_language(teachback.language))
    return [replace(hint, message=say(hint.message, gettext)) for hint in hints]


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
        [
            (gettext_lazy(BLANK_LABELS[f]), getattr(teachback, f))
            for f in (*TEACHBACK_SLOTS, "because")
        ]
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
        "hints": sentence_hints(teachback) if teachback else [],
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
    }


# -- whole pages -----------------------------------------------------------------------------


def device_page(team: Team, *, form, error: str | None, just_sent: bool) -> dict:
    """The team's sentence page: its sentence if sent, the Mission of its bench, whether its
    game is over and whether the teacher has locked the sentences (read now: a lock may have
    landed since the request began)."""
    game = selectors.game_for(team)
    sent = TeachBack.objects.filter(team=team).first()
    bench = sent.bench_snapshot if sent else selectors.final_bench_for(team, game)
    locked_at = (
        Session.objects.filter(pk=team.session_id)
        .values_list("teachbacks_locked_at", flat=True)
        .first()
    )
    return {
        "team": team,
        "session": team.session,
        "form": form,
        "error": error,
        "sent": sent,
        "just_sent": just_sent,
        "game_over": game is not None and game.status == TableStatus.OVER,
        "locked": locked_at is not None,
        "mission": selectors.card(bench.get("mission")),
    }


def assessments_page(session: Session, *, can_assess: bool) -> dict:
    """The teacher's page of the session's sentences, one row a team. A viewer who may not
    assess sees only the rubric the class has actually used (none before its first score)."""
    rubric, criteria = rubric_shown(session.classroom)
    if rubric.pk is None and not can_assess:
        rubric, criteria = None, []
    entries = [
        assessment_row(entry.team, entry.teachback, rubric=rubric, criteria=criteria)
        for entry in selectors.assessment_entries(session)
    ]
    return {
        "session": session,
        "rubric": rubric,
        "criteria": criteria,
        "entries": entries,
        "can_assess": can_assess,
        "locked": session.teachbacks_locked_at is not None,
        "sent_count": sum(1 for entry in entries if entry["teachback"]),
        # The session's LMS activity: its scores go to that gradebook when locked.
        "lms_link": grades.link_for_session(session),
        **spotlight_context(session),
    }


def assessment_row_page(
    session: Session,
    teachback: TeachBack,
    *,
    posted: dict | None,
    error: str | None,
) -> dict:
    """One row of the teacher's page after a save (htmx), re-read with its new scores."""
    rubric, criteria = rubric_shown(session.classroom)
    teachback = selectors.teachbacks_for_session(session).get(pk=teachback.pk)
    entry = assessment_row(
        teachback.team,
        teachback,
        rubric=rubric,
        criteria=criteria,
        posted=posted if error else None,
        error=error,
        saved=error is None,
    )
    return {"session": session, "rubric": rubric, "entry": entry, "can_assess": True}


def rubric_page(classroom: Classroom, *, can_edit: bool) -> dict:
    """The rubric editor (the class's teacher) or its read-only table (the administrator,
    who sees a note instead before the class has used a rubric)."""
    rubric, criteria = rubric_shown(classroom)
    if rubric.pk is None and not can_edit:
        rubric, criteria = None, []
    return {
        "classroom": classroom,
        "rubric": rubric,
        "criteria": criteria,
        "can_edit": can_edit,
        "used": rubric is not None and rubric.pk is not None and rubric_is_used(rubric),
    }
