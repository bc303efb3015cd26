"""Five team devices (phones) and the teacher play a whole game of 3 Laws in real Chromium:
all four rounds, a key offer, an Error call and its counter, to the final Victory Points. The
devices only click the buttons they are shown; the teacher moves the phases on from the
dashboard and from the projector page, which follows every change within 2 seconds."""

import dataclasses
import re

import pytest
from django.core.servers.basehttp import WSGIServer
from django.db import connection
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from games import engine_registry, services
from games.engine_registry import get_engine
from games.models import TableGame, TableStatus
from tests.e2e.conftest import (
    CHROMEBOOK,
    LIVE_UPDATE,
    PHONE,
    PROJECTOR,
    click_and_wait,
    device_cookie,
    login_cookie,
)
from tests.games.conftest import SEATS, options, seat_teams, three_laws_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A change reaches every screen within 2 s (polling), plus the click's own round trip.


@pytest.fixture
def fixed_cards(monkeypatch):
    """Tables start from the fixed deal (Team 1 the lone Drone, Team 1 first)."""
    engine = get_engine("three_laws")

    def options_for(variant, skip_first_round, seats, birth_months):
        return {**engine.options_for(variant, skip_first_round, seats, birth_months), **options()}

    patched = dataclasses.replace(engine, options_for=options_for)
    monkeypatch.setitem(engine_registry.ENGINES, "three_laws", patched)


class SerialWSGIServer(WSGIServer):
    """Answers one request at a time (Django's live server answers each in its own thread)."""

    def __init__(self, *args, connections_override=None, **kwargs):
        super().__init__(*args, **kwargs)


@pytest.fixture
def site(request, transactional_db):
    """The base URL of a live server for this test.

    An in-memory SQLite database is one connection that the live server's request threads
    share, so seven screens polling while moves are written fail with "database table is
    locked". On SQLite this test gets a server of its own that answers one request at a time;
    on PostgreSQL it uses pytest-django's threaded live server, concurrent requests and all.
    """
    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        yield request.getfixturevalue("live_server").url
        return
    server = LiveServer("localhost", start=False)
    server.thread.server_class = SerialWSGIServer
    server._live_server_modified_settings.enable()
    server.start()
    yield server.url
    server.stop()
    server._live_server_modified_settings.disable()


def test_five_teams_play_four_rounds_with_an_error_call_and_a_counter(
    site,
    new_context,
    screenshot,
    console_errors,
    teacher,
    classroom,
    students,
    fixed_cards,
):
    session = three_laws_session(classroom, teacher)
    table, _ = seat_teams(session, students, teams=5)
    base = site

    phones = []
    for i in range(5):
        context = new_context(PHONE)
        context.add_cookies([{**device_cookie(session, students[i]), "url": base}])
        page = console_errors(context.new_page())
        phones.append(page)
    services.session_start_tables(session=session, by=teacher)
    game = TableGame.objects.get(table=table)
    for page in phones:
        page.goto(f"{base}/play/")
        expect(page.get_by_text("Round 1 of 4")).to_be_visible()

    desk_context = new_context(CHROMEBOOK)
    desk_context.add_cookies([{**login_cookie(teacher), "url": base}])
    desk = console_errors(desk_context.new_page())
    desk.goto(f"{base}/play/sessions/{session.pk}/tables/")

    projector_context = new_context(PROJECTOR)
    projector_context.add_cookies([{**login_cookie(teacher), "url": base}])
    wall = console_errors(projector_context.new_page())
    wall.goto(f"{base}/play/tables/{game.pk}/projector/")
    expect(wall.locator(".tl-head-phase")).to_have_text("Setup")

    def caught_up(page) -> None:
        """The screen shows the table's latest version (its poll caught up), so a click on it
        is not refused as stale."""
        game.refresh_from_db()
        version = page.locator('#live input[name="version"]').first
        expect(version).to_have_value(str(game.version), timeout=LIVE_UPDATE)

    def teacher_clicks(label: str, on=desk) -> None:
        button = on.get_by_role("button", name=label, exact=True)
        expect(button).to_be_visible(timeout=LIVE_UPDATE)
        caught_up(on)
        click_and_wait(on, button)

    def phone_clicks(index: int, label: str, *, only_here: bool = True) -> None:
        page = phones[index]
        button = page.get_by_role("button", name=label, exact=True)
        expect(button).to_be_visible(timeout=LIVE_UPDATE)
        if page.locator('#live input[name="version"]').count():
            caught_up(page)
        if only_here:  # a turn's buttons are on the device whose turn it is, nowhere else
            for other in phones:
                if other is not page:
                    assert other.get_by_role("button", name=label, exact=True).count() == 0
        click_and_wait(page, button)

    for round_number in (1, 2, 3, 4):
        teacher_clicks("Wake up")
        expect(wall.locator(".tl-head-phase")).to_have_text("Wake up", timeout=LIVE_UPDATE)
        # Every phone sees the others' cards and a "?" for its own.
        for index, page in enumerate(phones):
            tile = page.locator(f'.tl-seat[data-seat="{SEATS[index]}"]')
            expect(tile.locator(".tl-rank")).to_have_text("?", timeout=LIVE_UPDATE)
            expect(page.locator(".tl-card.tl-drones")).to_have_count(0 if index == 0 else 1)
        assert wall.locator(".tl-faction").all_text_contents() == ["Face down"] * 5

        if round_number == 2:
            # Team 2 says Team 3 broke law 1; Team 3 answers with Error on the caller.
            caller = phones[1]
            expect(caller.get_by_role("button", name="Call Error!")).to_be_visible()
            caller.locator('input[name="law"][value="law_01"]').check()
            caller.locator('input[name="offender"][value="team-3"]').check()
            screenshot(caller, "3laws-device-phone-error-form")
            click_and_wait(caller, caller.get_by_role("button", name="Call Error!"))
            expect(
                wall.locator("#live").get_by_text("Team 2 called Error on Team 3")
            ).to_be_visible(timeout=LIVE_UPDATE)
            # Any team but the caller may counter; the caller is not offered it.
            expect(
                caller.get_by_role("button", name="Error on the caller: Team 2 was wrong")
            ).to_have_count(0)
            phone_clicks(2, "Error on the caller: Team 2 was wrong", only_here=False)
            expect(
                wall.locator("#live").get_by_text("Team 3 called Error on the caller, Team 2")
            ).to_be_visible(timeout=LIVE_UPDATE)
            expect(phones[1].locator(".tl-call-countered")).to_have_count(1, timeout=LIVE_UPDATE)

        teacher_clicks("Start questions")
        for index in range(5):
            target = (index + 1) % 5
            page = phones[index]
            expect(page.get_by_text("Your turn!", exact=True)).to_be_visible(timeout=LIVE_UPDATE)
            if index == 0:
                page.get_by_label("Your question").fill("Am I the highest rank you see?")
                if round_number == 2:
                    screenshot(page, "3laws-device-phone-ask")
            phone_clicks(index, f"Ask Team {target + 1}")
        expect(wall.locator(".tl-head-phase")).to_have_text("Key transfers", timeout=LIVE_UPDATE)
        if round_number == 1:
            expect(
                phones[4]
                .locator("#live")
                .get_by_text("Team 1 asked Team 2: “Am I the highest rank")
            ).to_be_visible(timeout=LIVE_UPDATE)

        for index in range(5):
            if round_number == 1 and index == 0:
                phone_clicks(0, "Give my 1 key to Team 2")
                expect(phones[1].locator("#live").get_by_text("Keys for you!")).to_be_visible(
                    timeout=LIVE_UPDATE
                )
                screenshot(phones[1], "3laws-device-phone-offer")
                phone_clicks(1, "Accept the keys")
            elif round_number == 1 and index == 1:
                phone_clicks(1, "Keep my keys")
            else:
                phone_clicks(index, "Keep my keys")
        if round_number == 2:
            expect(wall.locator(".tl-calls")).to_be_visible()
            screenshot(wall, "3laws-projector-transfer")
            screenshot(phones[3], "3laws-device-phone-waiting")
            screenshot(desk, "3laws-teacher-dashboard")
        teacher_clicks("Reveal cards")
        expect(wall.locator(".tl-head-phase")).to_have_text("Reveal", timeout=LIVE_UPDATE)
        expect(wall.locator(".tl-card.tl-drones")).to_have_count(1)
        expect(phones[0].locator(".tl-card.tl-drones")).to_have_count(1, timeout=LIVE_UPDATE)
        if round_number == 1:
            # Team 1 gave its key away: no faction has its leader alone with keys.
            expect(wall.locator(".tl-scored-banner")).to_have_text("No faction scored this round.")
            screenshot(wall, "3laws-projector-reveal")
        teacher_clicks("Finish game" if round_number == 4 else "Next round")

    game.refresh_from_db()
    assert game.status == TableStatus.OVER
    winner = game.results[0]
    winner_name = f"Team {winner['seat'].split('-')[1]}"
    banner = f"{winner_name} wins with {winner['score']} point"
    for page in phones:
        expect(page.get_by_text("Final Victory Points")).to_be_visible(timeout=LIVE_UPDATE)
        expect(page.locator(".tl-winner")).to_contain_text(banner)
    expect(wall.locator(".tl-winner")).to_contain_text(banner, timeout=LIVE_UPDATE)
    assert [c["status"] for c in game.state["calls"]] == ["countered", "active"]
    moves = game.moves.filter(undone_at__isnull=True)
    assert moves.filter(seat="facilitator").count() == 4 * 4  # 4 phases moved on a round
    assert moves.filter(action__type="query").count() == 20
    screenshot(wall, "3laws-projector-over")
    screenshot(phones[0], "3laws-device-phone-over")
    assert console_errors.errors == []
    assert re.search(r"wins with \d+ point", wall.locator(".tl-winner").inner_text())
