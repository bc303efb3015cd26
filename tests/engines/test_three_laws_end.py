import pytest

from games.engines import IllegalAction

from .three_laws_helpers import SEATS, advance, game4, play_round


def play_out(game, gives=None):
    while not game.is_over:
        play_round(game, gives)
        events = advance(game)
    return events


def test_results_rank_by_vp_with_place_score_and_cards():
    game = game4(vp_deck=[3, 1] * 30)
    events = play_out(game, gives={"ben": "ann"})
    results = game.results()
    assert events[-1] == {"type": "game_over", "results": results}
    # Each round ann draws 3 and ben 1 (ann first: she is the start player).
    assert results[0] == {
        "seat": "ann",
        "place": 1,
        "score": 12,
        "vp": 12,
        "vp_cards": [3, 3, 3, 3],
        "cards_drawn": 4,
    }
    assert [r["seat"] for r in results] == ["ann", "ben", "cat", "dan"]
    assert [r["place"] for r in results] == [1, 2, 3, 4]


def test_ties_go_to_the_seat_closest_to_the_start_player():
    game = game4(start_seat="cat", vp_deck=[])
    play_out(game)
    # Nobody scores: everyone ties at 0; order from cat clockwise.
    assert [r["seat"] for r in game.results()] == ["cat", "dan", "ann", "ben"]
    assert [r["place"] for r in game.results()] == [1, 2, 3, 4]


def test_tie_break_among_tied_seats_only():
    game = game4(start_seat="dan", vp_deck=[2] * 60)
    # androids (ann, ben) and cyborgs (cat, dan) both score every round: all tie at 8.
    play_out(game, gives={"ben": "ann", "dan": "cat"})
    assert [r["seat"] for r in game.results()] == ["dan", "ann", "ben", "cat"]
    assert {r["score"] for r in game.results()} == {8}


def test_results_before_the_end_are_refused():
    with pytest.raises(ValueError, match="not over"):
        game4().results()


def test_no_legal_actions_once_over():
    game = game4(rounds=3)
    play_out(game)
    assert all(game.legal_actions(seat) == [] for seat in SEATS)
    with pytest.raises(IllegalAction):
        game.apply("ann", {"type": "keep"})
