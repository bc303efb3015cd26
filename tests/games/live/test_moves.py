"""Moves posted by team devices: every action type, and every refusal changing nothing."""

import pytest
from django.urls import reverse

from games.models import Move, TableStatus
from games.services.errors import STALE_MESSAGE
from tests.games.conftest import (
    edit_state,
    give_full_bot_but_mission,
    post_move,
    read_screen,
    start_live_table,
    take,
)

# Also run through a real PgBouncer in transaction pooling (scripts/pgbouncer-run in .ci/run).
pytestmark = pytest.mark.pgbouncer

DRAW = {"type": "draw", "source": "deck"}
TAKE_DISCARD = {"type": "draw", "source": "discard"}


@pytest.fixture
def live(open_session, teacher, students, device_client):
    return start_live_table(open_session, teacher, students, device_client)


def screen_of(client):
    response = client.get(reverse("games:device"))
    assert response.status_code == 200
    return response.content.decode(), read_screen(response.content.decode())


def play(client, game, action, screen=None, move_id=None):
    """Post `action` from the screen the device shows now; return (html, new screen)."""
    if screen is None:
        _, screen = screen_of(client)
    response = post_move(
        client, game, action, version=screen.version, move_id=move_id or screen.client_move_id
    )
    assert response.status_code == 200
    html = response.content.decode()
    return html, read_screen(html)


def test_device_page_shows_own_hand_and_draw_buttons_on_its_turn(live):
    html, screen = screen_of(live.devices[0])
    assert "Your turn!" in html
    for name in ("Camera", "If/Then board", "Drive wheels", "Battery pack"):
        assert name in html
    assert screen.actions == [DRAW, TAKE_DISCARD]
    assert "Draw from the draw pile (35 left)" in html
    assert "Take Light sensor from the discard pile" in html


def test_device_waiting_for_its_turn_has_no_buttons(live):
    html, screen = screen_of(live.devices[1])
    assert screen.actions == []
    assert "Team 1's turn" in html
    assert "Your turn!" not in html


def test_draw_then_install_applies_both_moves_and_bumps_the_version(live):
    device = live.devices[0]
    _, screen = screen_of(device)
    html, after = play(device, live.game, DRAW, screen)
    assert {"type": "install", "card": "camera"} in after.actions
    assert "Install Camera (Sense)" in html
    assert after.version == screen.version + 1
    assert after.client_move_id != screen.client_move_id
    html, _ = play(device, live.game, {"type": "install", "card": "camera"}, after)
    assert "Team 2's turn" in html
    live.game.refresh_from_db()
    assert live.game.version == screen.version + 2
    assert live.game.state["benches"]["team-1"]["sense"] == "camera"
    moves = list(live.game.moves.order_by("seq"))
    assert [(m.seq, m.seat, m.action["type"]) for m in moves] == [
        (1, "team-1", "draw"),
        (2, "team-1", "install"),
    ]
    assert all(m.by_device_id == device.binding.pk and not m.by_robot for m in moves)


def test_taking_the_discard_top_puts_it_in_the_hand(live):
    device = live.devices[0]
    html, _ = play(device, live.game, TAKE_DISCARD)
    assert "Install Light sensor (Sense)" in html
    live.game.refresh_from_db()
    assert "light_sensor" in live.game.state["hands"]["team-1"]


def test_discarding_as_the_turns_action_ends_the_turn(live):
    device = live.devices[0]
    play(device, live.game, DRAW)
    html, _ = play(device, live.game, {"type": "discard", "card": "battery_pack"})
    assert "Team 2's turn" in html
    live.game.refresh_from_db()
    assert live.game.state["discard"][-1] == "battery_pack"


def test_glitch_buttons_name_the_target_and_the_glitch_hits_that_bench(live):
    team1, team2 = live.devices[0], live.devices[1]
    play(team1, live.game, DRAW)
    play(team1, live.game, {"type": "install", "card": "drive_wheels"})
    html, screen = play(team2, live.game, DRAW)
    assert "Play Flat tire on Team 1" in html
    assert "Play Flat tire on Team 3" in html
    glitch = {"type": "glitch", "card": "flat_tire", "target": "team-1"}
    assert glitch in screen.actions
    html, _ = play(team2, live.game, glitch, screen)
    assert "Team 2 played Flat tire on Team 1: the Drive wheels was discarded." in html
    live.game.refresh_from_db()
    assert live.game.state["benches"]["team-1"]["act"] is None


def test_hand_limit_shows_only_discard_buttons_until_the_hand_is_five(live):
    def fat_hand(state):
        for card_id in ("ultrasonic_sensor", "timer_chip"):
            take(state, card_id)
            state.hands["team-1"].append(card_id)

    edit_state(live.game, fat_hand)
    device = live.devices[0]
    play(device, live.game, DRAW)
    html, screen = play(device, live.game, {"type": "install", "card": "camera"})
    assert "Too many cards: discard down to 5" in html
    assert {a["type"] for a in screen.actions} == {"discard"}
    html, screen = play(device, live.game, {"type": "discard", "card": "timer_chip"}, screen)
    assert "Team 2's turn" in html
    live.game.refresh_from_db()
    assert len(live.game.state["hands"]["team-1"]) == 5


def test_bot_choice_is_offered_to_a_full_bot_and_shouting_it_is_loud_everywhere(live, teacher):
    edit_state(live.game, give_full_bot_but_mission)
    device = live.devices[0]
    play(device, live.game, DRAW)
    html, screen = play(device, live.game, {"type": "install", "card": "rescue_rover"})
    assert screen.actions == [{"type": "bot"}, {"type": "pass"}]
    assert ">BOT!</button>" in html
    html, _ = play(device, live.game, {"type": "bot"}, screen)
    live.game.refresh_from_db()
    assert live.game.state["bot_called_by"] == "team-1"
    other, _ = screen_of(live.devices[1])
    assert "bot-banner" in other and "Team 1 built a Full Bot." in other
    from django.test import Client

    projector = Client()
    projector.force_login(teacher)
    page = projector.get(reverse("games:projector", args=[live.game.pk])).content.decode()
    assert "bot-banner" in page


def test_passing_the_bot_choice_moves_on_without_a_banner(live):
    edit_state(live.game, give_full_bot_but_mission)
    device = live.devices[0]
    play(device, live.game, DRAW)
    _, screen = play(device, live.game, {"type": "install", "card": "rescue_rover"})
    html, _ = play(device, live.game, {"type": "pass"}, screen)
    assert "Team 2's turn" in html and "bot-banner" not in html
    live.game.refresh_from_db()
    assert live.game.state["bot_called_by"] is None


def test_drawing_nothing_is_offered_only_when_the_draw_pile_is_empty(live):
    def empty_pile(state):
        state.discard.extend(state.draw_pile)
        state.draw_pile.clear()

    edit_state(live.game, empty_pile)
    html, screen = play(live.devices[0], live.game, {"type": "draw", "source": "none"})
    live.game.refresh_from_db()
    assert live.game.moves.get().action == {"type": "draw", "source": "none"}


# -- refusals: a clear message and nothing changed -----------------------------------------------


def assert_unchanged(game, version, moves=0):
    game.refresh_from_db()
    assert game.version == version
    assert Move.objects.filter(game=game).count() == moves


def test_a_move_for_another_seat_is_refused_with_the_engines_words(live):
    version = live.game.version
    response = post_move(live.devices[1], live.game, DRAW, version=version, move_id="x1")
    html = response.content.decode()
    assert "It is Team 1&#x27;s turn, not yours." in html
    assert 'class="alert alert-error"' in html
    assert_unchanged(live.game, version)


def test_an_action_that_is_not_legal_is_refused_and_changes_nothing(live):
    _, screen = screen_of(live.devices[0])
    response = post_move(
        live.devices[0],
        live.game,
        {"type": "install", "card": "camera"},
        version=screen.version,
        move_id=screen.client_move_id,
    )
    assert "Draw a card first." in response.content.decode()
    assert_unchanged(live.game, screen.version)


def test_a_card_not_in_the_hand_is_refused(live):
    device = live.devices[0]
    play(device, live.game, DRAW)
    _, screen = screen_of(device)
    response = post_move(
        device,
        live.game,
        {"type": "install", "card": "speaker"},
        version=screen.version,
        move_id=screen.client_move_id,
    )
    assert "The Speaker card is not in your hand." in response.content.decode()
    assert_unchanged(live.game, screen.version, moves=1)


def test_a_move_from_a_stale_screen_is_refused_and_the_new_state_is_drawn(live):
    device = live.devices[0]
    _, old = screen_of(device)
    play(device, live.game, DRAW, old)
    response = post_move(device, live.game, TAKE_DISCARD, version=old.version, move_id="other")
    html = response.content.decode()
    assert STALE_MESSAGE.replace("—", "—") in html
    new = read_screen(html)
    assert new.version == old.version + 1
    assert {"type": "install", "card": "camera"} in new.actions
    assert_unchanged(live.game, old.version + 1, moves=1)


def test_a_repeated_client_move_id_applies_once_and_answers_the_same(live):
    device = live.devices[0]
    _, screen = screen_of(device)
    first = post_move(device, live.game, DRAW, version=screen.version, move_id="tap")
    again = post_move(device, live.game, DRAW, version=screen.version, move_id="tap")
    assert first.status_code == again.status_code == 200
    assert "alert-error" not in again.content.decode()
    assert read_screen(again.content.decode()).version == screen.version + 1
    assert_unchanged(live.game, screen.version + 1, moves=1)


def test_a_double_tap_on_two_buttons_of_one_screen_applies_only_the_first(live):
    device = live.devices[0]
    _, screen = screen_of(device)
    post_move(device, live.game, DRAW, version=screen.version, move_id=screen.client_move_id)
    post_move(
        device, live.game, TAKE_DISCARD, version=screen.version, move_id=screen.client_move_id
    )
    live.game.refresh_from_db()
    assert live.game.moves.get().action == DRAW


def test_a_paused_table_refuses_moves(live, teacher):
    from games import services

    services.game_pause(game_id=live.game.pk, by=teacher, expected_version=live.game.version)
    html, screen = screen_of(live.devices[0])
    assert "Your teacher paused the table" in html
    assert screen.actions == []
    live.game.refresh_from_db()
    version = live.game.version
    response = post_move(live.devices[0], live.game, DRAW, version=version, move_id="p")
    assert "Your teacher has paused this table." in response.content.decode()
    assert_unchanged(live.game, version)


def test_a_finished_table_refuses_moves(live):
    live.game.status = TableStatus.OVER
    live.game.results = []
    live.game.save()
    response = post_move(live.devices[0], live.game, DRAW, version=live.game.version, move_id="o")
    assert "This game is over: no more moves." in response.content.decode()
    assert_unchanged(live.game, live.game.version)


@pytest.mark.parametrize(
    "data",
    [
        {"action": "not json", "version": "0", "client_move_id": "a"},
        {"action": "[1, 2]", "version": "0", "client_move_id": "a"},
        {"action": '{"type": "draw", "source": "deck"}', "version": "zero", "client_move_id": "a"},
        {"action": '{"type": "draw", "source": "deck"}', "version": "0"},
        {"action": '{"type": "draw", "source": "deck"}', "version": "0", "client_move_id": ""},
        {
            "action": '{"type": "draw", "source": "deck"}',
            "version": "0",
            "client_move_id": "x" * 65,
        },
    ],
)
def test_unreadable_moves_get_a_clear_message_and_change_nothing(live, data):
    response = live.devices[0].post(
        reverse("games:move", args=[live.game.pk]), data, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "alert-error" in html
    assert "could not be read" in html
    assert_unchanged(live.game, live.game.version)


def test_a_plain_post_redirects_to_the_device_page_with_the_message(live):
    version = live.game.version
    response = post_move(live.devices[1], live.game, DRAW, version=version, move_id="n", htmx=False)
    assert response.status_code == 302
    assert response.url == reverse("games:device")
    page = live.devices[1].get(response.url).content.decode()
    assert "It is Team 1&#x27;s turn, not yours." in page
