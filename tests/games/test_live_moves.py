"""Moves posted by team devices: every action type, and every refusal changing nothing."""

import pytest
from django.urls import reverse

from games.models import Move, TableGame
from tests.games.live_support import HANDS, post_move, read_screen, start_live_table

DRAW = {"type": "draw", "source": "deck"}


@pytest.fixture
def live(open_session, teacher, students, device_client):
    return start_live_table(open_session, teacher, students, device_client)


def screen_of(client):
    response = client.get(reverse("games:device"))
    assert response.status_code == 200
    return response, read_screen(response.content.decode())


def test_device_page_shows_own_hand_and_draw_buttons_on_its_turn(live):
    response, screen = screen_of(live.devices[0])
    html = response.content.decode()
    assert "Your turn!" in html
    for name in ("Camera", "If/Then board", "Drive wheels", "Battery pack"):
        assert name in html
    assert screen.actions == [DRAW, {"type": "draw", "source": "discard"}]
    assert "Draw from the draw pile" in html
    assert "Take Light sensor from the discard pile" in html


def test_device_waiting_for_its_turn_has_no_buttons(live):
    response, screen = screen_of(live.devices[1])
    assert screen.actions == []
    assert "Team 1's turn" in response.content.decode()


def test_draw_then_install_applies_both_moves_and_bumps_the_version(live):
    device = live.devices[0]
    _, screen = screen_of(device)
    response = post_move(device, live.game, DRAW, version=screen.version, move_id="m1")
    assert response.status_code == 200
    after = read_screen(response.content.decode())
    assert {"type": "install", "card": "camera"} in after.actions
    assert after.version == screen.version + 1
    response = post_move(
        device, live.game, {"type": "install", "card": "camera"}, version=after.version,
        move_id=after.client_move_id,
    )
    assert "Team 2's turn" in response.content.decode()
    live.game.refresh_from_db()
    assert live.game.version == screen.version + 2
    assert live.game.state["benches"]["team-1"]["sense"] == "camera"
    assert list(live.game.moves.values_list("seq", "seat")) == [(1, "team-1"), (2, "team-1")]
    assert live.game.moves.get(seq=2).by_device_id == device.binding.pk
