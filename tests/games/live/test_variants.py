"""Variants on the device: solo against the dummy (the 10-point goal), practice with robots."""

import pytest
from django.urls import reverse

from classroom.models import Variant
from games.models import TableStatus
from tests.games.conftest import (
    edit_state,
    give_full_bot_but_mission,
    post_move,
    read_screen,
    start_live_table,
)


@pytest.fixture
def solo(open_session, teacher, students, device_client):
    open_session.variant = Variant.SOLO
    open_session.save()
    return start_live_table(open_session, teacher, students, device_client, teams=1, solo=True)


def play(device, game, action):
    screen = read_screen(device.get(reverse("games:device")).content.decode())
    assert action in screen.actions
    response = post_move(
        device, game, action, version=screen.version, move_id=screen.client_move_id
    )
    return response.content.decode()


def test_solo_shows_the_goal_and_the_dummy_bench(solo):
    html = solo.devices[0].get(reverse("games:device")).content.decode()
    assert "Goal: 10 points. You have 0." in html
    assert "The dummy" in html
    play(solo.devices[0], solo.game, {"type": "draw", "source": "deck"})
    html = play(solo.devices[0], solo.game, {"type": "install", "card": "camera"})
    # After the player's turn the dummy flips the top of the draw pile onto its bench.
    assert "The dummy flipped" in html
    assert "Your turn!" in html


def test_solo_bot_ends_the_game_and_shows_the_win(solo, teacher_client):
    edit_state(solo.game, give_full_bot_but_mission)
    device = solo.devices[0]
    play(device, solo.game, {"type": "draw", "source": "deck"})
    play(device, solo.game, {"type": "install", "card": "rescue_rover"})
    html = play(device, solo.game, {"type": "bot"})
    solo.game.refresh_from_db()
    assert solo.game.status == TableStatus.OVER
    assert solo.game.results == [
        {
            "seat": "team-1",
            "place": 1,
            "score": 16,
            "full_bot": True,
            "four_loop": True,
            "mission_match": True,
            "breakdown": {
                "parts": 4,
                "four_loop": 4,
                "mission": 2,
                "mission_match": 3,
                "full_bot": 3,
            },
            "won": True,
        }
    ]
    assert "You won with 16 points!" in html and "Goal: 10 points or more" in html
    projector = teacher_client.get(reverse("games:projector", args=[solo.game.pk]))
    assert "Won!" in projector.content.decode()


def test_a_practice_device_plays_against_robots_that_answer_at_once(
    open_session, teacher, students, device_client
):
    open_session.variant = Variant.PRACTICE
    open_session.save()
    table = start_live_table(open_session, teacher, students, device_client, teams=1)
    # Re-dealt with the human first; the robots answer each finished turn in the same request.
    device = table.devices[0]
    play(device, table.game, {"type": "draw", "source": "deck"})
    html = play(device, table.game, {"type": "install", "card": "camera"})
    assert "Your turn!" in html
    assert "Robot" in html  # the robot teams' benches and moves are on the screen
    table.game.refresh_from_db()
    robot_moves = table.game.moves.filter(by_robot=True)
    assert {m.seat for m in robot_moves} == {"team-2", "team-3"}
    assert robot_moves.filter(by_teacher__isnull=True).count() == robot_moves.count()
