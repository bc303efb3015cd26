"""Glitches (rulebook section 4, spec: Glitches)."""

import pytest

from games.engines import IllegalAction

DECK = {"type": "draw", "source": "deck"}


def glitch(card, target):
    return {"type": "glitch", "card": card, "target": target}


@pytest.fixture
def game(bb_game, bb_bench):
    """Red holds one of each Glitch kind; blue has a Sense, Act and Power part installed."""
    game = bb_game(
        [
            ["fogged_lens", "static_noise", "mission_drift", "loose_wire"],
            ["speaker", "timer_chip", "wall_plug", "map_memory"],
            [],
        ],
        discard="led_display",
    )
    bb_bench(game, "blue", "camera", "drive_wheels", "battery_pack")
    game.apply("red", DECK)
    return game


def test_discard_glitch_sends_the_part_to_the_discard_then_the_glitch_on_top(game):
    events = game.apply("red", glitch("fogged_lens", "blue"))
    assert events[0] == {
        "type": "glitched",
        "seat": "red",
        "card": "fogged_lens",
        "target": "blue",
        "slot": "sense",
        "effect": "discarded",
        "part": "camera",
    }
    assert game.benches["blue"]["sense"] is None
    assert game.discard[-2:] == ["camera", "fogged_lens"]
    assert "fogged_lens" not in game.hands["red"]


def test_take_back_glitch_returns_the_part_to_the_target_hand(game):
    events = game.apply("red", glitch("static_noise", "blue"))
    assert events[0]["effect"] == "returned" and events[0]["part"] == "camera"
    assert game.benches["blue"]["sense"] is None
    assert "camera" in game.hands["blue"]
    assert game.discard[-1] == "static_noise"
    assert "camera" not in game.discard


def test_glitch_on_empty_slot_fizzles(game):
    before_blue = game.to_dict()["benches"]["blue"]
    events = game.apply("red", glitch("mission_drift", "blue"))
    assert events[0]["effect"] == "fizzled" and events[0]["part"] is None
    assert game.benches["blue"] == before_blue
    assert game.discard[-1] == "mission_drift"


def test_glitch_can_hit_any_opponent_but_not_yourself(game):
    targets = {a["target"] for a in game.legal_actions("red") if a["type"] == "glitch"}
    assert targets == {"blue", "green"}
    with pytest.raises(IllegalAction, match="can't Glitch yourself"):
        game.apply("red", glitch("fogged_lens", "red"))


def test_glitch_at_an_unknown_seat_is_refused(game):
    with pytest.raises(IllegalAction, match="no opponent called 'pink'"):
        game.apply("red", glitch("fogged_lens", "pink"))


def test_only_glitch_cards_can_be_played_at_a_bench(bb_game):
    game = bb_game([["camera"], []])
    game.apply("red", DECK)
    with pytest.raises(IllegalAction, match="Only a Glitch card"):
        game.apply("red", glitch("camera", "blue"))


def test_glitch_ends_the_turn(game):
    events = game.apply("red", glitch("loose_wire", "blue"))
    assert events[-1]["type"] == "turn" and events[-1]["seat"] == "blue"
    assert "battery_pack" in game.hands["blue"]


def test_a_returned_part_can_be_installed_again(game):
    game.apply("red", glitch("static_noise", "blue"))
    game.apply("blue", DECK)
    game.apply("blue", {"type": "install", "card": "camera"})
    assert game.benches["blue"]["sense"] == "camera"
