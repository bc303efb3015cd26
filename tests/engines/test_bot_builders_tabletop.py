"""The tabletop engine: benches recorded from printed cards, behind the common interface."""

import pytest

from games.engines import IllegalAction
from games.engines.bot_builders import tabletop

FULL_BOT = {
    "sense": "camera",
    "think": "if_then_board",
    "act": "drive_wheels",
    "power": "battery_pack",
    "mission": "rescue_rover",
}


def record(bench: dict) -> dict:
    return {"type": tabletop.RECORD, "bench": bench}


def test_a_new_tabletop_game_has_every_bench_empty_and_nobody_to_move():
    game = tabletop.new_game(["red", "blue"], seed=3)
    assert game.current_seat is None and not game.is_over
    assert game.legal_actions("red") == []
    assert game.view(None)["benches"]["blue"] == dict.fromkeys(
        ("sense", "think", "act", "power", "mission")
    )


def test_a_tabletop_game_refuses_the_seat_counts_a_live_table_refuses():
    with pytest.raises(ValueError):
        tabletop.new_game(["red"], seed=1)


def test_recording_a_bench_scores_it_like_a_live_bench_and_survives_json():
    game = tabletop.new_game(["red", "blue"], seed=3)
    events = game.apply("red", record(FULL_BOT))
    assert events == [{"type": "bench_recorded", "seat": "red"}]
    restored = tabletop.Game.from_dict(game.to_dict())
    assert restored.recorded_seats() == ["red"]
    assert restored.results()[0]["seat"] == "red"
    assert restored.results()[0]["full_bot"] is True


def test_a_card_already_on_another_bench_is_refused_and_changes_nothing():
    game = tabletop.new_game(["red", "blue"], seed=3)
    game.apply("red", record(FULL_BOT))
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="Already on another team's bench: Camera"):
        game.apply("blue", record({"sense": "camera"}))
    assert game.to_dict() == before


def test_a_card_in_the_wrong_slot_is_refused():
    game = tabletop.new_game(["red", "blue"], seed=3)
    with pytest.raises(IllegalAction, match="does not go in the Think slot"):
        game.apply("red", record({"think": "camera"}))
