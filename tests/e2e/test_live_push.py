"""Live screens on server push, in real Chromium against uvicorn (the ASGI live server).

A move reaches the other phones and the projector through their event streams (waited for as a
condition, never timed); a screen whose stream cannot connect still follows by polling; a stream
comes back after the server restarts; morphing swaps keep keyboard focus; a turn change is
announced in the one persistent live region."""

import re
import time

import pytest
from playwright.sync_api import expect

from classroom import services as classroom_services
from games import services
from games.engine_registry import get_engine
from games.models import TableGame
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
from tests.support.moves import choose

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Generous, like every wait of the browser tests: a busy CPU must not fail them. That a change
# came through the stream, not the 10 s fallback poll, is checked by counting stream events.
PUSHED = LIVE_UPDATE
STREAM_UP = "html[data-live-stream='up']"


def streams_up(*pages) -> None:
    """Wait for the pages' streams, and count the change events each then receives."""
    for page in pages:
        page.wait_for_selector(STREAM_UP, state="attached", timeout=PUSHED)
        page.evaluate(
            "() => { window.pushes = 0;"
            " document.addEventListener('htmx:sseMessage', () => { window.pushes += 1; }); }"
        )


def pushed(page) -> None:
    """Wait for the stream to tell the page of a change. The slow poll may happen to show the
    change first on a busy machine; the stream's event must still come."""
    page.wait_for_function("() => window.pushes >= 1", timeout=PUSHED)


def live_text(page) -> str:
    return page.locator("#live").inner_text()


def changed_from(page, before: str) -> None:
    page.wait_for_function(
        "(before) => document.querySelector('#live').innerText !== before",
        arg=before,
        timeout=PUSHED,
    )


def play_one(page, game) -> None:
    """Team 1's phone makes a move, once its screen shows the table as it is now."""
    game.refresh_from_db()
    settled(page, game.version)
    button, _ = choose(page, 1, set())
    drawn = drawn_version(page)
    button.click()
    wait_for_redraw(page, drawn)


def test_a_move_reaches_the_other_phones_and_the_projector_by_push(room, screenshot):
    phones, projector = room["phones"], room["projector"]
    streams_up(*phones, projector)
    before = {id(page): live_text(page) for page in (phones[1], phones[2], projector)}

    play_one(phones[0], room["game"])

    for page in (phones[1], phones[2], projector):
        changed_from(page, before[id(page)])
        pushed(page)  # the stream told it, not only the slow poll
    screenshot(phones[1], "push-phone-after-move")
    screenshot(projector, "push-projector-after-move")


def test_a_screen_whose_stream_cannot_connect_follows_by_polling(
    live_server,
    new_context,
    console_errors,
    teacher,
    open_session,
    students,
    fixed_deal,  # noqa: F811
):
    session = open_session
    table, _ = seat_teams(session, students, teams=2, per_team=1)
    services.session_start_tables(session=session, by=teacher)
    game = TableGame.objects.get(table=table)
    base = live_server.url
    mover = new_context(PHONE)
    mover.add_cookies([{**device_cookie(session, students[0]), "url": base}])
    mover_page = mover.new_page()
    mover_page.goto(f"{base}/play/")

    # A school proxy that cuts streams: the stream URL never answers.
    blocked = new_context(PHONE)
    blocked.add_cookies([{**device_cookie(session, students[1]), "url": base}])
    blocked.route(re.compile(r"/play/stream/"), lambda route: route.abort())
    page = blocked.new_page()
    page.goto(f"{base}/play/")
    expect(page.locator("#live")).to_be_visible()

    page.wait_for_function(
        "() => document.documentElement.getAttribute('data-live-stream') === 'down'"
    )
    mover_page.wait_for_selector(STREAM_UP, state="attached", timeout=PUSHED)
    # The fallback polls at the old rate (1.5 s), not the 10 s of a healthy stream.
    fast_polls(page)

    before = live_text(page)
    play_one(mover_page, game)
    changed_from(page, before)


def fast_polls(page, count: int = 3, budget_ms: float = 18_000) -> None:
    """Wait for `count` polls within `budget_ms`: three take 3-4.5 s at the fallback rate (more
    on a busy machine, where each answer is slow) and at least 20 s at the slow one, so this fails
    if the fast fallback stops."""
    deadline = time.monotonic() + budget_ms / 1000
    for _ in range(count):
        remaining = (deadline - time.monotonic()) * 1000
        assert remaining > 0, "the fast fallback poll is off"
        page.wait_for_event("request", lambda r: "/poll/" in r.url, timeout=remaining)


def test_a_stream_comes_back_after_the_server_restarts(room, live_server):
    phones, projector = room["phones"], room["projector"]
    streams_up(phones[1], projector)

    live_server.restart()

    for page in (phones[1], projector):
        page.wait_for_function(
            "() => document.documentElement.getAttribute('data-live-stream') !== 'up'",
            timeout=LIVE_UPDATE,
        )
    page_state = "document.documentElement.getAttribute('data-live-stream') === 'up'"
    for page in (phones[0], phones[1], projector):
        page.wait_for_function(f"() => {page_state}", timeout=LIVE_UPDATE)
    streams_up(phones[1])
    before = live_text(phones[1])
    play_one(phones[0], room["game"])
    changed_from(phones[1], before)
    pushed(phones[1])


def test_keyboard_focus_stays_put_when_another_screen_moves(room):
    phones, desk = room["phones"], room["desk"]
    streams_up(desk, phones[0])
    pause = desk.locator("#live button", has_text="Pause").first
    pause.focus()
    drawn = drawn_version(desk)

    play_one(phones[0], room["game"])

    wait_for_redraw(desk, drawn)
    expect(desk.locator("#live button", has_text="Undo last move")).to_be_visible()
    assert desk.evaluate("document.activeElement.textContent.trim()") == "Pause"
    assert desk.evaluate("document.getElementById('live').contains(document.activeElement)")


def test_a_keyboard_move_leaves_focus_in_the_region(room):
    phone = room["phones"][0]
    streams_up(phone)
    settled(phone, room["game"].version)
    button, _ = choose(phone, 1, set())
    button.focus()
    drawn = drawn_version(phone)
    phone.keyboard.press("Enter")
    wait_for_redraw(phone, drawn)
    phone.wait_for_function(
        "() => document.activeElement !== document.body"
        " && document.getElementById('live').contains(document.activeElement)"
    )


def test_a_turn_change_is_announced_in_the_persistent_live_region(room):
    phones, game = room["phones"], room["game"]
    streams_up(*phones)
    announcer = phones[1].locator("#announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    expect(announcer).to_have_text("")
    for _ in range(6):
        game.refresh_from_db()
        if get_engine(game.kind).load(game.state).current_seat != "team-1":
            break
        play_one(phones[0], room["game"])
    else:
        pytest.fail("Team 1's turn did not end in 6 moves")
    expect(announcer).to_contain_text("Your turn!", timeout=PUSHED)
    # One region for the whole page, outside the swapped part.
    assert phones[1].locator("#live #announcer").count() == 0


def test_every_grid_of_the_class_shows_a_move_from_the_shared_drawing(
    room, new_context, console_errors, school_admin, teacher, screenshot
):
    """The grid's region after a move is drawn once and served from the cache to each grid
    (games/views/regions.py): the projector's, the teacher's laptop's, an administrator's phone."""
    base, game = room["base"], room["game"]
    path = f"/play/sessions/{game.session_id}/projector/"
    grids = []
    for viewport, person in ((PROJECTOR, teacher), (CHROMEBOOK, teacher), (PHONE, school_admin)):
        context = new_context(viewport)
        context.add_cookies([{**login_cookie(person), "url": base}])
        grid = console_errors(context.new_page())
        grid.goto(f"{base}{path}")
        grids.append(grid)
    streams_up(*grids)
    before = [live_text(grid) for grid in grids]
    play_one(room["phones"][0], game)
    for grid, shown in zip(grids, before, strict=True):
        changed_from(grid, shown)
        pushed(grid)  # the stream told it, not only the slow poll
    for grid, name in zip(grids, ("projector", "chromebook", "phone"), strict=True):
        screenshot(grid, f"push-grid-after-move-{name}")


def test_a_phone_whose_session_closes_is_shown_the_way_back_in(room, teacher, screenshot):
    phone = room["phones"][1]
    streams_up(phone)

    classroom_services.session_close(session=room["game"].session, by=teacher)

    # The stream's `gone` loads the page again: the table is no longer this device's to show.
    card = phone.locator(".auth-card")
    expect(card.get_by_role("link", name="Join a game")).to_be_visible(timeout=PUSHED)
    expect(phone.locator("#live")).to_have_count(0)
    screenshot(phone, "push-phone-after-session-closed")
