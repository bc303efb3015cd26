"""Grade passback (AGS) against the real test platform, the sender run in the test's thread
(the worker's own test is test_grades_worker.py): the lock records each assessed LMS learner's
rubric total with its criteria in the comment and the platform's line item receives it once;
a changed assessment sends the new score; a platform answering 500 or hanging leaves the score
waiting with its words and the next attempt sends it; a refusal is shown with the LMS's words."""

from decimal import Decimal

import pytest
from django.db.models import F

from classroom.lti import grades
from classroom.models import LtiScore, ScoreStatus, TeamMembership
from games.models import Assessment, TeachBack
from games.teachback.services import assessment_save, session_lock_teachbacks
from tests.lti.platform.store import ScoreFault


def expected_scores(graded) -> dict[str, tuple[float, float]]:
    """{LMS user id: (rubric total, maximum)} for each assessed LMS learner, from the database."""
    expected = {}
    for student_id, person in graded.learners.items():
        membership = TeamMembership.objects.filter(
            session=graded.session, student_id=student_id
        ).first()
        if membership is None:
            continue  # absent from the lesson
        assessment = Assessment.objects.filter(teachback__team=membership.team).first()
        if assessment is None:
            continue
        scored = [s for s in assessment.scores.select_related("criterion") if s.score is not None]
        expected[person.id] = (
            float(sum(s.score for s in scored)),
            float(sum(s.criterion.max_score for s in scored)),
        )
    return expected


def accepted(graded) -> list[dict]:
    return list(graded.lms.store.scores[graded.line_item_id])


def latest(graded) -> dict[str, dict]:
    return graded.lms.store.results(graded.line_item_id)


def test_locking_sends_each_assessed_learner_s_rubric_total_once(graded, teacher):
    expected = expected_scores(graded)
    assert len(expected) >= 2
    posts_before = graded.lms.store.score_attempts
    session_lock_teachbacks(session=graded.session, by=teacher)
    rows = LtiScore.objects.filter(session=graded.session)
    # Only LMS learners whose team was assessed: never the students typed in by hand.
    assert rows.count() == len(expected)
    assert set(rows.values_list("status", flat=True)) == {ScoreStatus.WAITING}
    outcome = grades.scores_send(link_id=graded.link.pk)
    assert outcome.sent == len(expected) and outcome.retry_after is None
    got = latest(graded)
    assert {user: (s["scoreGiven"], s["scoreMaximum"]) for user, s in got.items()} == expected
    for score in got.values():
        assert score["gradingProgress"] == "FullyGraded"
        assert "Complete:" in score["comment"] and "Mission link:" in score["comment"]
    assert all(row.sent_version == row.version == 1 for row in rows)
    assert set(rows.values_list("status", flat=True)) == {ScoreStatus.SENT}
    # Sending again, or locking again, posts nothing more.
    posts = graded.lms.store.score_attempts
    grades.scores_send(link_id=graded.link.pk)
    session_lock_teachbacks(session=graded.session, by=teacher)
    grades.scores_send(link_id=graded.link.pk)
    assert graded.lms.store.score_attempts - posts_before == posts - posts_before == len(expected)
    assert len(accepted(graded)) == len(expected)


def test_the_gradebook_page_of_the_platform_holds_the_scores(graded, teacher):
    session_lock_teachbacks(session=graded.session, by=teacher)
    grades.scores_send(link_id=graded.link.pk)
    book = graded.lms.server.gradebook(graded.lms.course)
    text = str(book)
    for user, (given, _maximum) in expected_scores(graded).items():
        assert user in text and str(given) in text


def test_nothing_is_sent_before_the_lock(graded):
    assert LtiScore.objects.count() == 0
    teachback = TeachBack.objects.filter(team__session=graded.session).first()
    assessment_save(
        teachback=teachback,
        scores={"complete": 1, "right_jobs": 1, "mission_link": 1, "said_clearly": None},
        comment="",
        by=graded.session.classroom.teacher,
    )
    assert LtiScore.objects.count() == 0


def test_a_changed_assessment_sends_the_new_score(graded, teacher):
    session_lock_teachbacks(session=graded.session, by=teacher)
    grades.scores_send(link_id=graded.link.pk)
    student_id, person = next(
        (sid, p) for sid, p in graded.learners.items() if p.id in expected_scores(graded)
    )
    team = TeamMembership.objects.get(session=graded.session, student_id=student_id).team
    assessment_save(
        teachback=team.teachback,
        scores={"complete": 0, "right_jobs": 1, "mission_link": 2, "said_clearly": None},
        comment="Look again at the Mission.",
        by=teacher,
    )
    row = LtiScore.objects.get(student_id=student_id)
    assert (row.version, row.sent_version, row.status) == (2, 1, ScoreStatus.WAITING)
    assert row.score_given == Decimal(3) and row.score_maximum == Decimal(9)
    grades.scores_send(link_id=graded.link.pk)
    score = latest(graded)[person.id]
    assert (score["scoreGiven"], score["scoreMaximum"]) == (3.0, 9.0)
    assert "Said clearly: skipped" in score["comment"]
    assert score["comment"].endswith("Look again at the Mission.")
    # One post for each version of this student's score, never more.
    assert [s["userId"] for s in accepted(graded)].count(person.id) == 2
    # Saving the same scores again changes nothing and sends nothing.
    posts = graded.lms.store.score_attempts
    assessment_save(
        teachback=team.teachback,
        scores={"complete": 0, "right_jobs": 1, "mission_link": 2, "said_clearly": None},
        comment="Look again at the Mission.",
        by=teacher,
    )
    grades.scores_send(link_id=graded.link.pk)
    assert graded.lms.store.score_attempts == posts
    assert LtiScore.objects.get(student_id=student_id).version == 2


def test_a_score_endpoint_answering_500_leaves_scores_waiting_then_sends_them(
    graded, teacher, fast_retries
):
    graded.lms.store.set_score_fault(ScoreFault.ERROR)
    session_lock_teachbacks(session=graded.session, by=teacher)
    outcome = grades.scores_send(link_id=graded.link.pk)
    assert outcome.sent == 0 and outcome.retry_after is not None
    rows = LtiScore.objects.filter(session=graded.session)
    for row in rows:
        assert row.status == ScoreStatus.WAITING and row.attempts == 1
        assert row.message.startswith("HTTP 500") and "gradebook is down" in row.message
    assert accepted(graded) == []
    graded.lms.store.set_score_fault(ScoreFault.NONE)
    outcome = grades.scores_send(link_id=graded.link.pk)
    assert outcome.sent == rows.count() and outcome.retry_after is None
    assert len(accepted(graded)) == rows.count()
    assert not rows.exclude(status=ScoreStatus.SENT).exists()
    assert not rows.exclude(message="").exists()


def test_a_hanging_score_endpoint_times_out_and_the_score_waits(graded, teacher, fast_retries):
    import time

    graded.lms.store.set_score_fault(ScoreFault.HANG, hang_seconds=20)
    session_lock_teachbacks(session=graded.session, by=teacher)
    count = LtiScore.objects.filter(session=graded.session).count()
    posts = graded.lms.store.score_attempts
    started = time.monotonic()
    outcome = grades.scores_send(link_id=graded.link.pk)
    # The first post gave up after the timeout (1 s here) and the others wait for the next
    # attempt without a timeout each: the worker is never stuck.
    assert time.monotonic() - started < 1.0 + 4
    assert graded.lms.store.score_attempts - posts == 1
    assert outcome.waiting == count and outcome.retry_after is not None
    row = LtiScore.objects.filter(session=graded.session).first()
    assert row.status == ScoreStatus.WAITING and "did not answer in time" in row.message
    assert row.claimed_until is None
    graded.lms.store.set_score_fault(ScoreFault.NONE)
    grades.scores_send(link_id=graded.link.pk)
    # A resend after a lost answer carries the version's own timestamp: the platform keeps
    # one result per learner whatever it had received.
    assert len(latest(graded)) == count
    assert LtiScore.objects.filter(status=ScoreStatus.SENT).count() == count


def test_a_learner_who_left_the_course_is_refused_with_the_reason(graded, teacher):
    student_id, person = next(
        (sid, p) for sid, p in graded.learners.items() if p.id in expected_scores(graded)
    )
    graded.lms.store.unenrol(graded.lms.course, person)
    session_lock_teachbacks(session=graded.session, by=teacher)
    grades.scores_send(link_id=graded.link.pk)
    row = LtiScore.objects.get(student_id=student_id)
    assert row.status == ScoreStatus.REFUSED and row.message == grades.NOT_IN_COURSE
    assert person.id not in latest(graded)


def test_a_platform_refusal_is_kept_with_its_words_and_not_retried(graded, teacher):
    graded.link.line_item_url = graded.link.line_item_url.rsplit("/", 1)[0] + "/no-such-item"
    graded.link.save()
    session_lock_teachbacks(session=graded.session, by=teacher)
    outcome = grades.scores_send(link_id=graded.link.pk)
    assert outcome.retry_after is None and outcome.refused == len(expected_scores(graded))
    row = LtiScore.objects.filter(session=graded.session).first()
    assert row.status == ScoreStatus.REFUSED and row.message.startswith("HTTP 4")


def test_rows_another_sender_holds_are_left_alone(graded, teacher):
    from django.utils import timezone

    session_lock_teachbacks(session=graded.session, by=teacher)
    LtiScore.objects.update(claimed_until=timezone.now() + timezone.timedelta(minutes=1))
    posts = graded.lms.store.score_attempts
    outcome = grades.scores_send(link_id=graded.link.pk)
    assert outcome.retry_after is not None and graded.lms.store.score_attempts == posts
    assert not LtiScore.objects.filter(sent_version__gte=F("version")).exists()


def test_send_again_gives_refused_scores_a_new_attempt(graded, teacher):
    graded.lms.store.set_score_fault(ScoreFault.ERROR)
    session_lock_teachbacks(session=graded.session, by=teacher)
    grades.scores_send(link_id=graded.link.pk)
    LtiScore.objects.update(status=ScoreStatus.REFUSED)
    graded.lms.store.set_score_fault(ScoreFault.NONE)
    count = grades.scores_send_again(session=graded.session)
    assert count == LtiScore.objects.count()
    grades.scores_send(link_id=graded.link.pk)
    assert LtiScore.objects.exclude(status=ScoreStatus.SENT).count() == 0


@pytest.mark.parametrize("game_points", ["results", "state"])
def test_only_the_assessed_teachback_goes_back_never_game_points(graded, teacher, game_points):
    session_lock_teachbacks(session=graded.session, by=teacher)
    grades.scores_send(link_id=graded.link.pk)
    for score in accepted(graded):
        assert set(score) >= {"scoreGiven", "scoreMaximum", "comment", "userId", "timestamp"}
        assert "points" not in score["comment"].lower() and game_points not in score


def test_the_beat_sweep_sends_again_scores_left_waiting(graded, teacher, settings):
    from django.utils import timezone

    from classroom import tasks

    graded.lms.store.set_score_fault(ScoreFault.ERROR)
    session_lock_teachbacks(session=graded.session, by=teacher)
    grades.scores_send(link_id=graded.link.pk)
    # Nothing is swept while the task's own retries are still due...
    assert grades.scores_sweep() == 0
    # ...but a score left waiting longer (the task's attempts ran out, or the broker was down)
    # gets fresh attempts and its link's task again.
    LtiScore.objects.update(
        attempts=settings.LTI_SCORE_MAX_ATTEMPTS,
        updated_at=timezone.now() - timezone.timedelta(hours=1),
    )
    assert grades.scores_sweep() == 1
    assert set(LtiScore.objects.values_list("attempts", flat=True)) == {0}
    assert settings.CELERY_BEAT_SCHEDULE["sweep-lti-scores"]["task"] == tasks.lti_scores_sweep.name
