import pytest

from games.engines import IllegalAction

from .three_laws_helpers import F, advance, game4, to_transfer, transfer_all


def test_give_makes_an_offer_and_receiver_becomes_current_seat():
    game = to_transfer(game4())
    (event,) = game.apply("ann", {"type": "give", "to": "cat"})
    assert event["type"] == "offer" and event["keys"] == 1
    assert game.current_seat == "cat"
    assert game.view(None)["pending_offer"] == {"from": "ann", "to": "cat", "keys": 1}
    assert game.legal_actions("cat")[:2] == [{"type": "accept"}, {"type": "reject"}]
    assert game.legal_actions("ann") == []


def test_accepted_keys_move_and_turn_passes_on():
    game = to_transfer(game4())
    game.apply("ann", {"type": "give", "to": "cat"})
    game.apply("cat", {"type": "accept"})
    assert game.keys == {"ann": 0, "ben": 1, "cat": 2, "dan": 1}
    assert game.current_seat == "ben" and game.pending is None


def test_rejected_keys_stay_with_giver():
    game = to_transfer(game4())
    game.apply("ann", {"type": "give", "to": "cat"})
    game.apply("cat", {"type": "reject"})
    assert game.keys == {"ann": 1, "ben": 1, "cat": 1, "dan": 1}
    assert game.current_seat == "ben"


def test_a_seat_offers_all_the_keys_it_has_received():
    game = to_transfer(game4())
    game.apply("ann", {"type": "give", "to": "ben"})
    game.apply("ben", {"type": "accept"})
    (event,) = game.apply("ben", {"type": "give", "to": "dan"})
    assert event["keys"] == 2
    game.apply("dan", {"type": "accept"})
    assert game.keys == {"ann": 0, "ben": 0, "cat": 1, "dan": 3}
    assert sum(game.keys.values()) == 4


def test_a_seat_holds_a_key_at_its_own_turn_so_keep_only_never_arises():
    # Keys only leave a seat on its own (single) turn, so nobody reaches it with none;
    # the engine still offers only "keep" to a seat with no keys.
    game = to_transfer(game4())
    while game.current_seat is not None:
        seat = game.current_seat
        assert game.keys[seat] >= 1
        game.apply(seat, {"type": "give", "to": "dan" if seat != "dan" else "ann"})
        game.apply(game.current_seat, {"type": "accept"})
    assert game.keys == {"ann": 4, "ben": 0, "cat": 0, "dan": 0}


def test_seat_with_no_keys_is_offered_only_keep():
    game = to_transfer(game4())
    game.keys.update({"ann": 0, "ben": 2})  # only reachable by editing the state directly
    assert [a for a in game.legal_actions("ann") if a["type"] in ("give", "keep")] == [
        {"type": "keep"}
    ]
    with pytest.raises(IllegalAction, match="no keys to give"):
        game.apply("ann", {"type": "give", "to": "ben"})


def test_receiver_cannot_give_while_offer_pending_and_others_cannot_answer():
    game = to_transfer(game4())
    game.apply("ann", {"type": "give", "to": "cat"})
    with pytest.raises(IllegalAction, match="accept or reject"):
        game.apply("cat", {"type": "keep"})
    with pytest.raises(IllegalAction, match="no keys on offer"):
        game.apply("ben", {"type": "accept"})
    with pytest.raises(IllegalAction):
        game.apply("ann", {"type": "keep"})


def test_cannot_give_to_self_or_stranger_and_not_out_of_turn():
    game = to_transfer(game4())
    for action in ({"type": "give", "to": "ann"}, {"type": "give", "to": "zed"}, {"type": "give"}):
        with pytest.raises(IllegalAction):
            game.apply("ann", action)
    with pytest.raises(IllegalAction, match="It is ann's turn"):
        game.apply("ben", {"type": "keep"})


def test_each_seat_takes_exactly_one_transfer_turn():
    game = to_transfer(game4(start_seat="ben"))
    transfer_all(game, gives={"ben": "ann", "cat": "ann"})
    movers = [t["from"] for t in game.transfers]
    assert movers == ["ben", "cat", "dan", "ann"]
    assert game.current_seat is None
    assert game.legal_actions(F) == [{"type": "advance"}]
    advance(game)
    assert game.phase == "reveal"
