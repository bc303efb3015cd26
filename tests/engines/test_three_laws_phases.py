import pytest

from games.engines import IllegalAction

from .three_laws_helpers import LAW_ORDER, SEATS, F, advance, game4, play_round, to_transfer


def test_facilitator_advances_setup_wake_up_query():
    game = game4()
    assert game.legal_actions(F) == [{"type": "advance"}]
    advance(game)
    assert game.phase == "wake_up" and game.current_seat is None
    advance(game)
    assert game.phase == "query" and game.current_seat == "ann"


def test_only_the_facilitator_can_advance():
    game = game4()
    with pytest.raises(IllegalAction, match="Only the facilitator"):
        game.apply("ann", {"type": "advance"})
    assert game.phase == "setup"


def test_facilitator_cannot_advance_during_query():
    game = game4()
    advance(game, 2)
    assert game.legal_actions(F) == []
    with pytest.raises(IllegalAction, match="ann's turn to ask"):
        advance(game)


def test_last_query_moves_to_transfer_by_itself():
    game = to_transfer(game4())
    assert game.phase == "transfer" and game.current_seat == "ann"


def test_advance_after_last_transfer_reveals_and_scores():
    game = game4()
    events = play_round(game)
    assert game.phase == "reveal"
    assert [e["type"] for e in events] == ["phase", "reveal", "score"]


def test_advance_from_reveal_starts_next_round_with_fresh_keys():
    game = game4()
    play_round(game, gives={"ben": "ann"})
    assert game.keys["ann"] == 2
    events = advance(game)
    assert (game.round, game.phase) == (2, "setup")
    assert game.keys == dict.fromkeys(SEATS, 1)
    assert events[0] == {"type": "round", "round": 2, "new_laws": ["law_01"], "laws": ["law_01"]}


def test_laws_in_force_accumulate_zero_one_three_six():
    game = game4()
    seen = []
    while True:
        seen.append(game.laws_in_force)
        play_round(game)
        advance(game)
        if game.is_over:
            break
    assert seen == [[], LAW_ORDER[:1], LAW_ORDER[:3], LAW_ORDER[:6]]
    assert game.phase == "over" and game.legal_actions(F) == []


def test_skipping_round_one_still_starts_with_one_law():
    game = game4(rounds=3)
    assert game.laws_in_force == ["law_01"]


def test_game_over_after_last_reveal_accepts_no_moves():
    game = game4(rounds=3)
    for _ in range(3):
        play_round(game)
        advance(game)
    assert game.is_over
    with pytest.raises(IllegalAction, match="over"):
        advance(game)
