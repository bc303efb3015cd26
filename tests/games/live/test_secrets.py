"""Hands are secret: checked at the HTTP level, on every screen a table is drawn on."""

import pytest
from django.urls import reverse

from games.engines import bot_builders
from tests.games.conftest import HANDS, post_move, read_screen, start_live_table

NAMES = {seat: [bot_builders.CARDS[c].name for c in cards] for seat, cards in HANDS.items()}


@pytest.fixture
def table(open_session, teacher, students, device_client):
    return start_live_table(open_session, teacher, students, device_client)


def others(seat: str) -> list[str]:
    return [name for other, names in NAMES.items() if other != seat for name in names]


@pytest.mark.parametrize("index", [0, 1, 2])
def test_a_device_page_holds_its_own_hand_and_no_other_seats_card(table, index):
    seat = f"team-{index + 1}"
    html = table.devices[index].get(reverse("games:device")).content.decode()
    for name in NAMES[seat]:
        assert name in html
    for name in others(seat):
        assert name not in html, f"{seat}'s page shows {name}"


def test_the_answer_to_a_move_and_to_a_poll_hold_no_other_hand(table):
    device = table.devices[0]
    screen = read_screen(device.get(reverse("games:device")).content.decode())
    response = post_move(
        device,
        table.game,
        {"type": "draw", "source": "deck"},
        version=screen.version,
        move_id=screen.client_move_id,
    )
    html = response.content.decode()
    drawn = bot_builders.CARDS["rescue_rover"].name
    assert drawn in html
    for name in others("team-1"):
        assert name not in html
    # Another device re-drawn by its poll does not learn the card drawn from the pile.
    page = table.devices[1].get(reverse("games:device")).content.decode()
    assert drawn not in page
    assert "Team 1 drew from the draw pile." in page


@pytest.mark.parametrize("page", ["projector", "projector_grid", "teacher_tables", "replay"])
def test_teacher_screens_show_no_hand_at_all(table, teacher_client, page):
    arg = table.session.pk if page in ("projector_grid", "teacher_tables") else table.game.pk
    html = teacher_client.get(reverse(f"games:{page}", args=[arg])).content.decode()
    for names in NAMES.values():
        for name in names:
            assert name not in html
