"""An LMS whose score endpoint answers 500, or hangs past BotBench's timeout, seen in Chromium:
the teacher's lock answers at once, the gradebook status page shows each score waiting with
what the LMS said, the teacher's pages carry on, and once the LMS answers again the worker's
retries deliver every score to the platform's line item, once (read back from the platform).

The lesson is set up as lti-services' tests set it up (tests/lti/services/conftest.py: the
real test platform, BotBench's rows as a launch leaves them, a Bot-Builders teach-back lesson
played and assessed)."""

# The services' fixtures are imported, so parameters named like them are not redefinitions.
# ruff: noqa: F811
import re
import time

import pytest
from playwright.sync_api import expect

from classroom.models import LtiScore, ScoreStatus
from tests.conftest import wait_until
from tests.e2e.conftest import CHROMEBOOK, login_cookie
from tests.lti.platform.store import ScoreFault
from tests.lti.services.conftest import (  # noqa: F401  (the services' world)
    fast_retries,
    graded,
    lms,
    own_platform,
    platform,
    shared_platform,
)
from tests.support.workers import worker

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SAID = {ScoreFault.ERROR: "HTTP 500", ScoreFault.HANG: "did not answer in time"}


@pytest.mark.parametrize("fault", [ScoreFault.ERROR, ScoreFault.HANG])
def test_scores_wait_while_the_lms_fails_and_arrive_once_when_it_answers(
    live_server,
    new_context,
    screenshot,
    console_errors,
    graded,
    teacher,
    fast_retries,
    fault,
):
    store = graded.lms.store
    store.set_score_fault(fault, hang_seconds=60)
    session = graded.session
    base = live_server.url
    desk_context = new_context(CHROMEBOOK)
    desk_context.add_cookies([{**login_cookie(teacher), "url": base}])
    desk = console_errors(desk_context.new_page())
    with worker():
        desk.goto(f"{base}/play/sessions/{session.pk}/assessments/")
        started = time.monotonic()
        desk.get_by_role("button", name="Lock sentences and send the scores to the LMS").click()
        expect(desk.get_by_role("button", name="Unlock sentences")).to_be_visible()
        # The lock does not wait for the LMS (a hanging one included).
        assert time.monotonic() - started < 10
        wait_until(
            lambda: LtiScore.objects.filter(
                session=session, message__contains=SAID[fault]
            ).exists(),
            60,
            "a score waits with what the LMS said",
        )
        desk.goto(f"{base}/lti/sessions/{session.pk}/grades/")
        expect(desk.get_by_text(re.compile(SAID[fault])).first).to_be_visible()
        expect(desk.get_by_text("Waiting to be sent").first).to_be_visible()
        screenshot(desk, f"lti-grades-waiting-{fault}-chromebook")

        # The lesson carries on: the teacher's pages answer at once while the LMS fails.
        desk.get_by_role("link", name="Teach-back sentences").click()
        started = time.monotonic()
        expect(desk.get_by_role("button", name="Unlock sentences")).to_be_visible()
        assert time.monotonic() - started < 10

        store.set_score_fault(ScoreFault.NONE)
        wait_until(
            lambda: (
                not LtiScore.objects.filter(session=session)
                .exclude(status=ScoreStatus.SENT)
                .exists()
            ),
            90,
            "every score sent once the LMS answers",
        )
    desk.goto(f"{base}/lti/sessions/{session.pk}/grades/")
    expect(desk.get_by_text(re.compile(r"Sent: \d+ · Waiting: 0 · Refused: 0"))).to_be_visible()
    # Read back from the platform: one score a learner, never doubled by the retries.
    received = graded.lms.server.gradebook(graded.lms.course)[graded.line_item_id]["received"]
    posted = [score["userId"] for score in received]
    assert sorted(posted) == sorted(set(posted))
    scored = LtiScore.objects.filter(session=session).values_list("student_id", flat=True)
    assert len(scored) >= 2
    assert set(posted) == {graded.learners[student_id].id for student_id in scored}
    assert store.score_attempts > len(posted)  # the failed attempts reached the platform
    assert console_errors.errors == []
