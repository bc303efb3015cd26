"""What a real lesson tripped on, in Chromium at phone, small-phone, laptop, projector and 720p
sizes: a replacement phone rejoining, the lobby's join link and address warning, the teach-back
page on a phone, the split into tables landing on its result, and an unplayed table's report."""

import re

import pytest
from playwright.sync_api import expect

from classroom import services as classroom_services
from games import services as game_services
from tests.e2e.conftest import (
    CHROMEBOOK,
    PHONE,
    PROJECTOR,
    SCREENSHOTS,
    device_cookie,
    login_cookie,
)
from tests.games.conftest import make_table, seat_teams

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_PHONE = {"width": 320, "height": 568}
HD = {"width": 1280, "height": 720}
PHONES = [PHONE, SMALL_PHONE]
SCREENS = [PHONE, SMALL_PHONE, CHROMEBOOK, PROJECTOR, HD]


def size(viewport: dict) -> str:
    return f"{viewport['width']}x{viewport['height']}"


def no_sideways_scroll(page) -> None:
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")


def teacher_page(new_context, viewport, teacher, base):
    context = new_context(viewport)
    context.add_cookies([{**login_cookie(teacher), "url": base}])
    return context.new_page()


@pytest.mark.parametrize("viewport", PHONES, ids=size)
def test_a_replacement_phone_rejoins_after_the_teacher_frees_the_name(
    live_server, new_context, screenshot, console_errors, teacher, open_session, students, viewport
):
    base = live_server.url
    seat_teams(open_session, students, teams=2)
    lost = classroom_services.device_join(session=open_session, student=students[0])
    game_services.session_start_tables(session=open_session, by=teacher)

    phone = console_errors(new_context(viewport).new_page())
    phone.goto(f"{base}/join?code={open_session.room_code}")
    taken = phone.locator(".name-button.is-taken", has_text=students[0].name)
    expect(taken).to_contain_text("taken")
    expect(phone.get_by_text("Ask your teacher to free it")).to_be_visible()
    expect(phone.get_by_role("button", name=students[0].name, exact=True)).to_have_count(0)
    no_sideways_scroll(phone)
    screenshot(phone, f"join-names-taken-{size(viewport)}")

    desk = console_errors(teacher_page(new_context, CHROMEBOOK, teacher, base))
    desk.goto(f"{base}/play/sessions/{open_session.pk}/tables/")
    desk.get_by_role("button", name=f"Free {students[0].name}'s name").click()
    expect(desk.get_by_text(f"{students[0].name}'s name is free")).to_be_visible()
    assert desk.url.endswith(f"/play/sessions/{open_session.pk}/tables/")
    lost.refresh_from_db()
    assert lost.revoked_at is not None

    phone.reload()
    phone.get_by_role("button", name=students[0].name, exact=True).click()
    phone.wait_for_url(re.compile(r"/play/$"))
    expect(phone.locator(".turn-status")).to_be_visible()
    expect(phone.get_by_role("link", name="Log in")).to_have_count(0)
    assert console_errors.errors == []


@pytest.mark.parametrize("viewport", [CHROMEBOOK, PROJECTOR, HD], ids=size)
def test_tables_dashboard_offers_freeing_each_phone(
    live_server, new_context, screenshot, teacher, open_session, students, viewport
):
    seat_teams(open_session, students, teams=3, per_team=2)
    for student in students[:5]:
        classroom_services.device_join(session=open_session, student=student)
    game_services.session_start_tables(session=open_session, by=teacher)
    desk = teacher_page(new_context, viewport, teacher, live_server.url)
    desk.goto(f"{live_server.url}/play/sessions/{open_session.pk}/tables/")
    expect(desk.get_by_role("button", name=re.compile(r"^Free .*'s name$"))).to_have_count(5)
    no_sideways_scroll(desk)
    screenshot(desk, f"tables-dashboard-free-phones-{size(viewport)}")


@pytest.mark.parametrize("viewport", SCREENS, ids=size)
def test_lobby_link_keeps_the_code_whole_and_uses_the_site_url(
    live_server, new_context, screenshot, settings, teacher, open_session, viewport
):
    settings.SITE_URL = "http://192.168.100.200:8000"
    lobby = teacher_page(new_context, viewport, teacher, live_server.url)
    lobby.goto(f"{live_server.url}/sessions/{open_session.pk}/lobby/")
    code_part = lobby.locator(".join-link-part", has_text=open_session.room_code)
    expect(code_part).to_have_text(f"/join?code={open_session.room_code}")
    expect(lobby.locator(".join-link")).to_contain_text("http://192.168.100.200:8000")
    # One line box: the path with the code is never cut.
    assert code_part.evaluate("el => el.getClientRects().length") == 1
    expect(lobby.locator(".lobby-warning")).to_have_count(0)
    no_sideways_scroll(lobby)
    screenshot(lobby, f"lobby-site-url-{size(viewport)}")


@pytest.mark.parametrize("viewport", [CHROMEBOOK, PROJECTOR, HD], ids=size)
def test_lobby_warns_when_opened_at_an_address_phones_cannot_reach(
    live_server, new_context, screenshot, settings, teacher, open_session, viewport
):
    settings.SITE_URL = ""
    lobby = teacher_page(new_context, viewport, teacher, live_server.url)
    lobby.goto(f"{live_server.url}/sessions/{open_session.pk}/lobby/")  # http://localhost:...
    warning = lobby.locator(".lobby-warning")
    expect(warning).to_contain_text("Phones cannot open this address.")
    expect(warning).to_be_in_viewport()
    no_sideways_scroll(lobby)
    screenshot(lobby, f"lobby-unreachable-warning-{size(viewport)}")


@pytest.mark.parametrize("viewport", PHONES, ids=size)
def test_teachback_on_a_phone_has_no_teacher_links_and_goes_back_to_the_game(
    live_server, new_context, screenshot, console_errors, open_session, students, viewport
):
    finished = make_table(open_session, students, teams=2, per_team=1)
    context = new_context(viewport)
    cookie = device_cookie(open_session, finished.members[0])
    context.add_cookies([{**cookie, "url": live_server.url}])
    phone = console_errors(context.new_page())
    phone.goto(f"{live_server.url}/play/sessions/{open_session.pk}/teachback/")
    expect(phone.get_by_role("heading", name="Our robot's sentence")).to_be_visible()
    for name in ["Log in", "Sign up", "Dashboard"]:
        expect(phone.get_by_role("link", name=name)).to_have_count(0)
    no_sideways_scroll(phone)
    screenshot(phone, f"teachback-phone-{size(viewport)}")
    phone.get_by_role("link", name="Back to the game").click()
    phone.wait_for_url(re.compile(r"/play/$"))
    expect(phone.get_by_role("heading", name="Final scores")).to_be_visible()
    for name in ["Log in", "Sign up"]:
        expect(phone.get_by_role("link", name=name)).to_have_count(0)
    assert console_errors.errors == []


@pytest.mark.parametrize("viewport", SCREENS, ids=size)
def test_split_into_tables_lands_where_the_result_and_the_next_step_show(
    live_server, new_context, console_errors, teacher, bb_session, students, viewport
):
    classroom_services.session_set_present(
        session=bb_session, student_ids=[s.pk for s in students[:12]], by=teacher
    )
    classroom_services.team_autopair(session=bb_session, by=teacher)
    desk = console_errors(teacher_page(new_context, viewport, teacher, live_server.url))
    desk.goto(f"{live_server.url}/sessions/{bb_session.pk}/")
    split = desk.get_by_role("button", name="Split into tables")
    split.scroll_into_view_if_needed()
    desk.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    split.click()
    message = desk.get_by_text(re.compile(r"^Teams split into \d+ tables?\.$"))
    expect(message).to_be_in_viewport()
    expect(desk.get_by_role("button", name="Open for joining")).to_be_in_viewport()
    # What the teacher sees, not the whole page.
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    desk.screenshot(path=str(SCREENSHOTS / f"session-after-split-{size(viewport)}.png"))
    assert console_errors.errors == []


@pytest.mark.parametrize("viewport", [PHONE, CHROMEBOOK], ids=size)
def test_report_of_a_table_ended_before_any_move_says_not_played(
    live_server, new_context, screenshot, teacher, open_session, students, viewport
):
    seat_teams(open_session, students, teams=3)
    (game,) = game_services.session_start_tables(session=open_session, by=teacher)
    game.refresh_from_db()
    game_services.game_end_now(game_id=game.pk, by=teacher, expected_version=game.version)
    report = teacher_page(new_context, viewport, teacher, live_server.url)
    report.goto(f"{live_server.url}/reports/sessions/{open_session.pk}/")
    table = report.locator(".report-table-block")
    expect(table.locator(".badge", has_text="Not played")).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(3)
    expect(table.locator("tbody td", has_text="1st")).to_have_count(0)
    no_sideways_scroll(report)
    screenshot(report, f"report-not-played-{size(viewport)}")
