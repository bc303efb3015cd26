import pytest

from games.engines import IllegalAction
from games.engines import three_laws as tl

from .three_laws_helpers import DEAL_4, LAW_ORDER, SEATS, game4


def test_new_game_starts_in_round_one_setup_with_one_key_each():
    game = game4()
    assert (game.round, game.phase, game.current_seat) == (1, "setup", None)
    assert game.keys == dict.fromkeys(SEATS, 1)
    assert game.supply == 6 and sum(game.tokens.values()) == 0


def test_skip_first_round_plays_rounds_two_to_four():
    game = game4(rounds=3)
    assert game.round == 2
    assert game.rounds == [2, 3, 4]


def test_same_seed_gives_same_setup_and_different_seed_differs():
    a = tl.new_game(["a", "b", "c", "d", "e"], seed=5).to_dict()
    b = tl.new_game(["a", "b", "c", "d", "e"], seed=5).to_dict()
    assert a == b
    others = [tl.new_game(["a", "b", "c", "d", "e"], seed=s).to_dict() for s in range(6, 10)]
    assert any(o["deals"] != a["deals"] for o in others)


def test_random_deals_use_the_deck_for_the_player_count():
    for n in range(4, 9):
        game = tl.new_game([f"s{i}" for i in range(n)], seed=n)
        top = 4 if n <= 6 else 5
        for deal in game.deals:
            cards = [tuple(card) for card in deal.values()]
            assert len(set(cards)) == n
            assert all(1 <= rank <= top and f in game.factions for f, rank in cards)
        assert len(game.factions) == (2 if n == 4 else 3)


def test_fixed_option_does_not_change_what_the_seed_deals():
    free = tl.new_game(SEATS, seed=3)
    fixed = tl.new_game(SEATS, seed=3, law_order=LAW_ORDER)
    assert free.deals == fixed.deals and free.vp_deck == fixed.vp_deck


def test_four_seat_factions_are_taken_from_the_deals():
    game = tl.new_game(SEATS, seed=1, deals=[dict(DEAL_4)] * 4)
    assert game.factions == ["androids", "cyborgs"]


def test_start_seat_default_comes_from_seed():
    assert tl.new_game(SEATS, seed=9).start_seat in SEATS
    assert tl.new_game(SEATS, seed=9, start_seat="cat").order == ["cat", "dan", "ann", "ben"]


BAD_SETUPS = {
    "too few seats": {"seats": ["a", "b", "c"]},
    "too many seats": {"seats": [str(i) for i in range(9)]},
    "duplicate seats": {"seats": ["a", "a", "b", "c"]},
    "empty seat name": {"seats": ["a", "", "b", "c"]},
    "facilitator as seat": {"seats": ["a", "b", "c", tl.FACILITATOR]},
    "start seat unknown": {"start_seat": "zed"},
    "one faction": {"factions": ["androids"]},
    "unknown faction": {"factions": ["androids", "elves"]},
    "same faction twice": {"factions": ["androids", "androids"]},
    "deals wrong round count": {"deals": [DEAL_4] * 3},
    "deals missing a seat": {"deals": [{"ann": ["androids", 1]}] * 4},
    "deals not a list": {"deals": DEAL_4},
    "deal unknown faction": {"deals": [{**DEAL_4, "ann": ["elves", 1]}] * 4},
    "deal faction not in play": {"deals": [{**DEAL_4, "ann": ["drones", 4]}] * 4},
    "deal rank too high": {"deals": [{**DEAL_4, "ann": ["androids", 5]}] * 4},
    "deal rank zero": {"deals": [{**DEAL_4, "ann": ["androids", 0]}] * 4},
    "deal rank not a number": {"deals": [{**DEAL_4, "ann": ["androids", "4"]}] * 4},
    "deal duplicate card": {"deals": [{**DEAL_4, "ann": ["androids", 2]}] * 4},
    "deal card malformed": {"deals": [{**DEAL_4, "ann": "androids"}] * 4},
    "law unknown": {"law_order": ["law_99", *LAW_ORDER[1:]]},
    "law twice": {"law_order": ["law_01", *LAW_ORDER[:11]]},
    "too few laws": {"law_order": LAW_ORDER[:5]},
    "law_order a string": {"law_order": "law_01"},
    "vp value four": {"vp_deck": [1, 2, 4]},
    "vp value not a number": {"vp_deck": [1, "2"]},
    "skip flag not a bool": {"skip_first_round": "yes"},
}


@pytest.mark.parametrize("case", BAD_SETUPS, ids=list(BAD_SETUPS))
def test_new_game_rejects_bad_setup(case):
    options = dict(BAD_SETUPS[case])
    seats = options.pop("seats", SEATS)
    kwargs = {"seed": 1, "factions": ["androids", "cyborgs"] if len(seats) == 4 else None}
    kwargs.update(options)
    with pytest.raises(ValueError):
        tl.new_game(seats, **kwargs)


def test_bad_setup_raises_illegal_action_with_words():
    with pytest.raises(IllegalAction, match="4 to 8 seats"):
        tl.new_game(["a", "b"], seed=1)


def test_factions_for_a_bigger_table_must_be_all_three():
    with pytest.raises(ValueError):
        tl.new_game([str(i) for i in range(6)], seed=1, factions=["androids", "drones"])
    game = tl.new_game([str(i) for i in range(6)], seed=1, factions=list(reversed(tl.FACTIONS)))
    assert game.factions == list(tl.FACTIONS)


def test_partial_law_order_and_short_vp_deck_are_accepted():
    game = game4(law_order=LAW_ORDER[6:], vp_deck=[])
    assert game.law_order == LAW_ORDER[6:] and game.vp_deck == []
