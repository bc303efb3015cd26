"""BOT!, last turns, the empty draw pile and results (spec: Ending the round, Ties)."""

import pytest

from games.engines import IllegalAction
from games.engines.bot_builders import DECK_IDS

from .conftest import FULL_BOT

DECK = {"type": "draw", "source": "deck"}
TAKE = {"type": "draw", "source": "discard"}
NONE = {"type": "draw", "source": "none"}
BOT = {"type": "bot"}
PASS = {"type": "pass"}


def install(card):
    return {"type": "install", "card": card}


def discard(card):
    return {"type": "discard", "card": card}


@pytest.fixture
def almost(bb_game, bb_bench):
    """Red needs only Battery pack (in hand) for a Full Bot; blue and green hold a Glitch."""
    game = bb_game(
        [
            ["battery_pack", "speaker", "map_memory"],
            ["dead_battery", "solar_panel", "microphone"],
            ["flat_tire", "gps_receiver", "timer_chip"],
        ],
        discard="wall_plug",
        draws=["led_display", "fuel_cell", "counter_chip", "hand_crank", "line_sensor"],
    )
    bb_bench(game, "red", *[c for c in FULL_BOT if c != "battery_pack"])
    return game


def test_completing_a_full_bot_offers_the_bot_choice(almost, bb_play):
    bb_play(almost, ("red", DECK), ("red", install("battery_pack")))
    assert almost.phase == "bot" and almost.current_seat == "red"
    assert almost.legal_actions("red") == [BOT, PASS]


def test_bot_is_not_offered_without_a_full_bot(almost, bb_play):
    bb_play(almost, ("red", DECK), ("red", discard("speaker")))
    assert almost.phase == "draw" and almost.current_seat == "blue"


def test_passing_keeps_the_game_going_and_the_choice_comes_back_next_turn(almost, bb_play):
    bb_play(almost, ("red", DECK), ("red", install("battery_pack")), ("red", PASS))
    assert almost.current_seat == "blue" and almost.bot_called_by is None
    bb_play(almost, ("blue", DECK), ("blue", discard("microphone")))
    bb_play(almost, ("green", DECK), ("green", discard("gps_receiver")))
    bb_play(almost, ("red", DECK), ("red", discard("speaker")))
    assert almost.legal_actions("red") == [BOT, PASS]


def test_bot_gives_every_other_seat_one_last_turn_in_order_then_stops(almost, bb_play):
    events = bb_play(almost, ("red", DECK), ("red", install("battery_pack")), ("red", BOT))
    assert {"type": "bot", "seat": "red"} in events
    assert events[-1] == {"type": "turn", "seat": "blue", "turn": 2, "last_turn": True}
    view = almost.view(None)
    assert view["bot_called_by"] == "red" and view["last_turn"] and view["last_turns_left"] == 2
    bb_play(almost, ("blue", DECK), ("blue", install("solar_panel")))
    assert almost.current_seat == "green" and almost.view(None)["last_turns_left"] == 1
    events = bb_play(almost, ("green", DECK), ("green", install("gps_receiver")))
    assert almost.is_over and almost.phase == "over" and almost.current_seat is None
    assert events[-1] == {
        "type": "game_over",
        "reason": "bot",
        "scores": {"red": 16, "blue": 1, "green": 1},
    }


def test_no_glitches_in_the_last_turns(almost, bb_play):
    bb_play(almost, ("red", DECK), ("red", install("battery_pack")), ("red", BOT))
    almost.apply("blue", DECK)
    actions = almost.legal_actions("blue")
    assert all(a["type"] in ("install", "discard") for a in actions)
    assert discard("dead_battery") in actions
    with pytest.raises(IllegalAction, match="After BOT!"):
        almost.apply("blue", {"type": "glitch", "card": "dead_battery", "target": "red"})


def test_bot_can_be_called_only_once_per_round(almost, bb_play, bb_bench):
    bb_bench(almost, "blue", "ultrasonic_sensor", "loop_chip", "gripper_claw", "maze_runner")
    bb_play(almost, ("red", DECK), ("red", install("battery_pack")), ("red", BOT))
    bb_play(almost, ("blue", DECK), ("blue", install("solar_panel")))
    assert almost.bench_score("blue").full_bot
    assert almost.current_seat == "green"  # no BOT! choice for blue


def test_bot_and_pass_are_refused_outside_the_bot_choice(almost):
    almost.apply("red", DECK)
    with pytest.raises(IllegalAction, match="end of your turn"):
        almost.apply("red", BOT)


def test_a_glitch_can_break_a_full_bot_before_bot_is_called(almost, bb_play):
    bb_play(almost, ("red", DECK), ("red", install("battery_pack")), ("red", PASS))
    bb_play(almost, ("blue", DECK), ("blue", {"type": "glitch", "card": "dead_battery",
                                               "target": "red"}))  # fmt: skip
    assert not almost.bench_score("red").full_bot


# -- the empty draw pile --------------------------------------------------------------------------


def drain(game, keep=0):
    """Move all but `keep` draw-pile cards to the bottom of the discard pile."""
    while len(game.draw_pile) > keep:
        game.discard.insert(0, game.draw_pile.pop(0))


def test_empty_draw_pile_the_seat_finishes_its_turn_then_the_round_stops(bb_game, bb_play):
    game = bb_game([["camera"], ["microphone"], ["speaker"]])
    drain(game, keep=1)
    bb_play(game, ("red", DECK), ("red", install("camera")))
    assert game.view(None)["draw_pile"] == 0
    assert game.current_seat == "blue" and game.view(None)["final_turn"]
    assert game.legal_actions("blue") == [TAKE, NONE]
    events = bb_play(game, ("blue", TAKE), ("blue", install("microphone")))
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "draw_pile_empty"
    assert game.is_over


def test_empty_draw_pile_allows_drawing_nothing(bb_game, bb_play):
    game = bb_game([["camera"], ["microphone"]])
    drain(game, keep=1)
    bb_play(game, ("red", DECK), ("red", discard("camera")))
    events = bb_play(game, ("blue", NONE), ("blue", discard("microphone")))
    assert {"type": "drew", "seat": "blue", "source": "none"} in events
    assert game.is_over


def test_empty_hand_and_nothing_to_draw_skips_the_act_step(bb_game):
    game = bb_game([["camera"], ["microphone"]], start_seat="blue")
    # Both piles and blue's hand are emptied into red's hand (every card stays in one place).
    game.hands["red"] += game.draw_pile + game.discard + game.hands["blue"]
    game.draw_pile.clear()
    game.discard.clear()
    game.hands["blue"].clear()
    assert game.legal_actions("blue") == [NONE]
    events = game.apply("blue", NONE)
    assert events[:2] == [
        {"type": "drew", "seat": "blue", "source": "none"},
        {"type": "act_skipped", "seat": "blue"},
    ]
    assert game.is_over


def test_empty_draw_pile_cuts_the_last_turns_short(almost, bb_play):
    drain(almost, keep=2)
    bb_play(almost, ("red", DECK), ("red", install("battery_pack")), ("red", BOT))
    bb_play(almost, ("blue", DECK), ("blue", discard("microphone")))
    assert almost.view(None)["draw_pile"] == 0
    assert almost.current_seat == "green"
    events = bb_play(almost, ("green", TAKE), ("green", discard("flat_tire")))
    assert almost.is_over and events[-1]["reason"] == "draw_pile_empty"


def test_cards_stay_conserved_through_the_helpers(almost):
    cards = almost.draw_pile + almost.discard
    cards += [c for h in almost.hands.values() for c in h]
    cards += [c for b in almost.benches.values() for c in b.values() if c]
    assert sorted(cards) == sorted(DECK_IDS)


# -- results --------------------------------------------------------------------------------------


def test_results_best_first_with_breakdown(almost, bb_play):
    bb_play(almost, ("red", DECK), ("red", install("battery_pack")), ("red", BOT))
    bb_play(almost, ("blue", DECK), ("blue", install("solar_panel")))
    bb_play(almost, ("green", DECK), ("green", discard("flat_tire")))
    results = almost.results()
    assert [(r["seat"], r["place"], r["score"]) for r in results] == [
        ("red", 1, 16),
        ("blue", 2, 1),
        ("green", 3, 0),
    ]
    assert results[0]["full_bot"] and results[0]["four_loop"]
    assert results[0]["breakdown"] == {
        "parts": 4,
        "four_loop": 4,
        "mission": 2,
        "mission_match": 3,
        "full_bot": 3,
    }
    assert "won" not in results[0]


def test_results_share_places_for_true_ties(almost, bb_play):
    bb_play(almost, ("red", DECK), ("red", install("battery_pack")), ("red", BOT))
    bb_play(almost, ("blue", DECK), ("blue", install("solar_panel")))
    bb_play(almost, ("green", DECK), ("green", install("gps_receiver")))
    assert [(r["seat"], r["place"]) for r in almost.results()] == [
        ("red", 1),
        ("blue", 2),
        ("green", 2),
    ]


def test_results_break_ties_by_birth_month_when_every_tied_seat_has_one(bb_game, bb_play):
    game = bb_game(
        [["camera"], ["microphone"], ["speaker"]],
        birth_months={"red": "2015-01", "blue": "2014-06", "green": "2015-02"},
    )
    drain(game, keep=1)
    bb_play(game, ("red", DECK), ("red", install("camera")))
    bb_play(game, ("blue", TAKE), ("blue", install("microphone")))
    assert game.is_over
    assert [(r["seat"], r["place"]) for r in game.results()] == [
        ("red", 1),
        ("blue", 2),
        ("green", 3),
    ]


def test_results_before_the_end_are_refused(almost):
    with pytest.raises(IllegalAction, match="not over"):
        almost.results()


def test_no_move_is_legal_once_over(almost, bb_play):
    bb_play(almost, ("red", DECK), ("red", install("battery_pack")), ("red", BOT))
    bb_play(almost, ("blue", DECK), ("blue", discard("microphone")))
    bb_play(almost, ("green", DECK), ("green", discard("flat_tire")))
    assert all(almost.legal_actions(s) == [] for s in almost.seats)
    with pytest.raises(IllegalAction, match="over"):
        almost.apply("red", DECK)
