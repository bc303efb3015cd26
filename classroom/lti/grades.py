"""Grade passback (LTI Assignment and Grade Services): the outbox of scores and its sender.

`scores_record` writes what each student's score is (a new version when it changed) and sends
the link's task after commit; `scores_send`, run by that Celery task, posts every score the
platform does not have yet to the resource link's line item and records what the platform said.

Never twice: a sender claims its rows before posting (a second sender leaves claimed rows
alone), a version the platform acknowledged is never posted again, and a resend of a version
whose answer was lost carries that version's own AGS timestamp, which the platform keeps per
user, so it cannot count it twice either. The LMS user id is never stored: each send reads the
course's roster (NRPS) once and posts to the member whose hashed id is the student's.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem

from classroom.lti import connector
from classroom.lti.people import hash_subject
from classroom.models import (
    LtiPerson,
    LtiResourceLink,
    LtiScore,
    ScoreStatus,
    Session,
)

logger = logging.getLogger(__name__)

NOT_IN_COURSE = "This student is no longer in the LMS course's roster."
NO_ROSTER = "The LMS does not share the course's roster (Names and Role Provisioning)."
NO_LINEITEM = "The LMS gave this activity no gradebook column (line item)."


@dataclass(frozen=True)
class ScoreEntry:
    """What one student's score is: the rubric total out of its maximum, and the comment."""

    student_id: int
    score_given: Decimal
    score_maximum: Decimal
    comment: str


def link_for_session(session: Session) -> LtiResourceLink | None:
    """The LMS activity whose gradebook column gets the session's scores: the link the session
    was started from or, when none was recorded, the class's only link of the session's game
    with a column. None: the session's scores do not go to an LMS."""
    links = LtiResourceLink.objects.select_related("course__platform").exclude(line_item_url="")
    if session.lti_link_id is not None:
        return links.filter(pk=session.lti_link_id).first()
    candidates = list(
        links.filter(course__classroom_id=session.classroom_id, game=session.game)[:2]
    )
    return candidates[0] if len(candidates) == 1 else None


def session_link(*, session: Session, link: LtiResourceLink) -> Session:
    """Record that the teacher started `session` from the LMS activity `link`, so its scores go
    to that gradebook column. A session keeps the first link it was started from."""
    Session.objects.filter(pk=session.pk, lti_link__isnull=True).update(lti_link=link)
    session.refresh_from_db(fields=["lti_link"])
    return session


def linked_student_ids(link: LtiResourceLink, student_ids: Iterable[int]) -> set[int]:
    """Of these students, those the link's LMS course knows (a hashed LMS id)."""
    return set(
        LtiPerson.objects.filter(
            course_id=link.course_id, student_id__in=list(student_ids)
        ).values_list("student_id", flat=True)
    )


def send_after_commit(link_id: int) -> None:
    """The link's sender, once the transaction that wrote its rows commits. A send that fails
    (the broker is down) is logged: the rows stay waiting, which is the truth, and the sweep
    sends them again."""

    def send() -> None:
        from classroom import tasks

        try:
            tasks.lti_scores_send.delay(link_id)
        except Exception:  # noqa: BLE001 - the broker is down; the sweep sends it again
            logger.warning("LTI link %s: could not reach the broker", link_id, exc_info=True)

    transaction.on_commit(send)


def scores_record(
    *, link: LtiResourceLink, session: Session, entries: Sequence[ScoreEntry]
) -> list[LtiScore]:
    """Make each entry the student's score on `link`: a new row, or a new version of the row
    when the score or comment changed (an unchanged one is left as it is, sent or not). Only
    students the LMS knows get a row. Sends the link's waiting scores after commit."""
    known = linked_student_ids(link, (entry.student_id for entry in entries))
    now = timezone.now()
    changed: list[LtiScore] = []
    with transaction.atomic():
        # The link row is the lock: two saves of one link's scores take turns, so a row is
        # created once and versions grow one at a time.
        LtiResourceLink.objects.select_for_update().filter(pk=link.pk).first()
        rows = {
            row.student_id: row
            for row in LtiScore.objects.select_for_update().filter(link=link, student_id__in=known)
        }
        for entry in entries:
            if entry.student_id not in known:
                continue
            row = rows.get(entry.student_id)
            if row is None:
                changed.append(
                    LtiScore.objects.create(
                        student_id=entry.student_id,
                        link=link,
                        session=session,
                        score_given=entry.score_given,
                        score_maximum=entry.score_maximum,
                        comment=entry.comment,
                        timestamp=now,
                        updated_at=now,
                    )
                )
                continue
            if (
                row.score_given == entry.score_given
                and row.score_maximum == entry.score_maximum
                and row.comment == entry.comment
            ):
                continue
            row.session = session
            row.score_given = entry.score_given
            row.score_maximum = entry.score_maximum
            row.comment = entry.comment
            row.version += 1
            row.timestamp = now
            row.status = ScoreStatus.WAITING
            row.attempts = 0
            row.message = ""
            row.updated_at = now
            row.save()
            changed.append(row)
        if changed:
            send_after_commit(link.pk)
    return changed


def scores_send_again(*, session: Session) -> int:
    """The teacher's "send again": the session's waiting and refused scores get fresh
    attempts. Returns how many will be sent."""
    with transaction.atomic():
        rows = LtiScore.objects.select_for_update().filter(
            session=session, sent_version__lt=F("version")
        )
        links = set(rows.values_list("link_id", flat=True))
        count = rows.update(status=ScoreStatus.WAITING, attempts=0, updated_at=timezone.now())
        for link_id in links:
            send_after_commit(link_id)
    return count


# -- the sender --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Claimed:
    pk: int
    version: int
    student_id: int
    score_given: Decimal
    score_maximum: Decimal
    comment: str
    timestamp: datetime.datetime


@dataclass(frozen=True)
class SendOutcome:
    sent: int = 0
    waiting: int = 0
    refused: int = 0
    # Seconds until the task should try again; None: nothing left to retry.
    retry_after: float | None = None


def _claim_window(rows: int) -> datetime.timedelta:
    # Longer than the requests one send makes can take, each within its timeout: the token, the
    # roster's pages, one post a score.
    requests_made = rows + 2 + connector.MAX_MEMBER_PAGES
    return datetime.timedelta(seconds=settings.LTI_SERVICE_TIMEOUT_SECONDS * requests_made + 30)


def _claim(link_id: int) -> tuple[list[_Claimed], bool]:
    """Claim the link's scores the platform does not have: (claimed, others hold some)."""
    now = timezone.now()
    with transaction.atomic():
        pending = LtiScore.objects.select_for_update(skip_locked=True).filter(
            link_id=link_id,
            status=ScoreStatus.WAITING,
            sent_version__lt=F("version"),
        )
        free = pending.filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        rows = list(free.order_by("pk"))
        held = pending.exclude(pk__in=[row.pk for row in rows]).exists()
        LtiScore.objects.filter(pk__in=[row.pk for row in rows]).update(
            claimed_until=now + _claim_window(len(rows))
        )
    claimed = [
        _Claimed(
            row.pk,
            row.version,
            row.student_id,
            row.score_given,
            row.score_maximum,
            row.comment,
            row.timestamp,
        )
        for row in rows
    ]
    return claimed, held


def _record(claim: _Claimed, status: str, message: str = "") -> str:
    """What the platform said about `claim`'s version; the row's status afterwards."""
    now = timezone.now()
    with transaction.atomic():
        row = LtiScore.objects.select_for_update().get(pk=claim.pk)
        row.claimed_until = None
        row.attempts += 1
        row.updated_at = now
        if status == ScoreStatus.SENT:
            row.sent_version = max(row.sent_version, claim.version)
            row.sent_at = now
        if row.version == claim.version:
            row.status = status
            row.message = message
        # Otherwise the score changed while it was being sent: the change queued its own send.
        row.save()
        return row.status


def _release(claims: Iterable[_Claimed], message: str, status: str) -> None:
    for claim in claims:
        _record(claim, status, message)


def _members_by_hash(link: LtiResourceLink, service: connector.ServiceConnector) -> dict[str, str]:
    """{hashed LMS user id: LMS user id} of the course's members, read now, kept nowhere."""
    platform = link.course.platform
    return {
        hash_subject(platform, str(member["user_id"])): str(member["user_id"])
        for member in connector.members_of(service, link.course.memberships_url)
        if member.get("user_id")
    }


def _grade(claim: _Claimed, user_id: str) -> Grade:
    stamp = claim.timestamp.astimezone(datetime.UTC).isoformat(timespec="milliseconds")
    return (
        Grade()
        .set_score_given(float(claim.score_given))
        .set_score_maximum(float(claim.score_maximum))
        .set_timestamp(stamp.replace("+00:00", "Z"))
        .set_activity_progress("Completed")
        .set_grading_progress("FullyGraded")
        .set_user_id(user_id)
        .set_comment(claim.comment)
    )


def _backoff(attempts: int) -> float:
    base = settings.LTI_SCORE_RETRY_SECONDS
    return min(base * 2 ** max(attempts - 1, 0), settings.LTI_SCORE_RETRY_MAX_SECONDS)


def scores_send(*, link_id: int) -> SendOutcome:
    """Post the link's waiting scores; what the task should do next is in the outcome."""
    link = LtiResourceLink.objects.select_related("course__platform").filter(pk=link_id).first()
    if link is None:
        return SendOutcome()
    claims, held = _claim(link_id)
    if not claims:
        return SendOutcome(retry_after=_backoff(1) if held else None)
    if not link.line_item_url:
        _release(claims, NO_LINEITEM, ScoreStatus.REFUSED)
        return SendOutcome(refused=len(claims))
    if not link.course.memberships_url:
        _release(claims, NO_ROSTER, ScoreStatus.REFUSED)
        return SendOutcome(refused=len(claims))
    service = connector.connector_for(link.course.platform)
    try:
        members = _members_by_hash(link, service)
    except connector.SERVICE_ERRORS as exc:  # recorded on the rows
        failure = connector.classify(exc)
        status = (
            ScoreStatus.REFUSED
            if isinstance(failure, connector.ServiceRefused)
            else ScoreStatus.WAITING
        )
        _release(claims, str(failure), status)
        return _outcome(link_id, held)
    hashes = dict(
        LtiPerson.objects.filter(
            course_id=link.course_id,
            student_id__in=[claim.student_id for claim in claims],
        ).values_list("student_id", "sub_hash")
    )
    ags = AssignmentsGradesService(
        service, {"scope": [connector.SCORE_SCOPE], "lineitem": link.line_item_url}
    )
    for position, claim in enumerate(claims):
        user_id = members.get(hashes.get(claim.student_id, ""))
        if user_id is None:
            _record(claim, ScoreStatus.REFUSED, NOT_IN_COURSE)
            continue
        try:
            ags.put_grade(_grade(claim, user_id), LineItem({"id": link.line_item_url}))
        except connector.SERVICE_ERRORS as exc:  # recorded on the row
            failure = connector.classify(exc)
            if isinstance(failure, connector.ServiceRefused):
                _record(claim, ScoreStatus.REFUSED, str(failure))
                continue
            # The gradebook is down or hanging: the rest wait for the next attempt rather than
            # each holding the worker for a timeout of its own.
            _release(claims[position:], str(failure), ScoreStatus.WAITING)
            break
        else:
            _record(claim, ScoreStatus.SENT)
    return _outcome(link_id, held)


def _outcome(link_id: int, held: bool) -> SendOutcome:
    """Count the link's rows; a retry when some wait and have attempts left."""
    rows = LtiScore.objects.filter(link_id=link_id)
    waiting = rows.filter(status=ScoreStatus.WAITING, sent_version__lt=F("version"))
    retry_attempts = list(
        waiting.filter(attempts__lt=settings.LTI_SCORE_MAX_ATTEMPTS).values_list(
            "attempts", flat=True
        )
    )
    retry_after = None
    if retry_attempts:
        retry_after = _backoff(min(retry_attempts))
    elif held:
        retry_after = _backoff(1)
    return SendOutcome(
        sent=rows.filter(status=ScoreStatus.SENT).count(),
        waiting=waiting.count(),
        refused=rows.filter(status=ScoreStatus.REFUSED).count(),
        retry_after=retry_after,
    )


def scores_sweep() -> int:
    """Run by Celery beat: send again every link whose scores still wait (the broker was down,
    or the task's attempts ran out while the platform was away). Returns how many links."""
    stale = timezone.now() - datetime.timedelta(seconds=settings.LTI_SCORE_RETRY_SECONDS)
    link_ids = set(
        LtiScore.objects.filter(
            status=ScoreStatus.WAITING, sent_version__lt=F("version"), updated_at__lt=stale
        )
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=timezone.now()))
        .values_list("link_id", flat=True)
    )
    with transaction.atomic():
        LtiScore.objects.filter(
            link_id__in=link_ids, status=ScoreStatus.WAITING, sent_version__lt=F("version")
        ).update(attempts=0)
        for link_id in link_ids:
            send_after_commit(link_id)
    return len(link_ids)
