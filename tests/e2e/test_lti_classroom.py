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
from tests.support.workers import worker

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SENTENCES = [
    {
        "senses with": "a camera",
        "thinks with": "an if/then board",
        "acts with": "drive wheels",
        "powered by": "a battery pack",
        "because": "it drives to people trapped after a storm and brings them water",
    },
    {
        "senses with": "a microphone",
        "thinks with": "a loop chip",
        "acts with": "a speaker",
        "powered by": "a solar panel",
        "because": "it is cool",
    },
]
# Per team: the rubric's criteria and the mark given (Ava's team 10/12; Ben's 3/9, one skipped).
MARKS = [
    {"^Complete": "3", "^Right jobs": "3", "^Mission link": "2", "^Said clearly": "2"},
    {"^Complete": "2", "^Right jobs": "1", "^Mission link": "0", "^Said clearly": "skip"},
]


def log_in(page, base: str, email: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")


def tool_frame(page):
    """The Frame BotBench runs in, inside the platform's page."""
    return next(frame for frame in page.frames if "localhost" in frame.url)


def register_by_hand(page, live_server, platform, screenshot) -> None:
    """The school's administrator copies the LMS's values into BotBench's registration form."""
    page.goto(f"{live_server.url}/lti/platforms/")
    expect(page.get_by_role("heading", name="Learning platforms (LMS)")).to_be_visible()
    screenshot(page, "lti-platforms-chromebook")
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
    register_by_hand(admin, live_server, platform, screenshot)
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
    screenshot(teacher, "lti-activity-in-lms-chromebook")
    frame.get_by_role("button", name="Start the lesson").click()
    course = LtiCourse.objects.get(platform=registered, context_id=lms.course.id)
    classroom = course.classroom
    # Open (a room code): students join it by launching. Made, then opened: wait for both.
    session = wait_until(
        lambda: Session.objects.filter(classroom=classroom, room_code__isnull=False).first(),
        30,
        "the lesson opens",
    )
    teacher.wait_for_function("() => [...document.querySelectorAll('iframe')].length === 1")

    # 4. The teacher syncs the roster from the course (NRPS): a preview first, then the change;
    # a second sync has nothing to change.
    desk = tool_frame(teacher)
    # The frame lands on the lesson first: a navigation of ours would cut that one short.
    desk.wait_for_url(re.compile(rf"/sessions/{session.pk}/$"))
    desk.goto(f"{live_server.url}{classroom.get_absolute_url()}")
    desk.get_by_role("link", name="Sync the roster from the LMS").click()
    expect(desk.get_by_role("heading", name=re.compile("New learners to add"))).to_be_visible()
    expect(desk.locator(".roster-name")).to_have_text(["Ava M.", "Ben O."])
    assert classroom.students.count() == 0  # nothing changes before the teacher says so
    screenshot(teacher, "lti-roster-preview-chromebook")
    desk.get_by_role("button", name="Make these changes").click()
    desk.wait_for_url(re.compile(rf"/classes/{classroom.pk}/$"))
    assert classroom.students.count() == 2
    desk.goto(f"{live_server.url}/lti/classes/{classroom.pk}/roster/")
    expect(desk.get_by_role("heading", name="Nothing to change")).to_be_visible()

    # 5. Two students open the activity from the course and land on the lesson, with no room
    # code: the launch finds the roster entries the sync made (by the hashed LMS id).
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

    # 6. A short game: the two students are one team each at one table.
    students = list(classroom.students.order_by("name"))
    table, teams = seat_teams(session, students, teams=2, per_team=1)
    desk.goto(f"{live_server.url}{session.get_absolute_url()}")
    desk.get_by_role("button", name="Start tables").click()
    expect(desk.get_by_text("Turn: Team 1")).to_be_visible()
    screenshot(teacher, "lti-teacher-tables-in-lms-chromebook")
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

    # 7. Each team writes its teach-back on its phone, still inside the LMS's page.
    for index, frame in enumerate(frames):
        frame.get_by_role("link", name="Write your teach-back").click()
        for label, value in SENTENCES[index].items():
            frame.get_by_label(label, exact=True).fill(value)
        frame.get_by_role("button", name="Submit").click()
        expect(frame.get_by_text("Sent! You can still change it")).to_be_visible()
    screenshot(phones[0], "lti-teachback-phone")

    # 8. The teacher assesses both sentences and locks: the scores go to the LMS.
    desk.goto(f"{live_server.url}/play/sessions/{session.pk}/assessments/")
    for team, marks in zip(teams, MARKS, strict=True):
        row = desk.locator(f"#tb-row-{team.pk}")
        for criterion, mark in marks.items():
            row.get_by_role("group", name=re.compile(criterion)).get_by_role(
                "radio", name=mark, exact=True
            ).check()
        row.get_by_role("button", name="Save").click()
        expect(desk.locator(f"#tb-row-{team.pk}").get_by_text("Saved.")).to_be_visible()
    with worker():
        desk.get_by_role("button", name="Lock sentences and send the scores to the LMS").click()
        expect(desk.get_by_role("button", name="Unlock sentences")).to_be_visible()
        # Read back from the platform's own gradebook, not from BotBench.
        book = wait_until(
            lambda: (
                (b := platform.gradebook(lms.course))
                and len(b[link.line_item_id]["results"]) == 2
                and b
            ),
            60,
            "both students' scores reach the platform's line item",
        )
    results = book[link.line_item_id]["results"]
    ava, ben = results[lms.ava.id], results[lms.ben.id]
    assert (ava["scoreGiven"], ava["scoreMaximum"]) == (10, 12)
    assert (ben["scoreGiven"], ben["scoreMaximum"]) == (3, 9)
    assert "Complete: 3/3" in ava["comment"] and "Said clearly: skipped" in ben["comment"]
    assert ava["activityProgress"] == "Completed" and ava["gradingProgress"] == "FullyGraded"
    # The LMS scales each to its column (out of 100).
    assert book[link.line_item_id]["grades"] == {lms.ava.id: 83.33, lms.ben.id: 33.33}
    # Once each: no score was posted twice.
    assert len(book[link.line_item_id]["received"]) == 2

    desk.goto(f"{live_server.url}/lti/sessions/{session.pk}/grades/")
    expect(desk.get_by_role("heading", name="Scores sent to the LMS gradebook")).to_be_visible()
    screenshot(teacher, "lti-grades-status-chromebook")
    teacher.goto(f"{platform.url}/courses/{lms.course.id}/gradebook")
    expect(teacher.get_by_role("cell", name="83.33", exact=True)).to_be_visible()
    screenshot(teacher, "lti-platform-gradebook-chromebook")
    assert console_errors.errors == []


def test_a_browser_blocking_third_party_cookies_gets_a_clear_page_and_a_new_window(
    live_server, lms_course, registered, lms_context, launch, screenshot, console_errors
):
    """A browser that refuses every third-party cookie (partitioned ones too, as Safari does):
    inside the LMS's iframe BotBench says so before anything happens, and its "Open in a new
    window" finishes the same launch as a first-party window."""
    lms = lms_course
    page = console_errors(lms_context(CHROMEBOOK, third_party_cookies=False).new_page())
    frame = launch(page, lms.teacher, lms.course, lms.link)
    expect(frame.get_by_role("alert")).to_contain_text(
        "Your browser blocks the cookies BotBench needs"
    )
    expect(frame.get_by_role("link", name="Continue here")).to_be_hidden()
    assert not LtiCourse.objects.exists()  # nothing happened in the frame
    screenshot(page, "lti-cookies-blocked-chromebook")
    with page.context.expect_page() as opened:
        frame.get_by_role("link", name="Open in a new window").click()
    window = console_errors(opened.value)
    expect(window.get_by_role("button", name="Start the lesson")).to_be_visible()
    assert window.url.startswith(live_server.url)
    course = LtiCourse.objects.get(platform=registered, context_id=lms.course.id)
    assert course.people.get().user == course.classroom.teacher
    screenshot(window, "lti-new-window-chromebook")
    assert console_errors.errors == []
