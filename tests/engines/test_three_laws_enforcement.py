import pytest

from games.engines import IllegalAction

from .three_laws_helpers import (
    SEATS,
    F,
    advance,
    ask_all,
    error,
    game4,
    play_round,
    to_query,
    to_round2_query,
    token_total,
    transfer_all,
)


def counter(game, seat, call):
    (event,) = game.apply(seat, {"type": "counter", "call": call})
    return event


def void(game, call):
    (event,) = game.apply(F, {"type": "void", "call": call})
    return event


def test_no_error_calls_while_no_law_is_in_force():
    game = to_query(game4())
    assert all(a["type"] != "error" for a in game.legal_actions("ben"))
    with pytest.raises(IllegalAction, match="There are no laws in force yet"):
        error(game, "ben", "ann")


def test_no_error_calls_in_setup_or_reveal():
    game = game4()
    play_round(game)
    advance(game)
    assert game.phase == "setup" and game.laws_in_force == ["law_01"]
    with pytest.raises(IllegalAction, match="Wake Up until Reveal"):
        error(game, "ben", "ann")
    advance(game)
    error(game, "ben", "ann")  # wake up: enforced
    advance(game)
    transfer_all(ask_all(game))
    advance(game)
    assert game.phase == "reveal"
    with pytest.raises(IllegalAction, match="Wake Up until Reveal"):
        error(game, "ben", "ann")


def test_error_actions_are_every_other_seat_times_every_law_in_force():
    game = to_round2_query(game4())
    errors = [a for a in game.legal_actions("ben") if a["type"] == "error"]
    assert errors == [
        {"type": "error", "offender": s, "law": "law_01"} for s in ["ann", "cat", "dan"]
    ]


def test_error_gains_a_token_from_supply_and_carries_a_call_id():
    game = to_round2_query(game4())
    event = error(game, "ben", "ann")
    assert event["type"] == "error" and event["call"] == "c1"
    assert event["caller"] == "ben" and event["offender"] == "ann" and event["law"] == "law_01"
    assert game.tokens["ben"] == 1 and game.supply == 5
    assert error(game, "cat", "ann")["call"] == "c2"


@pytest.mark.parametrize(
    ("seat", "action", "words"),
    [
        ("ben", {"type": "error", "offender": "ben", "law": "law_01"}, "yourself"),
        ("ben", {"type": "error", "offender": "zed", "law": "law_01"}, "not a seat"),
        ("ben", {"type": "error", "offender": "ann", "law": "law_02"}, "not one of the laws"),
        ("ben", {"type": "error", "offender": "ann"}, "needs a 'law'"),
        (F, {"type": "error", "offender": "ann", "law": "law_01"}, "referee"),
    ],
)
def test_bad_error_calls_are_refused_without_change(seat, action, words):
    game = to_round2_query(game4())
    before = game.to_dict()
    with pytest.raises(IllegalAction, match=words):
        game.apply(seat, action)
    assert game.to_dict() == before


def test_empty_supply_takes_from_seat_with_most_tokens():
    game = to_round2_query(game4())
    for caller in ["ben", "ben", "ben", "cat", "cat", "dan"]:
        error(game, caller, "ann")
    assert game.supply == 0
    event = error(game, "ann", "cat")
    assert event["moves"] == [["ben", "ann"]]
    assert game.tokens == {"ann": 1, "ben": 2, "cat": 2, "dan": 1}


def test_empty_supply_tie_goes_clockwise_from_start_player_never_the_caller():
    game = to_round2_query(game4(start_seat="cat"))
    for caller in ["ben", "ben", "dan", "dan", "cat", "cat"]:
        error(game, caller, "ann")
    # Tied at 2: ben, cat, dan. From the start player cat, clockwise: cat first.
    assert error(game, "ann", "ben")["moves"] == [["cat", "ann"]]
    # cat calls: itself is skipped, so the next tied seat clockwise from cat is dan.
    assert error(game, "cat", "ben")["moves"] == [["dan", "cat"]]
    assert token_total(game) == 6


def test_empty_supply_and_no_other_tokens_gains_nothing():
    game = to_round2_query(game4())
    for _ in range(6):
        error(game, "ben", "ann")
    event = error(game, "ben", "cat")
    assert event["moves"] == [] and game.tokens["ben"] == 6 and game.supply == 0


def test_counter_returns_the_token_and_accuser_takes_from_supply_when_caller_has_none():
    game = to_round2_query(game4())
    error(game, "ben", "ann")
    event = counter(game, "ann", "c1")
    assert event["type"] == "counter" and event["call"] == "c2" and event["counters"] == "c1"
    assert game.tokens == {"ann": 1, "ben": 0, "cat": 0, "dan": 0} and game.supply == 5
    assert [c["status"] for c in game.view(None)["calls"]] == ["countered", "active"]


def test_counter_takes_a_token_from_caller_who_still_has_one():
    game = to_round2_query(game4())
    error(game, "ben", "cat")
    error(game, "ben", "ann")  # c2, wrong
    counter(game, "dan", "c2")
    assert game.tokens == {"ann": 0, "ben": 0, "cat": 0, "dan": 1} and game.supply == 5


def test_counter_returns_a_stolen_token_to_its_seat():
    game = to_round2_query(game4())
    for _ in range(6):
        error(game, "cat", "dan")
    error(game, "ben", "ann")  # c7 steals from cat
    assert game.tokens["cat"] == 5
    counter(game, "ann", "c7")
    # cat gets its token back; ben then has none and the supply is empty, so ann gains none.
    assert game.tokens == {"ann": 0, "ben": 0, "cat": 6, "dan": 0} and game.supply == 0


def test_counter_rules_once_per_call_not_own_not_on_a_counter():
    game = to_round2_query(game4())
    error(game, "ben", "ann")
    assert {"type": "counter", "call": "c1"} not in game.legal_actions("ben")
    with pytest.raises(IllegalAction, match="your own call"):
        counter(game, "ben", "c1")
    counter(game, "cat", "c1")
    with pytest.raises(IllegalAction, match="already been countered"):
        counter(game, "dan", "c1")
    with pytest.raises(IllegalAction, match="cannot be countered"):
        counter(game, "dan", "c2")
    with pytest.raises(IllegalAction, match="no call"):
        counter(game, "dan", "c9")
    assert all(a["type"] != "counter" for a in game.legal_actions("dan"))


def test_facilitator_void_restores_the_tokens_of_a_call():
    game = to_round2_query(game4())
    error(game, "ben", "ann")
    event = void(game, "c1")
    assert event["call"] == "c1" and event["restored"] is None
    assert game.tokens["ben"] == 0 and game.supply == 6
    assert game.view("ann")["calls"][0]["status"] == "voided"
    with pytest.raises(IllegalAction, match="already voided"):
        void(game, "c1")
    with pytest.raises(IllegalAction, match="nothing to counter"):
        counter(game, "ann", "c1")


def test_voiding_a_counter_restores_the_call_which_cannot_be_countered_again():
    game = to_round2_query(game4())
    error(game, "ben", "ann")
    counter(game, "ann", "c1")
    event = void(game, "c2")
    assert event["restored"] == "c1"
    assert game.tokens == {"ann": 0, "ben": 1, "cat": 0, "dan": 0} and game.supply == 5
    statuses = {c["call"]: c["status"] for c in game.view(None)["calls"]}
    assert statuses == {"c1": "active", "c2": "voided"}
    assert {"type": "counter", "call": "c1"} not in game.legal_actions("cat")
    with pytest.raises(IllegalAction, match="already been countered"):
        counter(game, "cat", "c1")
    void(game, "c1")
    assert game.supply == 6


def test_void_undoes_only_as_far_as_tokens_remain():
    game = to_round2_query(game4())
    for caller in ["ben", "cat", "cat", "cat", "cat", "cat"]:
        error(game, caller, "dan")
    error(game, "dan", "ann")  # c7 steals from cat: cat 4
    error(game, "cat", "ann")  # c8 steals from ben (most among others: ben 1, dan 1 -> ben)
    assert game.tokens == {"ann": 0, "ben": 0, "cat": 5, "dan": 1}
    void(game, "c1")  # ben's token has moved on to cat: nothing to take back
    assert game.tokens == {"ann": 0, "ben": 0, "cat": 5, "dan": 1} and token_total(game) == 6


def test_only_facilitator_voids_and_only_before_reveal():
    game = to_round2_query(game4())
    error(game, "ben", "ann")
    with pytest.raises(IllegalAction, match="Only the facilitator"):
        game.apply("cat", {"type": "void", "call": "c1"})
    assert game.legal_actions(F) == [{"type": "void", "call": "c1"}]
    ask_all(game)
    transfer_all(game)
    advance(game)
    assert game.legal_actions(F) == [{"type": "advance"}]
    with pytest.raises(IllegalAction, match="before Reveal"):
        void(game, "c1")


def test_calls_from_an_earlier_round_are_settled():
    game = to_round2_query(game4())
    error(game, "ben", "ann")
    ask_all(game)
    transfer_all(game)
    advance(game, 3)
    assert game.round == 3
    with pytest.raises(IllegalAction, match="earlier round"):
        counter(game, "ann", "c1")
    assert error(game, "cat", "dan", "law_03")["call"] == "c2"


def test_tokens_held_plus_supply_stay_seats_plus_two():
    game = to_round2_query(game4())
    for caller, offender in [("ben", "ann"), ("cat", "ann"), ("dan", "ben")] * 3:
        error(game, caller, offender)
        assert token_total(game) == len(SEATS) + 2
    counter(game, "ann", "c1")
    void(game, "c2")
    counter(game, "ann", "c4")
    void(game, "c10")
    assert token_total(game) == len(SEATS) + 2
