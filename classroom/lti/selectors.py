"""Reads for the roster-sync and gradebook-status pages."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, Q

from classroom.lti.grades import link_for_session
from classroom.models import LtiPerson, LtiResourceLink, LtiScore, Session, TeamMembership


@dataclass(frozen=True)
class GradeRow:
    """One student of the session: their score's outbox row, or why there is none."""

    name: str
    score: LtiScore | None
    in_course: bool


def session_grades(session: Session) -> tuple[LtiResourceLink | None, list[GradeRow]]:
    """The session's LMS activity and a row per student who played (robots have no grade)."""
    link = link_for_session(session)
    memberships = (
        TeamMembership.objects.filter(session=session, team__is_robot=False)
        .select_related("student")
        .order_by("student__name")
    )
    if link is None:
        return None, []
    scores = {
        score.student_id: score
        for score in LtiScore.objects.filter(link=link, student__memberships__session=session)
    }
    in_course = set(
        LtiPerson.objects.filter(course_id=link.course_id, departed_at__isnull=True).values_list(
            "student_id", flat=True
        )
    )
    rows = [
        GradeRow(m.student.name, scores.get(m.student_id), m.student_id in in_course)
        for m in memberships
    ]
    return link, rows


def grade_counts(session: Session) -> dict[str, int]:
    waiting = Q(status="waiting") & Q(sent_version__lt=F("version"))
    return LtiScore.objects.filter(session=session).aggregate(
        sent=Count("pk", filter=Q(status="sent")),
        waiting=Count("pk", filter=waiting),
        refused=Count("pk", filter=Q(status="refused")),
    )
