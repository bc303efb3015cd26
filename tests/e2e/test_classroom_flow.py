"""A whole lesson set-up in real Chromium: a teacher makes a class and a session and opens it,
four phones join with the room code, and the projector's lobby shows them without a reload."""

import re

import pytest
from playwright.sync_api import expect

from classroom.models import DeviceBinding, Session, SessionStatus
from tests.conftest import PASSWORD, make_user
from tests.e2e.conftest import CHROMEBOOK, PHONE, PROJECTOR

pytestmark = pytest.mark.browser

ROSTER = ["Ava", "Ben", "Chloe", "Diego"]


def _log_in(page, base_url: str, email: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("E-mail").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base_url}/")


def test_teacher_opens_a_session_and_four_phones_join_live(
    live_server, school, new_context, screenshot, console_errors
):
    make_user("rivera@maple.test", school, name="Ms. Rivera")
    base = live_server.url
    teacher = console_errors(new_context(CHROMEBOOK).new_page())
    _log_in(teacher, base, "rivera@maple.test")

    teacher.get_by_role("link", name="New class").first.click()
    teacher.get_by_label("Class name").fill("Room 12 Robotics")
    teacher.get_by_label("Grade").fill("Grade 4")
    teacher.get_by_role("button", name="Create class").click()
    expect(teacher.get_by_role("heading", name="Room 12 Robotics")).to_be_visible()

    teacher.get_by_label("Students' first names or nicknames").fill("\n".join(ROSTER))
    teacher.get_by_role("button", name="Add these students").click()
    expect(teacher.get_by_text("Added 4 students.")).to_be_visible()

    teacher.get_by_role("link", name="Plan a session").click()
    teacher.get_by_label("Date").fill("2026-12-01")
    teacher.get_by_label("Game").select_option("bot_builders")
    teacher.get_by_role("button", name="Plan session").click()
    expect(teacher.get_by_role("heading", name="Who is here?")).to_be_visible()

    teacher.get_by_role("button", name="Everyone is here").click()
    expect(teacher.get_by_text("4 present.")).to_be_visible()
    teacher.get_by_role("button", name=re.compile("^Auto-pair")).click()
    expect(teacher.get_by_text("2 teams made.")).to_be_visible()
    teacher.get_by_role("button", name="Split into tables").click()
    expect(teacher.get_by_text("Teams split into 1 table.")).to_be_visible()
    screenshot(teacher, "classroom-session-setup")

    teacher.get_by_role("button", name="Open for joining").click()
    teacher.wait_for_url(re.compile(r"/sessions/\d+/lobby/$"))
    session = Session.objects.get()
    assert session.status == SessionStatus.OPEN and session.room_code

    teacher.set_viewport_size(PROJECTOR)
    expect(teacher.locator(".room-code")).to_have_text(session.room_code)
    expect(teacher.locator(".qr-frame svg")).to_be_visible()

    phones = []
    for index, name in enumerate(ROSTER):
        phone = console_errors(new_context(PHONE).new_page())
        phone.goto(f"{base}/join")
        # Typed in lower case on purpose: codes are case-insensitive.
        phone.get_by_label("Room code").fill(session.room_code.lower())
        if index == 0:
            screenshot(phone, "classroom-join-phone")
        phone.get_by_role("button", name="Next").click()
        expect(phone.get_by_role("heading", name="Who are you?")).to_be_visible()
        if index == 0:
            screenshot(phone, "classroom-join-names-phone")
        phone.get_by_role("button", name=name, exact=True).click()
        phone.wait_for_url(f"{base}/me")
        expect(phone.locator(".device-team")).to_contain_text("Team")
        phones.append(phone)

    # The projector was never reloaded: its poll brought every name in.
    expect(teacher.locator(".lobby-member.is-joined")).to_have_count(4)
    expect(teacher.locator(".joined-count")).to_have_text("4")
    screenshot(teacher, "classroom-lobby-projector")

    phones[0].reload()
    expect(phones[0].locator(".device-hello")).to_contain_text("Ava")
    expect(phones[0].locator(".device-team")).to_contain_text("Team")
    expect(phones[0].get_by_text("Waiting for your teacher")).to_be_visible()
    screenshot(phones[0], "classroom-device-waiting-phone")
    assert DeviceBinding.objects.filter(session=session, revoked_at__isnull=True).count() == 4

    teacher.set_viewport_size(CHROMEBOOK)
    teacher.goto(f"{base}/")
    expect(teacher.get_by_role("heading", name="Today and upcoming")).to_be_visible()
    screenshot(teacher, "classroom-dashboard")
    assert console_errors.errors == []


def test_wrong_code_on_a_phone_gets_a_clear_message(live_server, new_context, screenshot):
    phone = new_context(PHONE).new_page()
    phone.goto(f"{live_server.url}/join?code=zzzzzz")
    expect(phone.get_by_role("alert")).to_contain_text("No game is open with the code")
    screenshot(phone, "classroom-join-wrong-code-phone")
