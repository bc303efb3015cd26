import json

import pytest

from .three_laws_helpers import SEATS, F, advance, error, game4, play_round, to_round2_query

VIEW_KEYS = {
    "round",
    "phase",
    "laws",
    "cards",
    "keys",
    "tokens",
    "supply",
    "vp_counts",
    "vp",
    "current_seat",
    "pending_offer",
    "seats",
    "start_seat",
    "queries",
    "calls",
    "scored",
    "final",
}


def test_view_has_the_contract_keys_and_is_json_safe():
    game = game4()
    for seat in [*SEATS, None, F]:
        view = game.view(seat)
        assert set(view) >= VIEW_KEYS
        assert json.loads(json.dumps(view)) == view


def test_no_cards_are_seen_during_setup():
    game = game4()
    assert all(game.view(seat)["cards"] == {} for seat in [*SEATS, None])


def test_from_wake_up_a_seat_sees_every_card_but_its_own():
    game = game4()
    advance(game)
    assert game.view("ann")["cards"] == {
        "ben": ["androids", 2],
        "cat": ["cyborgs", 3],
        "dan": ["cyborgs", 1],
    }


def test_public_and_facilitator_views_show_no_faction_before_reveal():
    game = to_round2_query(game4())
    for viewer in (None, F):
        text = json.dumps(game.view(viewer))
        assert game.view(viewer)["cards"] == {}
        assert "androids" not in text.replace('"factions": ["androids", "cyborgs"]', "")
    assert game.view(F) == game.view(None)


def test_reveal_shows_every_card_to_everyone():
    game = game4()
    play_round(game)
    assert game.view(None)["cards"] == game.view("ann")["cards"] == game.cards


def test_laws_in_view_are_id_and_text():
    game = to_round2_query(game4())
    assert game.view("ann")["laws"] == [
        {"id": "law_01", "text": 'Robots do not say "I". Call yourself "this unit".'}
    ]
    assert game.view("ann")["laws_enforced"] is True


def test_vp_values_are_seen_only_by_their_holder_until_the_end():
    game = game4(vp_deck=[3, 2, 1] * 10)
    play_round(game, gives={"ben": "ann"})
    assert game.view("ann")["vp"] == [3]
    assert game.view("ben")["vp"] == [2]
    assert game.view("cat")["vp"] == [] and game.view(None)["vp"] == []
    assert game.view("cat")["vp_counts"] == {"ann": 1, "ben": 1, "cat": 0, "dan": 0}
    assert game.view("cat")["vp_cards"] is None and game.view("cat")["final"] is None
    while not game.is_over:
        advance(game)
        if not game.is_over:
            play_round(game)
    assert game.view(None)["vp_cards"]["ann"][0] == 3
    assert game.view("cat")["final"] == {"ann": 3, "ben": 2, "cat": 0, "dan": 0}


def test_view_shows_keys_tokens_calls_and_current_seat():
    game = to_round2_query(game4())
    error(game, "ben", "ann")
    view = game.view("dan")
    assert view["tokens"]["ben"] == 1 and view["supply"] == 5
    assert view["current_seat"] == "ann"
    assert view["calls"] == [
        {
            "call": "c1",
            "kind": "error",
            "round": 2,
            "caller": "ben",
            "offender": "ann",
            "law": "law_01",
            "status": "active",
            "counters": None,
            "countered_by": None,
        }
    ]


def test_unknown_viewer_is_a_value_error():
    with pytest.raises(ValueError):
        game4().view("zed")


def test_view_is_a_copy():
    game = game4()
    advance(game)
    view = game.view("ann")
    view["keys"]["ann"] = 99
    view["cards"]["ben"][1] = 99
    assert game.keys["ann"] == 1 and game.cards["ben"] == ["androids", 2]
