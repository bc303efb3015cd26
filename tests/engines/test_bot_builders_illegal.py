"""Refusals: plain words, a ValueError subclass, and the game left exactly as it was."""

import pytest

from games.engines import IllegalAction
from games.engines.bot_builders import new_game

DECK = {"type": "draw", "source": "deck"}


@pytest.fixture
def game(bb_game):
    game = bb_game([["camera", "flat_tire"], []])
    game.apply("red", DECK)
    return game


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        ("pink", DECK, "no seat called 'pink'"),
        (None, DECK, "no seat called None"),
        (["red"], DECK, "no seat called"),
        ("blue", DECK, "It is red's turn, not yours."),
        ("red", None, "not a move"),
        ("red", "install camera", "not a move"),
        ("red", {}, "not a move"),
        ("red", {"type": "fly"}, "not a move"),
        ("red", {"type": ["install"]}, "not a move"),
        ("red", {"type": "install"}, "no card called None"),
        ("red", {"type": "install", "card": "toaster"}, "no card called 'toaster'"),
        ("red", {"type": "install", "card": ["camera"]}, "no card called"),
        ("red", {"type": "install", "card": "speaker"}, "not in your hand"),
        ("red", {"type": "install", "card": "camera", "extra": 1}, "can't do that"),
        ("red", {"type": "install", "card": "flat_tire"}, "can't install a Glitch"),
        ("red", {"type": "glitch", "card": "flat_tire"}, "no opponent called None"),
        ("red", {"type": "glitch", "card": "flat_tire", "target": "red"}, "can't Glitch yourself"),
        ("red", {"type": "glitch", "card": "camera", "target": "blue"}, "Only a Glitch"),
        ("red", {"type": "discard", "card": "speaker"}, "not in your hand"),
        ("red", {"type": "bot"}, "BOT!"),
        ("red", DECK, "already drew"),
    ],
)
def test_illegal_actions_are_refused_in_plain_words_and_change_nothing(game, seat, action, message):
    before = game.to_dict()
    with pytest.raises(IllegalAction, match=message) as caught:
        game.apply(seat, action)
    assert isinstance(caught.value, ValueError)
    assert game.to_dict() == before


def test_legal_actions_of_a_seat_not_at_the_table_is_empty():
    game = new_game(["a", "b"], seed=1)
    assert game.legal_actions("zed") == []
    assert game.legal_actions(None) == []


def test_legal_actions_are_fresh_dicts_the_caller_may_change():
    game = new_game(["a", "b"], seed=1, start_seat="a")
    game.legal_actions("a")[0]["source"] = "moon"
    assert game.legal_actions("a")[0] == DECK
