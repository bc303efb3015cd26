from games.engines.three_laws.scoring import scoring_factions

from .three_laws_helpers import (
    advance,
    ask_all,
    error,
    game4,
    game6,
    play_round,
    to_round2_query,
    transfer_all,
)

CARDS = {"a": ["androids", 4], "b": ["androids", 2], "c": ["cyborgs", 3], "d": ["cyborgs", 1]}


def test_faction_scores_when_only_its_leader_holds_keys():
    keys = {"a": 2, "b": 0, "c": 0, "d": 2}
    assert scoring_factions(CARDS, keys) == ["androids"]


def test_faction_fails_when_another_member_holds_a_key():
    keys = {"a": 1, "b": 1, "c": 1, "d": 1}
    assert scoring_factions(CARDS, keys) == []


def test_faction_fails_when_leader_holds_no_key():
    keys = {"a": 0, "b": 0, "c": 0, "d": 4}
    assert scoring_factions(CARDS, keys) == []


def test_keys_held_by_other_factions_do_not_matter():
    keys = {"a": 0, "b": 0, "c": 4, "d": 0}
    assert scoring_factions(CARDS, keys) == ["cyborgs"]


def test_lone_member_is_its_factions_leader():
    cards = {**CARDS, "e": ["drones", 1]}
    assert scoring_factions(cards, {"a": 0, "b": 0, "c": 0, "d": 0, "e": 1}) == ["drones"]


def test_each_member_of_a_scoring_faction_draws_one_card_top_first():
    game = game4(vp_deck=[3, 2, 1, 1, 1, 1, 1, 1])
    # ann leads androids; ben gives her his key. Cyborgs: dan keeps his, so they fail.
    events = play_round(game, gives={"ben": "ann"})
    score = events[-1]
    assert score["scored"] == ["androids"]
    assert score["draws"] == {"ann": 1, "ben": 1, "cat": 0, "dan": 0}
    assert game.vp == {"ann": [3], "ben": [2], "cat": [], "dan": []}
    assert game.scored == ["androids"] and game.view("cat")["scored"] == ["androids"]


def test_seats_draw_in_order_from_start_player_and_each_seat_draws_all_its_cards_first():
    game = game4(start_seat="cat", vp_deck=[1, 2, 3, 3, 2, 1])
    to_round2_query(game)
    game.vp = {seat: [] for seat in game.vp}
    error(game, "ann", "dan")
    error(game, "ann", "dan")
    error(game, "cat", "dan")
    ask_all(game)
    transfer_all(game, gives={"ben": "ann", "dan": "cat"})
    advance(game)
    # Order cat, dan, ann, ben. Both factions score (ann and cat lead and hold all keys).
    # cat: faction + 1 token; dan: faction; ann: faction + 2 tokens; ben: faction.
    assert game.scored == ["androids", "cyborgs"]
    assert game.vp == {"cat": [1, 2], "dan": [3], "ann": [3, 2, 1], "ben": [1]}


def test_empty_vp_deck_awards_are_worth_one():
    game = game4(vp_deck=[3])
    play_round(game, gives={"ben": "ann", "dan": "cat"})
    assert sorted(sum(game.vp.values(), [])) == [1, 1, 1, 3]
    assert game.vp_deck == []


def test_tokens_draw_cards_then_return_to_supply():
    game = game4(vp_deck=[2] * 10)
    to_round2_query(game)
    before = sum(len(v) for v in game.vp.values())
    error(game, "ben", "cat")
    assert game.tokens["ben"] == 1 and game.supply == 5
    ask_all(game)
    transfer_all(game)
    events = advance(game)
    assert events[-1]["tokens"]["ben"] == 1
    assert events[-1]["draws"]["ben"] == 1
    assert sum(len(v) for v in game.vp.values()) == before + 1
    assert game.supply == 6 and set(game.tokens.values()) == {0}


def test_six_seats_three_factions_score_independently():
    game = game6(vp_deck=[1] * 20)
    # androids: ann 4 leads (ben, fay members); cyborgs: cat 3 leads; drones: eve alone.
    play_round(game, gives={"ben": "ann", "fay": "ann", "dan": "cat"})
    assert game.scored == ["androids", "cyborgs", "drones"]
    assert {seat: len(v) for seat, v in game.vp.items()} == dict.fromkeys(game.seats, 1)
