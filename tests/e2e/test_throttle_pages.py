"""The throttles as people meet them in a browser: a teacher locked out after wrong passwords
(the message and the way back), the school page offering to unlock, and a phone stopped after
wrong room codes. Screenshotted at phone, laptop and projector sizes."""

import datetime
import uuid

import pytest
from playwright.sync_api import expect

from classroom import services, throttle
from classroom.demo import DEMO_ADMIN, DEMO_PASSWORD, load_demo
from classroom.models import Role, User
from tests.e2e.conftest import CHROMEBOOK, PHONE, PROJECTOR, login_cookie

pytestmark = pytest.mark.browser

SIZES = (("phone", PHONE), ("chromebook", CHROMEBOOK), ("projector", PROJECTOR))


@pytest.fixture(autouse=True)
def _steady_clock(monkeypatch):
    """Windows are aligned on the clock, so a test running across a boundary would see its
    counts start again: the throttle's clock (the live server's thread too) stands still."""
    monkeypatch.setattr(throttle, "_now", lambda: 1_800_000_000.0)


def _try_login(page, base: str, email: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


def _real_errors(errors: list[str]) -> list[str]:
    # Chromium logs every 4xx page load as an error; those answers are the point here.
    return [error for error in errors if "Failed to load resource" not in error]


@pytest.fixture
def demo(db):
    return load_demo()


def test_a_locked_out_teacher_is_told_why_and_the_school_unlocks_her(
    live_server, demo, new_context, screenshot, console_errors
):
    base = live_server.url
    # A fresh account each run: the live server counts in the shared cache.
    teacher = User.objects.create_user(
        f"locked-{uuid.uuid4().hex[:8]}@botbench.local",
        DEMO_PASSWORD,
        school=demo["school"],
        role=Role.TEACHER,
        display_name="Ms. Locked",
    )
    page = console_errors(new_context(PHONE).new_page())
    for _ in range(10):
        _try_login(page, base, teacher.email, "not-my-password")
        expect(page.get_by_text("Please enter a correct")).to_be_visible()
    _try_login(page, base, teacher.email, DEMO_PASSWORD)
    expect(page.get_by_text("Too many wrong passwords for this account.")).to_be_visible()
    expect(page.get_by_role("link", name="Forgot your password?")).to_be_visible()
    for label, viewport in SIZES:
        page.set_viewport_size(viewport)
        screenshot(page, f"login-locked-out-{label}")

    admin = User.objects.get(email=DEMO_ADMIN)
    context = new_context(CHROMEBOOK)
    context.add_cookies([{**login_cookie(admin), "url": base}])
    school = console_errors(context.new_page())
    school.goto(f"{base}/school/")
    row = school.get_by_role("row").filter(has_text=teacher.email)
    expect(row.get_by_text("Locked out: too many wrong passwords")).to_be_visible()
    for label, viewport in SIZES:
        school.set_viewport_size(viewport)
        screenshot(school, f"school-teacher-locked-out-{label}")
        width = school.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{label}: the school page scrolls sideways"
    row.get_by_role("button", name="Unlock login").click()
    expect(school.get_by_text("Ms. Locked can log in again now.")).to_be_visible()

    _try_login(page, base, teacher.email, DEMO_PASSWORD)
    page.wait_for_url(f"{base}/")
    assert _real_errors(console_errors.errors) == []


def test_a_phone_typing_wrong_codes_is_stopped_with_a_clear_message(
    live_server, demo, new_context, screenshot, console_errors
):
    base = live_server.url
    session = services.session_open(
        session=services.session_create(
            classroom=demo["classroom"],
            by=demo["teacher"],
            date=datetime.date(2026, 12, 4),
            game="bot_builders",
        ),
        by=demo["teacher"],
    )
    phone = console_errors(new_context(PHONE).new_page())
    for _ in range(10):
        phone.goto(f"{base}/join")
        phone.get_by_label("Room code").fill("ZZZZZZ")
        phone.get_by_role("button", name="Next").click()
        expect(phone.get_by_text("No game is open with the code")).to_be_visible()
    phone.goto(f"{base}/join")
    phone.get_by_label("Room code").fill(session.room_code)
    phone.get_by_role("button", name="Next").click()
    expect(phone.get_by_text("Too many wrong codes from this device.")).to_be_visible()
    for label, viewport in SIZES:
        phone.set_viewport_size(viewport)
        screenshot(phone, f"join-device-stopped-{label}")
    # The next phone in the room, same address, joins.
    other = new_context(PHONE).new_page()
    other.goto(f"{base}/join")
    other.get_by_label("Room code").fill(session.room_code)
    other.get_by_role("button", name="Next").click()
    expect(other.get_by_text("Who are you?")).to_be_visible()
    assert _real_errors(console_errors.errors) == []
