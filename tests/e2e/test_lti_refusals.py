"""Launches BotBench must refuse, driven in Chromium from the test platform's course page: each
ends on a clear page inside the LMS's iframe, and writes nothing (no account, class, course,
roster entry, person, link or device)."""

# The LMS's fixtures are imported from tests/lti, so parameters named like them are not
# redefinitions.
# ruff: noqa: F811
import pytest
from playwright.sync_api import expect

from classroom.models import LtiCourse, LtiPerson, LtiResourceLink
from tests.lti.conftest import (  # noqa: F401  (the LMS's fixtures)
    launch,
    lms_context,
    lms_course,
    lti_platform,
    registered,
    snapshot,
)
from tests.lti.platform.store import Kind, Tamper

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REFUSED = "BotBench could not open"


def refused_in(frame, reason: str) -> None:
    expect(frame.get_by_role("heading", name=REFUSED)).to_be_visible()
    expect(frame.locator(f"[data-refusal='{reason}']")).to_be_visible()
    expect(frame.get_by_role("alert")).not_to_be_empty()
    expect(frame.get_by_text("Nothing was saved.")).to_be_visible()


def test_a_sound_instructor_launch_opens_the_activity(
    lms_course, registered, lms_context, launch, snapshot
):
    """The control: the same launch, unspoiled, is accepted (so the refusals below are the
    tamper's doing) and writes the teacher's class, course, person and link."""
    lms = lms_course
    page = lms_context().new_page()
    frame = launch(page, lms.teacher, lms.course, lms.link)
    expect(frame.get_by_role("button", name="Start the lesson")).to_be_visible()
    course = LtiCourse.objects.get(platform=registered, context_id=lms.course.id)
    assert course.classroom.name == "Robotics 4B"
    assert LtiResourceLink.objects.get(course=course).resource_link_id == lms.link.id
    person = LtiPerson.objects.get(course=course)
    assert person.user == course.classroom.teacher and lms.teacher.id not in person.sub_hash


@pytest.mark.parametrize(
    ("tamper", "reason"),
    [
        (Tamper.AUDIENCE, "wrong_audience"),
        (Tamper.ISSUER, "unknown_issuer"),
        (Tamper.DEPLOYMENT, "unknown_deployment"),
        (Tamper.EXPIRED, "expired"),
        (Tamper.OTHER_KEY, "bad_signature"),
    ],
)
def test_a_spoiled_id_token_is_refused_and_writes_nothing(
    lms_course, registered, lms_context, launch, snapshot, tamper, reason
):
    lms = lms_course
    page = lms_context().new_page()
    before = snapshot()
    frame = launch(page, lms.teacher, lms.course, lms.link, tamper=tamper)
    refused_in(frame, reason)
    assert snapshot() == before


def test_a_replayed_launch_is_refused_and_writes_nothing(
    lms_course, registered, lms_context, launch, snapshot
):
    lms = lms_course
    page = lms_context().new_page()
    frame = launch(page, lms.ava, lms.course, lms.link)
    # A learner before the course was set up is refused too; the teacher launches first.
    refused_in(frame, "not_set_up")
    frame = launch(page, lms.teacher, lms.course, lms.link)
    expect(frame.get_by_role("button", name="Start the lesson")).to_be_visible()
    before = snapshot()
    issued = len(lms.store.issued) - 1
    page.goto(f"{lms.platform.url}/issued/{issued}")
    refused_in(page, "replayed")
    assert snapshot() == before


def test_a_learner_launching_another_courses_activity_is_refused(
    lms_course, registered, lms_context, launch, snapshot
):
    lms = lms_course
    teacher_page = lms_context().new_page()
    # Alice adds a lesson to her course by deep linking: its link names her course's activity.
    frame = launch(teacher_page, lms.teacher, lms.course, kind=Kind.DEEP_LINKING)
    frame.get_by_label("Bot-Builders lesson with teach-back (graded)").check()
    frame.get_by_label("Title in the course").fill("Robot rescue")
    frame.get_by_role("button", name="Add to the course").click()
    expect(frame.get_by_role("heading", name="Activity added")).to_be_visible()
    deep_linked = next(link for link in lms.store.links.values() if link.title == "Robot rescue")
    # Bob sets his own course up.
    bob_page = lms_context().new_page()
    frame = launch(bob_page, lms.other_teacher, lms.other_course, lms.other_link)
    expect(frame.get_by_role("button", name="Start the lesson")).to_be_visible()
    # Cleo, of Bob's course, launches Alice's activity from her own course.
    cleo_page = lms_context().new_page()
    before = snapshot()
    frame = launch(cleo_page, lms.cleo, lms.other_course, deep_linked)
    refused_in(frame, "other_course")
    assert snapshot() == before
