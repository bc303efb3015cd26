"""State to JSON and back, and replay from the seed and the move log."""

import copy
import json
import random

import pytest

from games.engines.bot_builders import Game, new_game


def play_random(game, rng, steps=10_000):
    log = []
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.current_seat
        action = rng.choice(game.legal_actions(seat))
        game.apply(seat, action)
        log.append((seat, action))
    return log


def test_to_dict_is_json_safe_and_round_trips_at_every_step():
    game = new_game(["red", "blue", "green"], seed=8, birth_months={"red": "2015-04"})
    rng = random.Random(8)
    while not game.is_over:
        data = game.to_dict()
        assert json.loads(json.dumps(data)) == data
        copy_ = Game.from_dict(json.loads(json.dumps(data)))
        assert copy_.to_dict() == data
        seat = game.current_seat
        assert copy_.legal_actions(seat) == game.legal_actions(seat)
        action = rng.choice(game.legal_actions(seat))
        assert copy_.apply(seat, action) == game.apply(seat, action)
        assert copy_.to_dict() == game.to_dict()
    assert Game.from_dict(game.to_dict()).results() == game.results()


def test_replaying_the_seed_and_the_moves_rebuilds_the_same_game():
    original = new_game(["a", "b", "c", "d"], seed="lesson-3")
    log = play_random(original, random.Random(1))
    replay = new_game(["a", "b", "c", "d"], seed="lesson-3")
    for seat, action in log:
        replay.apply(seat, action)
    assert replay.to_dict() == original.to_dict()


def test_solo_round_trips():
    game = new_game(["me"], seed=4, solo=True)
    play_random(game, random.Random(4), steps=15)
    assert Game.from_dict(game.to_dict()).to_dict() == game.to_dict()


def test_from_dict_does_not_share_lists_with_its_input():
    data = new_game(["a", "b"], seed=1).to_dict()
    game = Game.from_dict(data)
    game.apply(game.current_seat, {"type": "draw", "source": "deck"})
    assert data == new_game(["a", "b"], seed=1).to_dict()


def _broken(change):
    data = new_game(["a", "b"], seed=1).to_dict()
    change(data)
    return data


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {},
        _broken(lambda d: d.pop("hands")),
        _broken(lambda d: d.update(version=99)),
        _broken(lambda d: d.update(phase="dancing")),
        _broken(lambda d: d["draw_pile"].pop()),
        _broken(lambda d: d["draw_pile"].append("camera")),
        _broken(lambda d: d["benches"]["a"].update(sense="flat_tire")),
        _broken(lambda d: d.update(current=7)),
    ],
)
def test_from_dict_rejects_data_that_is_not_a_game(data):
    with pytest.raises(ValueError):
        Game.from_dict(copy.deepcopy(data))
