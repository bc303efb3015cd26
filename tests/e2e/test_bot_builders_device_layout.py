"""The team device's "Your turn" screen on a phone: the likely move first, the rest grouped, every
legal action still a button, and the page about two phone heights tall (it was 2,658 px)."""

import json

import pytest
from playwright.sync_api import expect

from games import services
from games.engine_registry import get_engine
from games.models import TableGame
from tests.e2e.conftest import device_cookie
from tests.games.conftest import dealing, edit_state, seat_teams, take

pytestmark = [
    pytest.mark.browser,
    pytest.mark.layout,
    pytest.mark.django_db(transaction=True),
]

MOVE_BUTTONS = "form.move-form button"
SMALL_PHONE = {"width": 320, "height": 568}
PHONE = {"width": 390, "height": 844}
# About two phone heights at 390x844.
MAX_HEIGHT = 1700
# Six cards: two glitches against four other teams, a replacement, three installs into empty
# slots: 8 glitch buttons, 4 installs and 6 discards.
HAND = ["fogged_lens", "flat_tire", "microphone", "loop_chip", "battery_pack", "rescue_rover"]


@pytest.fixture
def busy_turn(open_session, teacher, students):
    """Five teams at one table; Team 1 is to play a card from a full hand, Camera installed."""
    table, teams = seat_teams(open_session, students, teams=5)
    with dealing("bot_builders", lambda seats, skip_first_round: {"start_seat": seats[0]}):
        services.session_start_tables(session=open_session, by=teacher)
    game = TableGame.objects.get(table=table)

    def full_hand(state):
        for card_id in [*HAND, "camera"]:
            take(state, card_id)
        state.draw_pile += state.hands["team-1"]
        state.hands["team-1"] = list(HAND)
        state.benches["team-1"]["sense"] = "camera"
        state.phase = "act"

    edit_state(game, full_hand)
    return open_session, game, students


def open_device(new_context, base, session, student, viewport):
    context = new_context(viewport)
    context.add_cookies([{**device_cookie(session, student), "url": base}])
    page = context.new_page()
    page.goto(f"{base}/play/")
    expect(page.get_by_text("Your turn!")).to_be_visible()
    return page


@pytest.mark.parametrize("viewport", [PHONE, SMALL_PHONE], ids=["390x844", "320x568"])
def test_your_turn_puts_the_likely_move_first_and_fits_two_phone_heights(
    live_server, new_context, screenshot, console_errors, busy_turn, viewport
):
    session, game, students = busy_turn
    page = console_errors(open_device(new_context, live_server.url, session, students[0], viewport))
    name = f"{viewport['width']}x{viewport['height']}"
    screenshot(page, f"bb-device-your-turn-{name}")
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"device your-turn height at {name}: {height} px")

    # The first move button on the page is an install into an empty slot.
    first = page.locator(MOVE_BUTTONS).first
    expect(first).to_be_visible()
    assert first.inner_text().startswith("Install ")
    assert "replacing" not in first.inner_text()

    # Every legal action is a button (its action in the form), none twice, none extra.
    legal = get_engine("bot_builders").load(game.state).legal_actions("team-1")
    offered = [
        json.loads(value)
        for value in page.locator("form.move-form input[name=action]").evaluate_all(
            "inputs => inputs.map(i => i.value)"
        )
    ]
    assert sorted(map(json.dumps, offered)) == sorted(json.dumps(a, sort_keys=True) for a in legal)
    assert len(offered) == 18
    ids = set(
        page.locator("form.move-form input[name=client_move_id]").evaluate_all(
            "inputs => inputs.map(i => i.value)"
        )
    )
    assert len(ids) == 1 and "" not in ids

    # The rest is grouped under headings that say what is inside, folded away at first.
    groups = page.locator("details.move-group")
    expect(groups).to_have_count(3)
    for summary in ["Replace a part (1)", "Glitch a team (8)", "Discard a card (6)"]:
        expect(page.locator("details.move-group > summary", has_text=summary)).to_be_visible()
    if viewport == PHONE:
        assert height <= MAX_HEIGHT, f"{height} px tall"
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")

    # A folded group opens with one tap and its buttons play.
    page.locator("details.move-group > summary", has_text="Glitch a team").click()
    glitch = page.get_by_role("button", name="Play Fogged lens on Team 2")
    expect(glitch).to_be_visible()
    screenshot(page, f"bb-device-your-turn-glitches-{name}")
    with page.expect_response(lambda r: "/move/" in r.url) as answer:
        glitch.click()
    assert answer.value.status == 200
    expect(page.get_by_text("Team 2's turn")).to_be_visible()
    game.refresh_from_db()
    assert game.moves.get().action == {"type": "glitch", "card": "fogged_lens", "target": "team-2"}
    assert console_errors.errors == []
