"""The 48 cards and the score sheet (spec: Bot-Builders, The deck and Scoring)."""

import pytest

from games.engines.bot_builders import (
    CARDS,
    CATEGORY,
    DECK_IDS,
    MAX_SCORE,
    SLOTS,
    cards_of_kind,
    rank,
    score_bench,
)

SPEC_IDS = [
    "camera",
    "ultrasonic_sensor",
    "microphone",
    "touch_sensor",
    "light_sensor",
    "thermometer",
    "gps_receiver",
    "line_sensor",
    "if_then_board",
    "loop_chip",
    "microcontroller",
    "timer_chip",
    "map_memory",
    "pattern_learner",
    "decision_tree",
    "counter_chip",
    "drive_wheels",
    "gripper_claw",
    "speaker",
    "led_display",
    "propeller",
    "robot_arm",
    "water_pump",
    "tank_treads",
    "battery_pack",
    "solar_panel",
    "wind_turbine",
    "hand_crank",
    "wall_plug",
    "fuel_cell",
    "spring_motor",
    "supercapacitor",
    "rescue_rover",
    "maze_runner",
    "garden_helper",
    "library_sorter",
    "space_explorer",
    "delivery_drone",
    "night_guard",
    "beach_cleaner",
    "dead_battery",
    "loose_wire",
    "fogged_lens",
    "static_noise",
    "infinite_loop",
    "flat_tire",
    "jammed_gear",
    "mission_drift",
]


def test_deck_has_the_48_spec_ids_each_once():
    assert list(DECK_IDS) == SPEC_IDS
    assert set(CARDS) == set(SPEC_IDS)


def test_eight_parts_per_category_in_the_right_slot():
    assert CATEGORY == ("sense", "think", "act", "power")
    assert (*CATEGORY, "mission") == SLOTS
    for category in CATEGORY:
        parts = cards_of_kind(category)
        assert len(parts) == 8
        assert all(card.slot == category and card.is_part for card in parts)


def test_every_category_is_preferred_by_four_missions():
    missions = cards_of_kind("mission")
    assert len(missions) == 8
    assert all(len(m.prefers) == 2 and m.slot == "mission" for m in missions)
    for category in CATEGORY:
        assert sum(category in m.prefers for m in missions) == 4
    assert CARDS["rescue_rover"].prefers == ("sense", "act")
    assert CARDS["space_explorer"].prefers == ("think", "power")


def test_glitches_name_their_slot_and_three_return_the_part_to_hand():
    glitches = {card.id: card for card in cards_of_kind("glitch")}
    assert {g: c.slot for g, c in glitches.items()} == {
        "dead_battery": "power",
        "loose_wire": "power",
        "fogged_lens": "sense",
        "static_noise": "sense",
        "infinite_loop": "think",
        "flat_tire": "act",
        "jammed_gear": "act",
        "mission_drift": "mission",
    }
    returning = {g for g, c in glitches.items() if c.returns_to_hand}
    assert returning == {"loose_wire", "static_noise", "jammed_gear"}
    assert not any(c.installable for c in glitches.values())


def test_cards_have_names_and_texts():
    assert CARDS["if_then_board"].name == "If/Then board"
    assert CARDS["wall_plug"].text == "Plugs into the wall, but the cord is short."
    assert all(card.name and card.text for card in CARDS.values())


@pytest.mark.parametrize(
    ("bench", "total"),
    [
        (["camera", "if_then_board", "drive_wheels", "battery_pack", "rescue_rover"], 16),
        (["camera", "drive_wheels", "rescue_rover"], 7),
        (["camera", "microcontroller", "drive_wheels", "solar_panel"], 8),
        (["loop_chip", "rescue_rover"], 3),
        ([], 0),
    ],
)
def test_worked_scoring_examples_of_the_spec(bench, total):
    assert score_bench(bench).total == total


def test_full_bot_scores_every_bonus():
    score = score_bench(["camera", "if_then_board", "drive_wheels", "battery_pack", "rescue_rover"])
    assert (score.parts, score.four_loop, score.mission, score.mission_match, score.full_bot) == (
        4,
        True,
        True,
        True,
        True,
    )
    assert score.total == MAX_SCORE == 16


@pytest.mark.parametrize("mission", [c.id for c in cards_of_kind("mission")])
def test_every_full_bot_matches_its_mission_and_scores_16(mission):
    # Four parts cover every category, so any Mission's two preferences are always met.
    score = score_bench(["camera", "if_then_board", "drive_wheels", "battery_pack", mission])
    assert score.full_bot and score.mission_match
    assert score.total == 16


def test_mission_match_without_full_bot():
    score = score_bench(["camera", "drive_wheels", "rescue_rover"])
    assert score.mission_match and not score.full_bot and not score.four_loop
    assert score.breakdown() == {
        "parts": 2,
        "four_loop": 0,
        "mission": 2,
        "mission_match": 3,
        "full_bot": 0,
    }


def test_score_bench_accepts_a_slot_mapping_with_empty_slots():
    bench = {"sense": "camera", "think": None, "act": "drive_wheels", "power": None}
    assert score_bench({**bench, "mission": "rescue_rover"}).total == 7


@pytest.mark.parametrize(
    "bench",
    [["flat_tire"], ["camera", "microphone"], ["nope"], ["rescue_rover", "maze_runner"], [3]],
)
def test_score_bench_rejects_a_bench_that_cannot_exist(bench):
    with pytest.raises(ValueError):
        score_bench(bench)


def _scores(**benches):
    return {seat: score_bench(ids) for seat, ids in benches.items()}


def test_rank_puts_four_loop_before_no_four_loop_on_equal_totals():
    scores = _scores(
        red=["camera", "loop_chip", "drive_wheels", "rescue_rover"],  # 3 + 2 + 3 = 8
        blue=["camera", "microcontroller", "drive_wheels", "solar_panel"],  # 4 + 4 = 8
    )
    assert rank(["red", "blue"], scores) == [("blue", 1), ("red", 2)]


def test_rank_true_ties_share_a_place_and_skip_the_next():
    scores = _scores(red=["camera"], blue=["microphone"], green=[], yellow=["loop_chip", "speaker"])
    assert rank(["red", "blue", "green", "yellow"], scores) == [
        ("yellow", 1),
        ("red", 2),
        ("blue", 2),
        ("green", 4),
    ]


def test_rank_by_birth_month_younger_first_when_every_tied_seat_has_one():
    scores = _scores(red=["camera"], blue=["microphone"], green=["speaker"])
    months = {"red": "2015-03", "blue": "2015-11", "green": "2014-12"}
    assert rank(["red", "blue", "green"], scores, months) == [
        ("blue", 1),
        ("red", 2),
        ("green", 3),
    ]


def test_rank_shares_the_place_when_a_tied_seat_has_no_birth_month():
    scores = _scores(red=["camera"], blue=["microphone"], green=[])
    months = {"red": "2015-03", "green": "2016-01"}
    assert rank(["red", "blue", "green"], scores, months) == [
        ("red", 1),
        ("blue", 1),
        ("green", 3),
    ]


def test_rank_equal_birth_months_share_the_place():
    scores = _scores(red=["camera"], blue=["microphone"], green=["speaker"])
    months = {"red": "2015-03", "blue": "2015-03", "green": "2014-01"}
    assert rank(["red", "blue", "green"], scores, months) == [
        ("red", 1),
        ("blue", 1),
        ("green", 3),
    ]
