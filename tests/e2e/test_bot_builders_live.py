"""Three team devices (phones) play a whole Bot-Builders game in real Chromium, clicking only the
buttons their screens show, while the teacher's projector grid follows within 2 seconds."""

import re

import pytest
from playwright.sync_api import expect

from classroom.models import SessionStatus
from games.engine_registry import get_engine
from games.models import TableGame, TableStatus
from tests.e2e.conftest import (
    CHROMEBOOK,
    LIVE_UPDATE,
    PHONE,
    PROJECTOR,
    device_cookie,
    drawn_version,
    login_cookie,
    settled,
    wait_for_redraw,
)
from tests.games.conftest import seat_teams
from tests.support.moves import MOVE_BUTTONS, choose

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A change reaches every screen within 2 s: the pages poll every 1.5 s, plus a round trip.


def test_three_teams_play_a_whole_game_to_the_scoreboard(
    live_server,
    new_context,
    screenshot,
    console_errors,
    teacher,
    open_session,
    students,
    fixed_deal,
):
    session = open_session
    table, teams = seat_teams(session, students, teams=3, per_team=1)
    base = live_server.url

    phones = []
    for i in range(3):
        context = new_context(PHONE)
        context.add_cookies([{**device_cookie(session, students[i]), "url": base}])
        page = console_errors(context.new_page())
        page.goto(f"{base}/play/")
        expect(page.get_by_text("Get ready, Team")).to_be_visible()
        phones.append(page)

    teacher_context = new_context(CHROMEBOOK)
    teacher_context.add_cookies([{**login_cookie(teacher), "url": base}])
    desk = console_errors(teacher_context.new_page())
    desk.goto(f"{base}/sessions/{session.pk}/")
    desk.get_by_role("button", name="Start tables").click()
    desk.wait_for_url(re.compile(r"/play/sessions/\d+/tables/$"))
    expect(desk.get_by_text("Turn: Team 1")).to_be_visible()
    game = TableGame.objects.get(table=table)
    assert game.options["deck"][:4] == ["camera", "if_then_board", "drive_wheels", "battery_pack"]

    projector_context = new_context(PROJECTOR)
    projector_context.add_cookies([{**login_cookie(teacher), "url": base}])
    grid = console_errors(projector_context.new_page())
    grid.goto(f"{base}/play/sessions/{session.pk}/projector/")
    expect(grid.get_by_text("Team 1's turn")).to_be_visible()

    # The waiting screens reload themselves into the game within a poll or two.
    for page in phones:
        expect(page.locator(".turn-status")).to_be_visible()
    expect(phones[0].get_by_text("Your turn!", exact=True)).to_be_visible()
    expect(phones[1].get_by_text("Team 1's turn")).to_be_visible()
    assert phones[1].locator(MOVE_BUTTONS).count() == 0

    acted: set[str] = set()
    clicks = 0
    shots = set()
    for _ in range(80):
        game.refresh_from_db()
        if game.status == TableStatus.OVER:
            break
        seat = get_engine(game.kind).load(game.state).current_seat
        number = int(seat.split("-")[1])
        page = phones[number - 1]
        expect(page.locator(MOVE_BUTTONS).first).to_be_visible(timeout=LIVE_UPDATE)
        for other in phones:
            if other is not page:
                assert other.locator(MOVE_BUTTONS).count() == 0
        settled(page, game.version)
        button, label = choose(page, number, acted)
        if label.startswith("Install") and "act" not in shots and number == 1 and clicks > 6:
            shots.add("act")
            screenshot(page, "bb-device-phone-act")
        drawn = drawn_version(page)
        with page.expect_response(lambda r: "/move/" in r.url) as answer:
            button.click()
        assert answer.value.status == 200
        wait_for_redraw(page, drawn)  # the answer was morphed into the live region
        clicks += 1
        if clicks == 8:
            expect(grid.locator(".bb-chip", has_text="If/Then board")).to_be_visible(
                timeout=LIVE_UPDATE
            )
            screenshot(grid, "bb-projector-grid")
            screenshot(desk, "bb-teacher-dashboard")
            screenshot(phones[2], "bb-device-phone-waiting")
        assert page.locator(".alert-error").count() == 0, page.locator(".alert-error").inner_text()
        if label == "Install Camera (Sense)":
            # The projector grid shows the new bench card within 2 seconds.
            cell = grid.locator(".grid-cell", has_text="Table 1")
            expect(cell.locator(".bb-chip", has_text="Camera")).to_be_visible(timeout=LIVE_UPDATE)
        if label == "BOT!":
            for other in phones[1:]:
                expect(other.locator(".bot-banner")).to_be_visible(timeout=LIVE_UPDATE)
            expect(grid.locator(".bot-banner")).to_be_visible(timeout=LIVE_UPDATE)
            screenshot(phones[1], "bb-device-phone-bot")
            screenshot(grid, "bb-projector-grid-bot")
    else:
        pytest.fail("The game did not end in 80 moves.")

    assert "glitch" in acted
    game.refresh_from_db()
    assert game.status == TableStatus.OVER
    assert game.results[0]["seat"] == "team-1" and game.results[0]["score"] == 16
    assert game.moves.filter(undone_at__isnull=True).count() == clicks

    for page in phones:
        expect(page.get_by_role("heading", name="Final scores")).to_be_visible(timeout=LIVE_UPDATE)
    expect(phones[0].get_by_text("Place 1 with 16 points")).to_be_visible()
    expect(grid.locator(".grid-places")).to_contain_text("Team 1 16", timeout=LIVE_UPDATE)
    screenshot(phones[0], "bb-device-phone-over")
    screenshot(grid, "bb-projector-grid-over")
    desk.reload()
    screenshot(desk, "bb-teacher-dashboard-over")
    session.refresh_from_db()
    assert session.status == SessionStatus.PLAYING
    assert console_errors.errors == []
