import pytest

from games.engines import IllegalAction
from games.engines import three_laws as tl

from .three_laws_helpers import SEATS, F, advance, game4, to_query, to_transfer


def test_robot_query_is_legal_with_question_words_filled_in():
    game = to_query(game4())
    action = tl.suggest(game, "ann")
    assert action["type"] == "query" and action["question"]
    assert {**action, "question": ""} in game.legal_actions("ann")
    game.apply("ann", action)


def test_robot_gives_keys_to_the_leader_it_sees_when_it_cannot_lead():
    # ben sees two cyborgs and one android, so it guesses android (more unseen android cards);
    # it sees ann, androids 4, whom no android can outrank.
    deal = {
        "ann": ["androids", 4],
        "ben": ["androids", 1],
        "cat": ["cyborgs", 4],
        "dan": ["cyborgs", 3],
    }
    game = to_transfer(game4(deals=[deal] * 4, start_seat="ben"))
    assert tl.suggest(game, "ben") == {"type": "give", "to": "ann"}


def test_robot_keeps_when_it_probably_leads():
    deal = {
        "ann": ["androids", 1],
        "ben": ["cyborgs", 2],
        "cat": ["cyborgs", 1],
        "dan": ["androids", 2],
    }
    game = to_transfer(game4(deals=[deal] * 4))
    assert tl.suggest(game, "ann") == {"type": "keep"}


def test_robot_answers_an_offer():
    game = to_transfer(game4())
    game.apply("ann", {"type": "give", "to": "ben"})
    assert tl.suggest(game, "ben") in ({"type": "accept"}, {"type": "reject"})


def test_robot_is_never_asked_for_the_facilitator():
    with pytest.raises(ValueError):
        tl.suggest(game4(), F)


def test_robot_with_nothing_to_do_raises():
    with pytest.raises(IllegalAction, match="nothing to do"):
        tl.suggest(game4(), "ann")


def test_robots_play_whole_games_without_error_calls():
    for n in range(4, 9):
        game = tl.new_game([f"s{i}" for i in range(n)], seed=n)
        while not game.is_over:
            seat = game.current_seat
            if seat is None:
                advance(game)
                continue
            action = tl.suggest(game, seat)
            legal = game.legal_actions(seat)
            assert action in legal or {**action, "question": ""} in legal
            assert action["type"] not in ("error", "counter")
            game.apply(seat, action)
        assert len(game.results()) == n


def test_robot_on_a_seat_without_a_turn_returns_a_legal_action():
    game = game4()
    advance(game)
    advance(game)
    assert game.current_seat == "ann"
    # Round 1 has no laws: ben has nothing to do at all.
    with pytest.raises(IllegalAction):
        tl.suggest(game, "ben")
    assert SEATS
