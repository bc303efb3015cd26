"""The teacher's gradebook status page (sent / waiting / refused with the LMS's words), linked
from the teach-back page where the sentences are locked, and the lock's own message."""

from django.urls import reverse

from classroom.lti import grades
from classroom.models import LtiScore, ScoreStatus
from tests.lti.platform.store import ScoreFault


def test_the_teachback_page_links_the_gradebook_status_and_says_the_lock_sends(
    graded, teacher_client
):
    url = reverse("games:assessments", args=[graded.session.pk])
    page = teacher_client.get(url).content.decode()
    assert reverse("lti:grades", args=[graded.session.pk]) in page
    assert "Lock sentences and send the scores to the LMS" in page
    locked = teacher_client.post(
        reverse("games:teachback_lock", args=[graded.session.pk]), {"action": "lock"}, follow=True
    )
    assert "on their way to the LMS gradebook" in locked.content.decode()
    assert LtiScore.objects.filter(session=graded.session).exists()


def test_status_page_shows_each_student_s_status_and_the_lms_s_words(graded, teacher_client):
    status_url = reverse("lti:grades", args=[graded.session.pk])
    before = teacher_client.get(status_url).content.decode()
    assert "Scores are sent when you lock the sentences" in before
    graded.lms.store.set_score_fault(ScoreFault.ERROR)
    teacher_client.post(
        reverse("games:teachback_lock", args=[graded.session.pk]), {"action": "lock"}
    )
    grades.scores_send(link_id=graded.link.pk)
    waiting = teacher_client.get(status_url).content.decode()
    count = LtiScore.objects.filter(session=graded.session).count()
    assert f"Waiting: {count}" in waiting and "the gradebook is down" in waiting
    assert "Not in the LMS course: nothing is sent." in waiting  # the students typed by hand
    row = LtiScore.objects.filter(session=graded.session).first()
    row.status, row.message = ScoreStatus.REFUSED, "HTTP 422: score above the maximum"
    row.save()
    graded.lms.store.set_score_fault(ScoreFault.NONE)
    again = teacher_client.post(reverse("lti:grades_send_again", args=[graded.session.pk]))
    assert again.status_code == 302
    grades.scores_send(link_id=graded.link.pk)
    sent = teacher_client.get(status_url).content.decode()
    assert f"Sent: {count}" in sent and "Waiting: 0" in sent and "Refused: 0" in sent
    assert "Send the waiting and refused scores again" not in sent


def test_the_administrator_reads_the_status_without_the_send_button(
    graded, teacher, school_admin_client
):
    graded.lms.store.set_score_fault(ScoreFault.ERROR)
    from games.teachback.services import session_lock_teachbacks

    session_lock_teachbacks(session=graded.session, by=teacher)
    grades.scores_send(link_id=graded.link.pk)
    page = school_admin_client.get(reverse("lti:grades", args=[graded.session.pk]))
    assert page.status_code == 200
    assert "Waiting" in page.content.decode()
    assert "Send the waiting and refused scores again" not in page.content.decode()


def test_a_session_not_from_an_lms_says_its_scores_stay_here(bb_session, teacher_client):
    page = teacher_client.get(reverse("lti:grades", args=[bb_session.pk])).content.decode()
    assert "stay in BotBench" in page


def test_starting_the_lesson_from_the_lms_activity_records_its_gradebook_column(
    graded, classroom, teacher_client
):
    from classroom.models import Session, SessionStatus

    Session.objects.filter(pk=graded.session.pk).update(status=SessionStatus.CLOSED)
    answer = teacher_client.post(reverse("lti:activity-start", args=[graded.link.pk]))
    assert answer.status_code == 302
    started = Session.objects.exclude(pk=graded.session.pk).get(classroom=classroom)
    assert started.lti_link == graded.link
    assert grades.link_for_session(started) == graded.link
