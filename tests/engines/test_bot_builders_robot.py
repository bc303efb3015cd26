"""The robot player: always legal, sensible choices, and clearly better than random."""

import random

import pytest

from games.engines import IllegalAction
from games.engines.bot_builders import new_game, suggest

from .conftest import FULL_BOT

DECK = {"type": "draw", "source": "deck"}
TAKE = {"type": "draw", "source": "discard"}


@pytest.mark.parametrize("seats", [1, 2, 4, 6])
def test_suggest_is_always_a_legal_action(seats):
    for seed in range(15):
        names = [f"s{i}" for i in range(seats)]
        game = new_game(names, seed=seed, solo=seats == 1)
        while not game.is_over:
            seat = game.current_seat
            action = suggest(game, seat)
            assert action in game.legal_actions(seat)
            game.apply(seat, action)


def test_suggest_refuses_a_seat_with_no_move():
    game = new_game(["a", "b"], seed=1, start_seat="a")
    with pytest.raises(IllegalAction):
        suggest(game, "b")


def test_robot_fills_an_empty_slot(bb_game):
    game = bb_game([["camera", "flat_tire", "speaker", "microphone"], []])
    game.apply("red", DECK)
    assert suggest(game, "red")["type"] == "install"


def test_robot_takes_a_useful_discard_top(bb_game):
    game = bb_game([["camera"], []], discard="battery_pack")
    assert suggest(game, "red") == TAKE


def test_robot_glitches_the_leader_where_it_hurts(bb_game, bb_bench):
    game = bb_game([["dead_battery", "microphone"], [], []], discard="camera")
    bb_bench(game, "red", "touch_sensor")
    bb_bench(game, "blue", *[c for c in FULL_BOT if c != "rescue_rover"])
    bb_bench(game, "green", "solar_panel")
    game.apply("red", DECK)
    assert suggest(game, "red") == {"type": "glitch", "card": "dead_battery", "target": "blue"}


def test_robot_shouts_bot_when_ahead_and_discards_its_least_useful_card(bb_game, bb_bench):
    game = bb_game([["battery_pack", "speaker", "mission_drift", "hand_crank"], []])
    bb_bench(game, "red", *[c for c in FULL_BOT if c != "battery_pack"])
    bb_bench(game, "blue", "maze_runner")
    game.hands["red"] += ["gps_receiver", "loop_chip"]
    game.draw_pile.remove("gps_receiver")
    game.draw_pile.remove("loop_chip")
    game.apply("red", DECK)
    assert suggest(game, "red") == {"type": "install", "card": "battery_pack"}
    game.apply("red", suggest(game, "red"))
    assert game.phase == "discard_down"
    choice = suggest(game, "red")
    # Spares for slots its Mission does not prefer go first; the Glitch has a target.
    assert choice in [{"type": "discard", "card": c} for c in ("hand_crank", "loop_chip")]
    game.apply("red", choice)
    assert suggest(game, "red") == {"type": "bot"}


def test_robot_beats_random_players_clearly():
    wins = 0
    games = 120
    for seed in range(games):
        game = new_game(["robot", "r1", "r2", "r3"], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.current_seat
            actions = game.legal_actions(seat)
            game.apply(seat, suggest(game, seat) if seat == "robot" else rng.choice(actions))
        wins += game.results()[0]["place"] == 1 and any(
            r["seat"] == "robot" and r["place"] == 1 for r in game.results()
        )
    assert wins / games > 0.6  # a random seat would win about a quarter
