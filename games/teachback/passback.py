"""What goes to the LMS gradebook for a teach-back: each assessed student's rubric total, out
of the maximum of the criteria scored, with the criterion breakdown in the comment. Only the
assessed teach-back goes back, never speed or game points. Sent once the teacher has locked
the session's sentences, and again whenever an assessment changes after that
(classroom/lti/grades.py keeps the outbox)."""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext

from classroom.lti import grades
from classroom.models import Session, TeamMembership
from games.models import Assessment
from games.teachback.selectors import teachbacks_for_session


def _entries(assessment: Assessment, student_ids: list[int]) -> list[grades.ScoreEntry]:
    given = maximum = 0
    parts = []
    for score in assessment.scores.all():
        title = score.criterion.shown_title
        if score.score is None:
            parts.append(gettext("%(criterion)s: skipped") % {"criterion": title})
            continue
        given += score.score
        maximum += score.criterion.max_score
        parts.append(
            gettext("%(criterion)s: %(score)s/%(max)s")
            % {"criterion": title, "score": score.score, "max": score.criterion.max_score}
        )
    comment = "; ".join(parts) + "."
    if assessment.comment:
        comment += "\n" + assessment.comment
    return [
        grades.ScoreEntry(student_id, Decimal(given), Decimal(maximum), comment)
        for student_id in student_ids
    ]


def scores_pass_back(*, session: Session, team_ids: list[int] | None = None) -> int:
    """Record the scores of the session's assessed teams (all, or only `team_ids`) for its LMS
    activity; nothing when the session was not started from an LMS or is not locked. Call it
    inside the transaction of the change: the send goes after commit. Returns how many
    students' scores changed."""
    if session.teachbacks_locked_at is None:
        return 0
    link = grades.link_for_session(session)
    if link is None:
        return 0
    teachbacks = teachbacks_for_session(session).filter(assessment__isnull=False)
    if team_ids is not None:
        teachbacks = teachbacks.filter(team_id__in=team_ids)
    teachbacks = list(teachbacks)
    members: dict[int, list[int]] = {}
    for team_id, student_id in TeamMembership.objects.filter(
        team_id__in=[tb.team_id for tb in teachbacks]
    ).values_list("team_id", "student_id"):
        members.setdefault(team_id, []).append(student_id)
    entries = []
    for teachback in teachbacks:
        entries += _entries(teachback.assessment, members.get(teachback.team_id, []))
    return len(grades.scores_record(link=link, session=session, entries=entries))
