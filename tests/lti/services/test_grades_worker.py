"""Grade passback through a real Celery worker on the configured broker: the lock sends the
task after commit, a platform whose score endpoint answers 500 or hangs leaves the scores
waiting and the task tries again with a growing wait until the platform takes them, each score
arriving once; the lesson carries on meanwhile."""

import time

import pytest

from classroom.models import LtiScore, ScoreStatus, TeamMembership
from games.teachback.services import assessment_save, session_lock_teachbacks
from tests.conftest import wait_until
from tests.lti.platform.store import ScoreFault
from tests.support.workers import worker

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def rows(graded):
    return LtiScore.objects.filter(session=graded.session)


def all_sent(graded):
    return rows(graded).exists() and not rows(graded).exclude(status=ScoreStatus.SENT).exists()


def posts_per_learner(graded) -> dict[str, int]:
    counts: dict[str, int] = {}
    for score in graded.lms.store.scores[graded.line_item_id]:
        counts[score["userId"]] = counts.get(score["userId"], 0) + 1
    return counts


def test_the_lock_sends_every_score_through_the_worker_once(graded, teacher):
    with worker():
        session_lock_teachbacks(session=graded.session, by=teacher)
        wait_until(lambda: all_sent(graded), 60, "every score sent")
    assert set(posts_per_learner(graded).values()) == {1}
    assert len(posts_per_learner(graded)) == rows(graded).count() >= 2


def test_a_score_endpoint_answering_500_is_retried_until_the_scores_arrive_once(
    graded, teacher, fast_retries
):
    store = graded.lms.store
    store.set_score_fault(ScoreFault.ERROR)
    with worker():
        session_lock_teachbacks(session=graded.session, by=teacher)
        wait_until(
            lambda: rows(graded).exists() and not rows(graded).filter(attempts__lt=2).exists(),
            60,
            "every score tried twice",
        )
        assert not rows(graded).exclude(status=ScoreStatus.WAITING).exists()
        assert rows(graded).first().message.startswith("HTTP 500")
        store.set_score_fault(ScoreFault.NONE)
        wait_until(lambda: all_sent(graded), 60, "every score sent once the platform is back")
    assert set(posts_per_learner(graded).values()) == {1}
    assert not rows(graded).exclude(message="").exists()


def test_a_hanging_score_endpoint_times_out_and_the_lesson_carries_on(
    graded, teacher, fast_retries
):
    store = graded.lms.store
    store.set_score_fault(ScoreFault.HANG, hang_seconds=60)
    with worker():
        session_lock_teachbacks(session=graded.session, by=teacher)
        wait_until(
            lambda: rows(graded).filter(message__contains="did not answer in time").exists(),
            60,
            "a score timed out",
        )
        # The teacher goes on assessing: the save answers at once and queues the new score.
        student_id = rows(graded).first().student_id
        team = TeamMembership.objects.get(session=graded.session, student_id=student_id).team
        started = time.monotonic()
        assessment_save(
            teachback=team.teachback,
            scores={"complete": 3, "right_jobs": 3, "mission_link": 3, "said_clearly": 3},
            comment="Great second try.",
            by=teacher,
        )
        assert time.monotonic() - started < 2
        store.set_score_fault(ScoreFault.NONE)
        wait_until(lambda: all_sent(graded), 90, "every score sent once the platform answers")
    changed = LtiScore.objects.get(student_id=student_id)
    assert changed.version == changed.sent_version == 2
    person = graded.learners[student_id]
    latest = store.results(graded.line_item_id)[person.id]
    assert (latest["scoreGiven"], latest["scoreMaximum"]) == (12.0, 12.0)
    # A hung request was never stored by the platform; each version arrived at most once.
    assert max(posts_per_learner(graded).values()) <= 2
    assert len(store.results(graded.line_item_id)) == rows(graded).count()
