"""The classroom pages not covered by the lesson flow, at the sizes they are used at: the class
page and the session set-up on a Chromebook and a phone, the school page, and a full lobby of a
class of 24 on a projector. Each is screenshotted, and no page may log a CSP error."""

import datetime

import pytest
from playwright.sync_api import expect

from classroom import services
from classroom.demo import DEMO_ADMIN, DEMO_PASSWORD, DEMO_TEACHER, load_demo
from tests.e2e.conftest import CHROMEBOOK, PHONE, PROJECTOR

pytestmark = pytest.mark.browser


def _log_in(context, base: str, email: str):
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")
    return page


@pytest.fixture
def demo(db):
    demo = load_demo()
    teacher, classroom = demo["teacher"], demo["classroom"]
    session = services.session_create(
        classroom=classroom, by=teacher, date=datetime.date(2026, 12, 3), game="three_laws"
    )
    students = list(classroom.students.all())
    services.session_set_present(session=session, student_ids=[s.pk for s in students], by=teacher)
    services.team_autopair(session=session, by=teacher)
    services.tables_autosplit(session=session, by=teacher)
    services.session_open(session=session, by=teacher)
    session.refresh_from_db()
    for student in students[:17]:
        services.device_join(session=session, student=student)
    return {**demo, "session": session}


@pytest.mark.layout
def test_teacher_pages_on_chromebook_and_phone(
    live_server, demo, new_context, screenshot, console_errors
):
    base = live_server.url
    for label, viewport in (("chromebook", CHROMEBOOK), ("phone", PHONE)):
        page = console_errors(_log_in(new_context(viewport), base, DEMO_TEACHER))
        page.goto(f"{base}{demo['classroom'].get_absolute_url()}")
        expect(page.get_by_role("heading", name="Roster")).to_be_visible()
        screenshot(page, f"classroom-class-detail-{label}")
        page.goto(f"{base}{demo['session'].get_absolute_url()}")
        expect(page.get_by_role("heading", name="Joined devices")).to_be_visible()
        screenshot(page, f"classroom-session-open-{label}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{label}: the page scrolls sideways ({width}px)"
    assert console_errors.errors == []


def test_full_lobby_on_a_projector(live_server, demo, new_context, screenshot, console_errors):
    page = console_errors(_log_in(new_context(PROJECTOR), live_server.url, DEMO_TEACHER))
    page.goto(f"{live_server.url}/sessions/{demo['session'].pk}/lobby/")
    expect(page.locator(".joined-count")).to_have_text("17")
    screenshot(page, "classroom-lobby-full-projector")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= PROJECTOR["height"], f"the lobby needs scrolling on a projector ({height}px)"
    assert console_errors.errors == []


def test_school_page_for_the_administrator(
    live_server, demo, new_context, screenshot, console_errors
):
    page = console_errors(_log_in(new_context(CHROMEBOOK), live_server.url, DEMO_ADMIN))
    page.get_by_role("link", name="School overview").click()
    expect(page.get_by_role("heading", name="People")).to_be_visible()
    screenshot(page, "classroom-school-admin")
    page.get_by_role("link", name="Invite a teacher").click()
    page.get_by_label("Teacher's e-mail").fill("new.teacher@maple.test")
    page.get_by_role("button", name="Send invitation").click()
    expect(page.get_by_label("Invitation link")).to_have_value(
        __import__("re").compile(r"/accounts/invite/")
    )
    screenshot(page, "classroom-invite-link")
    assert console_errors.errors == []
