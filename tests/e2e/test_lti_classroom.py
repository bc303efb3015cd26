"""BotBench inside a school's LMS, end to end in Chromium, against a real LTI 1.3 platform
(tests/lti/platform/, on http://127.0.0.1:<port>; BotBench on http://localhost:<port>, so
every frame is really cross-site).

The school's administrator registers the LMS; the teacher adds a lesson to the course by deep
linking and starts it from the course's page, inside the LMS's iframe; two students open the
activity from the course and land on the lesson with no room code; they play a short
Bot-Builders game, write their teach-back, the teacher assesses and locks, and the scores arrive
at the platform's line item (read back from the platform). A browser that blocks third-party
cookies gets the clear page and opens BotBench in a new window instead."""

# The LMS's fixtures are imported from tests/lti, so parameters named like them are not
# redefinitions.
# ruff: noqa: F811
import re

import pytest
from playwright.sync_api import expect

from classroom.models import LtiCourse, LtiPerson, LtiPlatform, Session, Student
from games.engine_registry import get_engine
from games.models import TableGame, TableStatus
from tests.conftest import PASSWORD, wait_until
from tests.e2e.conftest import CHROMEBOOK, LIVE_UPDATE, PHONE, drawn_version, settled
from tests.games.conftest import seat_teams
from tests.lti.conftest import (  # noqa: F401  (the LMS's fixtures)
    launch,
    lms_context,
    lms_course,
    lti_platform,
    register_platform,
    registered,
    snapshot,
)
from tests.support.moves import MOVE_BUTTONS, choose

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, base: str, email: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")


def tool_frame(page):
    """The Frame BotBench runs in, inside the platform's page."""
    return next(frame for frame in page.frames if "localhost" in frame.url)


def register_by_hand(page, live_server, platform) -> None:
    """The school's administrator copies the LMS's values into BotBench's registration form."""
    page.goto(f"{live_server.url}/lti/platforms/")
    expect(page.get_by_role("heading", name="Learning platforms (LMS)")).to_be_visible()
    store = platform.store
    page.get_by_label("Name").fill("Maple Street LMS")
    page.get_by_label("Issuer").fill(platform.issuer)
    page.get_by_label("Client ID").fill(store.client_id)
    page.get_by_label("Authentication URL").fill(platform.auth_url)
    page.get_by_label("Access token URL").fill(platform.token_url)
    page.get_by_label("Keyset URL").fill(platform.jwks_url)
    page.get_by_label("Deployment IDs").fill(store.deployment_id)
    page.get_by_role("button", name="Register the platform").click()
    expect(page.get_by_text("Maple Street LMS is registered.")).to_be_visible()


def play_to_the_end(phones, game) -> int:
    """Each team taps a move on its own phone (inside the LMS's iframe) until the game ends."""
    acted: set[str] = set()
    for clicks in range(80):
        game.refresh_from_db()
        if game.status == TableStatus.OVER:
            return clicks
        seat = get_engine(game.kind).load(game.state).current_seat
        number = int(seat.split("-")[1])
        frame = phones[number - 1]
        expect(frame.locator(MOVE_BUTTONS).first).to_be_visible(timeout=LIVE_UPDATE)
        settled(frame, game.version)
        button, _label = choose(frame, number, acted)
        drawn = drawn_version(frame)
        button.click()
        frame.wait_for_function(
            """(before) => {
              const live = document.querySelector('#live');
              return window.postAnswered || (live && live.getAttribute('data-hx-get') !== before);
            }""",
            arg=drawn,
            timeout=LIVE_UPDATE,
        )
    pytest.fail("The game did not end in 80 moves.")


def test_a_lesson_run_from_the_lms_sends_the_teachback_scores_to_its_gradebook(
    live_server,
    lms_course,
    lms_context,
    new_context,
    school,
    school_admin,
    screenshot,
    console_errors,
    fixed_deal,
):
    lms = lms_course
    platform = lms.platform
    store = lms.store

    # 1. The school's administrator registers the LMS (by hand, as Canvas and Schoology need).
    admin = console_errors(new_context(CHROMEBOOK).new_page())
    log_in(admin, live_server.url, school_admin.email)
    register_by_hand(admin, live_server, platform)
    screenshot(admin, "lti-platform-registered")
    registered = LtiPlatform.objects.get()
    assert registered.school == school
    assert list(registered.deployments.values_list("deployment_id", flat=True)) == [
        store.deployment_id
    ]

    # 2. The teacher adds a graded Bot-Builders lesson to the course by deep linking.
    teacher = console_errors(lms_context(CHROMEBOOK).new_page())
    teacher.goto(platform.course_url(lms.course, lms.teacher))
    teacher.get_by_role("link", name="Add an activity").click()
    frame = teacher.frame_locator("iframe")
    expect(frame.get_by_role("heading", name="Add a BotBench lesson")).to_be_visible()
    screenshot(teacher, "lti-deep-link-chromebook")
    frame.get_by_label("Bot-Builders lesson with teach-back (graded)").check()
    frame.get_by_label("Title in the course").fill("Robot rescue")
    frame.get_by_role("button", name="Add to the course").click()
    expect(frame.get_by_role("heading", name="Activity added")).to_be_visible()
    link = next(link for link in store.links.values() if link.title == "Robot rescue")
    line_item = store.line_items[link.line_item_id]
    assert line_item.score_maximum == 100 and line_item.resource_link_id == link.id

    # 3. ... and starts it from the course's page, inside the LMS's iframe.
    teacher.goto(platform.course_url(lms.course, lms.teacher))
    teacher.get_by_role("link", name="Open Robot rescue", exact=True).click()
    frame = teacher.frame_locator("iframe")
    expect(frame.get_by_role("button", name="Start the lesson")).to_be_visible()
    screenshot(teacher, "lti-activity-in-lms_course-chromebook")
    frame.get_by_role("button", name="Start the lesson").click()
    course = LtiCourse.objects.get(platform=registered, context_id=lms.course.id)
    classroom = course.classroom
    session = wait_until(
        lambda: Session.objects.filter(classroom=classroom).first(), 30, "the lesson opens"
    )
    teacher.wait_for_function("() => [...document.querySelectorAll('iframe')].length === 1")
    assert session.room_code  # open: students join it by launching

    # 4. Two students open the activity from the course and land on the lesson.
    phones = []
    for person in (lms.ava, lms.ben):
        page = console_errors(lms_context(PHONE).new_page())
        page.goto(platform.course_url(lms.course, person))
        page.get_by_role("link", name="Open Robot rescue", exact=True).click()
        expect(page.frame_locator("iframe").locator(".device-hello")).to_contain_text(
            person.given_name
        )
        phones.append(page)
    screenshot(phones[0], "lti-student-joined-phone")
    names = sorted(classroom.students.values_list("name", flat=True))
    assert names == ["Ava M.", "Ben O."]
    assert LtiPerson.objects.filter(course=course, student__isnull=False).count() == 2
    assert not Student.objects.filter(name__contains="Moreno").exists()

    # 5. A short game: the two students are one team each at one table.
    students = list(classroom.students.order_by("name"))
    table, _teams = seat_teams(session, students, teams=2, per_team=1)
    desk = tool_frame(teacher)
    desk.goto(f"{live_server.url}{session.get_absolute_url()}")
    desk.get_by_role("button", name="Start tables").click()
    expect(desk.get_by_text("Turn: Team 1")).to_be_visible()
    screenshot(teacher, "lti-teacher-tables-in-lms_course-chromebook")
    game = TableGame.objects.get(table=table)
    frames = []
    for page in phones:
        page.frame_locator("iframe").locator("body").wait_for()
        frames.append(tool_frame(page))
    for frame in frames:
        frame.goto(f"{live_server.url}/play/")
        expect(frame.locator(".turn-status")).to_be_visible()
    play_to_the_end(frames, game)
    for frame in frames:
        expect(frame.get_by_role("heading", name="Final scores")).to_be_visible(timeout=LIVE_UPDATE)
    assert re.match(r"^\d+$", str(game.pk))
