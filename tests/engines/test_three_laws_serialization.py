import json

import pytest

from games.engines import IllegalAction
from games.engines import three_laws as tl

from .three_laws_helpers import F, advance, error, game4, to_round2_query


def robot_step(game):
    seat = game.current_seat
    if seat is None:
        return F, {"type": "advance"}
    return seat, tl.suggest(game, seat)


def test_to_dict_is_json_safe_and_from_dict_restores_exactly():
    game = to_round2_query(game4())
    error(game, "ben", "ann")
    game.apply("cat", {"type": "counter", "call": "c1"})
    data = game.to_dict()
    assert json.loads(json.dumps(data)) == data
    copy = tl.Game.from_dict(json.loads(json.dumps(data)))
    assert copy.to_dict() == data and copy == game
    assert copy.view("dan") == game.view("dan")
    assert copy.legal_actions("ann") == game.legal_actions("ann")


def test_call_ids_continue_after_a_round_trip():
    game = to_round2_query(game4())
    error(game, "ben", "ann")
    copy = tl.Game.from_dict(game.to_dict())
    assert error(copy, "cat", "ann")["call"] == "c2"


def test_to_dict_is_a_copy():
    game = game4()
    data = game.to_dict()
    data["keys"]["ann"] = 50
    data["deals"][0]["ann"][1] = 3
    assert game.keys["ann"] == 1 and game.cards["ann"] == ["androids", 4]


def test_replay_from_seed_and_actions_rebuilds_the_same_game():
    game = tl.new_game(["a", "b", "c", "d", "e", "f", "g"], seed=42)
    log = []
    while not game.is_over:
        seat, action = robot_step(game)
        game.apply(seat, action)
        log.append((seat, action))
    replay = tl.new_game(["a", "b", "c", "d", "e", "f", "g"], seed=42)
    for seat, action in log:
        replay.apply(seat, action)
    assert replay.to_dict() == game.to_dict()
    assert replay.results() == game.results()


def test_from_dict_rejects_foreign_data():
    with pytest.raises(ValueError):
        tl.Game.from_dict({"version": 99})
    with pytest.raises(ValueError):
        tl.Game.from_dict({"version": 1, "seats": ["a"]})


@pytest.mark.parametrize(
    "action", [None, "advance", ["advance"], {}, {"type": 3}, {"type": "dance"}, {"kind": "keep"}]
)
def test_malformed_actions_are_illegal_not_crashes(action):
    game = game4()
    before = game.to_dict()
    with pytest.raises(IllegalAction):
        game.apply(F, action)
    assert game.to_dict() == before


def test_unknown_seat_cannot_act():
    game = game4()
    with pytest.raises(IllegalAction, match="not a seat"):
        game.apply("zed", {"type": "advance"})
    with pytest.raises(ValueError):
        game.legal_actions("zed")
    advance(game)
