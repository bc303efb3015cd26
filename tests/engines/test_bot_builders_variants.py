"""Variants: 2 players and solo (spec: Variants)."""

import pytest

from games.engines import IllegalAction
from games.engines.bot_builders import DUMMY, new_game

from .conftest import FULL_BOT

DECK = {"type": "draw", "source": "deck"}
NONE = {"type": "draw", "source": "none"}


def install(card):
    return {"type": "install", "card": card}


def discard(card):
    return {"type": "discard", "card": card}


def test_two_players_glitch_always_targets_the_other_seat(bb_game):
    game = bb_game([["flat_tire", "jammed_gear"], []])
    game.apply("red", DECK)
    glitches = [a for a in game.legal_actions("red") if a["type"] == "glitch"]
    assert {a["target"] for a in glitches} == {"blue"}
    assert len(glitches) == 2


def test_two_players_alternate_turns(bb_game, bb_play):
    game = bb_game([[], []])
    seen = []
    for _ in range(4):
        seat = game.current_seat
        seen.append(seat)
        bb_play(game, (seat, DECK), (seat, discard(game.hands[seat][0])))
    assert seen == ["red", "blue", "red", "blue"]


# -- solo -----------------------------------------------------------------------------------------


@pytest.fixture
def solo(bb_game):
    return bb_game(
        [["camera", "flat_tire", "static_noise", "loop_chip"]],
        discard="wall_plug",
        draws=[
            "speaker",
            "drive_wheels",
            "gripper_claw",
            "jammed_gear",
            "microphone",
            "tank_treads",
        ],
        seats=["me"],
        solo=True,
    )


def test_solo_needs_exactly_one_seat():
    with pytest.raises(ValueError):
        new_game(["a", "b"], solo=True)
    with pytest.raises(ValueError):
        new_game(["a"])
    game = new_game(["me"], seed=3, solo=True)
    assert game.current_seat == "me" and game.view("me")["dummy_bench"]["sense"] is None


def test_dummy_bench_flips_the_draw_top_after_each_player_turn(solo, bb_play):
    events = bb_play(solo, ("me", DECK), ("me", install("camera")))
    assert {"type": "dummy_flip", "card": "drive_wheels", "result": "installed"} in events
    assert solo.dummy_bench["act"] == "drive_wheels"
    assert events[-1] == {"type": "turn", "seat": "me", "turn": 2, "last_turn": False}
    assert solo.current_seat == "me" and solo.phase == "draw"


def test_dummy_discards_a_glitch_and_a_part_whose_slot_is_filled(solo, bb_play):
    bb_play(solo, ("me", DECK), ("me", install("camera")))  # the dummy installs drive_wheels
    events = bb_play(solo, ("me", DECK), ("me", discard("loop_chip")))
    assert {"type": "dummy_flip", "card": "jammed_gear", "result": "discarded"} in events
    assert solo.discard[-1] == "jammed_gear"
    events = bb_play(solo, ("me", DECK), ("me", discard("microphone")))
    assert {"type": "dummy_flip", "card": "tank_treads", "result": "discarded"} in events
    assert solo.dummy_bench["act"] == "drive_wheels"
    assert solo.discard[-1] == "tank_treads"


def test_player_may_glitch_the_dummy(solo, bb_play):
    bb_play(solo, ("me", DECK), ("me", install("camera")))
    solo.apply("me", DECK)
    assert {"type": "glitch", "card": "flat_tire", "target": DUMMY} in solo.legal_actions("me")
    events = solo.apply("me", {"type": "glitch", "card": "flat_tire", "target": DUMMY})
    assert events[0]["effect"] == "discarded" and events[0]["part"] == "drive_wheels"
    assert solo.dummy_bench["act"] is None


def test_take_back_glitch_on_the_dummy_discards_the_part(solo, bb_play, bb_bench):
    bb_bench(solo, DUMMY, "microphone")
    solo.apply("me", DECK)
    events = solo.apply("me", {"type": "glitch", "card": "static_noise", "target": DUMMY})
    assert events[0]["effect"] == "discarded" and events[0]["part"] == "microphone"
    assert solo.dummy_bench["sense"] is None
    assert solo.discard[-2:] == ["microphone", "static_noise"]


def test_no_dummy_flip_when_the_draw_pile_is_empty(solo, bb_play):
    while len(solo.draw_pile) > 1:
        solo.discard.insert(0, solo.draw_pile.pop(0))
    events = bb_play(solo, ("me", DECK), ("me", discard("loop_chip")))
    assert not any(e["type"] == "dummy_flip" for e in events)
    assert events[-1] == {"type": "draw_pile_empty", "seat": "me"}
    events = bb_play(solo, ("me", NONE), ("me", discard("flat_tire")))
    assert solo.is_over and events[-1]["reason"] == "draw_pile_empty"


def test_solo_bot_ends_the_game_at_once_and_wins(solo, bb_play, bb_bench):
    bb_bench(solo, "me", *[c for c in FULL_BOT if c != "camera"])
    events = bb_play(solo, ("me", DECK), ("me", install("camera")))
    assert not any(e["type"] == "dummy_flip" for e in events)  # the BOT! choice comes first
    events = solo.apply("me", {"type": "bot"})
    assert solo.is_over
    assert not any(e["type"] == "dummy_flip" for e in events)
    (result,) = solo.results()
    assert result["seat"] == "me" and result["place"] == 1 and result["score"] == 16
    assert result["won"] is True


def test_solo_below_ten_is_lost(solo, bb_play):
    while len(solo.draw_pile) > 1:
        solo.discard.insert(0, solo.draw_pile.pop(0))
    bb_play(solo, ("me", DECK), ("me", install("camera")))
    bb_play(solo, ("me", NONE), ("me", install("loop_chip")))
    (result,) = solo.results()
    assert result["score"] == 2 and result["won"] is False


def test_solo_glitch_targets_only_the_dummy(solo):
    solo.apply("me", DECK)
    targets = {a["target"] for a in solo.legal_actions("me") if a["type"] == "glitch"}
    assert targets == {DUMMY}
    with pytest.raises(IllegalAction):
        solo.apply("me", {"type": "glitch", "card": "flat_tire", "target": "me"})
