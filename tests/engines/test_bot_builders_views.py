"""What each seat may see (spec: view), and that events never leak a hidden card."""

import json
import random

import pytest

from games.engines import IllegalAction
from games.engines.bot_builders import DUMMY, new_game, suggest

VIEW_KEYS = {
    "seats",
    "solo",
    "turn",
    "phase",
    "current_seat",
    "hand_sizes",
    "benches",
    "discard_top",
    "discard_size",
    "draw_pile",
    "bot_called_by",
    "last_turn",
    "last_turns_left",
    "final_turn",
    "round_over",
    "is_over",
    "end_reason",
    "scores",
    "results",
}


@pytest.fixture
def game():
    return new_game(["red", "blue", "green"], seed=11, start_seat="red")


def test_a_seat_sees_its_own_hand_only(game):
    view = game.view("blue")
    assert set(view) == VIEW_KEYS | {"hand"}
    assert view["hand"] == game.hands["blue"]
    text = json.dumps(view)
    for other in ("red", "green"):
        for card in game.hands[other]:
            assert f'"{card}"' not in text or card == view["discard_top"]


def test_public_view_has_no_hand(game):
    view = game.view(None)
    assert set(view) == VIEW_KEYS
    assert view["hand_sizes"] == {"red": 4, "blue": 4, "green": 4}


def test_benches_list_all_five_slots_with_none_for_empty(game):
    assert game.view(None)["benches"]["green"] == {
        "sense": None,
        "think": None,
        "act": None,
        "power": None,
        "mission": None,
    }


def test_dummy_bench_only_in_solo(game):
    assert "dummy_bench" not in game.view(None)
    solo = new_game(["me"], seed=2, solo=True)
    assert set(solo.view("me")["dummy_bench"]) == {"sense", "think", "act", "power", "mission"}


@pytest.mark.parametrize("seat", ["pink", DUMMY, 3, ["red"]])
def test_view_of_an_unknown_seat_is_refused(game, seat):
    with pytest.raises(IllegalAction):
        game.view(seat)


def test_view_is_a_copy_the_caller_cannot_use_to_change_the_game(game):
    view = game.view("red")
    view["hand"].clear()
    view["benches"]["red"]["sense"] = "camera"
    assert len(game.hands["red"]) == 4 and game.benches["red"]["sense"] is None


def test_scores_and_results_appear_only_when_over():
    game = new_game(["red", "blue"], seed=5)
    assert game.view(None)["scores"] is None and game.view(None)["results"] is None
    while not game.is_over:
        game.apply(game.current_seat, suggest(game, game.current_seat))
    view = game.view(None)
    assert view["round_over"] and view["is_over"] and view["phase"] == "over"
    assert set(view["scores"]) == {"red", "blue"}
    assert view["results"] == game.results()
    json.dumps(view)


def test_events_never_name_a_card_drawn_from_the_deck():
    for seed in range(30):
        game = new_game(["a", "b", "c", "d"], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.current_seat
            events = game.apply(seat, rng.choice(game.legal_actions(seat)))
            json.dumps(events)
            for event in events:
                if event["type"] == "drew" and event["source"] == "deck":
                    assert set(event) == {"type", "seat", "source"}
