"""Setup and the turn steps: draw, act, hand limit (spec: Setup, A turn, Installing)."""

import pytest

from games.engines import IllegalAction
from games.engines.bot_builders import DECK_IDS, new_game

DECK = {"type": "draw", "source": "deck"}
TAKE = {"type": "draw", "source": "discard"}
NONE = {"type": "draw", "source": "none"}


def install(card):
    return {"type": "install", "card": card}


def discard(card):
    return {"type": "discard", "card": card}


RED = ["camera", "loop_chip", "flat_tire", "rescue_rover"]
BLUE = ["microphone", "speaker", "fogged_lens", "battery_pack"]


@pytest.fixture
def game(bb_game):
    return bb_game([RED, BLUE], "timer_chip", ["drive_wheels", "gripper_claw", "solar_panel"])


# -- setup ----------------------------------------------------------------------------------------


def test_deal_follows_the_deck_order_top_first(game):
    assert game.hands == {"red": RED, "blue": BLUE}
    view = game.view(None)
    assert view["discard_top"] == "timer_chip"
    assert view["discard_size"] == 1
    assert view["draw_pile"] == 48 - 8 - 1
    assert view["benches"]["red"] == dict.fromkeys(["sense", "think", "act", "power", "mission"])
    assert (game.current_seat, game.phase) == ("red", "draw")


def test_seeded_shuffle_is_the_same_for_the_same_seed_and_uses_every_card():
    a = new_game(["red", "blue", "green"], seed=42)
    b = new_game(["red", "blue", "green"], seed=42)
    c = new_game(["red", "blue", "green"], seed=43)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict() != c.to_dict()
    cards = a.draw_pile + a.discard + [x for hand in a.hands.values() for x in hand]
    assert sorted(cards) == sorted(DECK_IDS)
    assert all(len(hand) == 4 for hand in a.hands.values())


def test_start_seat_is_drawn_from_the_seed_when_not_given():
    starts = {new_game(["a", "b", "c", "d"], seed=s).current_seat for s in range(40)}
    assert starts == {"a", "b", "c", "d"}
    assert new_game(["a", "b"], seed=5).current_seat == new_game(["a", "b"], seed=5).current_seat


def test_start_seat_can_be_chosen():
    assert new_game(["a", "b", "c"], seed=1, start_seat="c").current_seat == "c"


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        ([], {}),
        (["a"], {}),
        (["a", "b", "c", "d", "e", "f", "g"], {}),
        (["a", "b"], {"solo": True}),
        (["a", "a"], {}),
        (["a", ""], {}),
        ("ab", {}),
        (["a", "b"], {"start_seat": "z"}),
        (["a", "b"], {"deck": list(DECK_IDS)[:47]}),
        (["a", "b"], {"deck": list(DECK_IDS)[:47] + ["camera"]}),
        (["a", "b"], {"deck": list(DECK_IDS)[:47] + ["toaster"]}),
        (["a", "b"], {"birth_months": {"a": "2015-13"}}),
        (["a", "b"], {"birth_months": {"a": "2015/04"}}),
        (["a", "b"], {"birth_months": {"z": "2015-04"}}),
        (["a", "b"], {"seed": 1.5}),
    ],
)
def test_bad_setups_raise_value_error(seats, options):
    with pytest.raises(ValueError):
        new_game(seats, **options)


def test_two_to_six_seats_and_solo_one_are_accepted():
    for n in range(2, 7):
        assert len(new_game([f"s{i}" for i in range(n)], seed=n).seats) == n
    assert new_game(["solo"], seed=1, solo=True).solo


# -- draw -----------------------------------------------------------------------------------------


def test_a_turn_starts_with_a_draw_from_the_deck_or_the_discard(game):
    assert game.legal_actions("red") == [DECK, TAKE]
    assert game.legal_actions("blue") == []


def test_drawing_from_the_deck_hides_the_card_in_the_event(game):
    events = game.apply("red", DECK)
    assert events == [{"type": "drew", "seat": "red", "source": "deck"}]
    assert game.hands["red"][-1] == "drive_wheels"
    assert game.phase == "act"


def test_drawing_the_discard_top_is_public(game):
    events = game.apply("red", TAKE)
    assert events == [{"type": "drew", "seat": "red", "source": "discard", "card": "timer_chip"}]
    assert "timer_chip" in game.hands["red"]
    assert game.view(None)["discard_top"] is None


def test_drawing_nothing_is_not_allowed_while_the_deck_has_cards(game):
    with pytest.raises(IllegalAction, match="draw"):
        game.apply("red", NONE)


def test_acting_before_drawing_is_refused(game):
    with pytest.raises(IllegalAction, match="Draw a card first"):
        game.apply("red", install("camera"))


def test_drawing_twice_is_refused(game):
    game.apply("red", DECK)
    with pytest.raises(IllegalAction, match="already drew"):
        game.apply("red", DECK)


def test_playing_out_of_turn_names_whose_turn_it_is(game):
    with pytest.raises(IllegalAction, match="It is red's turn, not yours."):
        game.apply("blue", DECK)


# -- act ------------------------------------------------------------------------------------------


def test_act_offers_install_glitch_and_discard_for_the_hand(game):
    game.apply("red", DECK)
    actions = game.legal_actions("red")
    assert install("camera") in actions and install("drive_wheels") in actions
    assert {"type": "glitch", "card": "flat_tire", "target": "blue"} in actions
    assert install("flat_tire") not in actions
    assert [a for a in actions if a["type"] == "discard"] == [discard(c) for c in game.hands["red"]]


def test_install_puts_the_card_in_its_slot_and_ends_the_turn(game, bb_play):
    events = bb_play(game, ("red", DECK), ("red", install("camera")))
    assert game.benches["red"]["sense"] == "camera"
    assert "camera" not in game.hands["red"]
    assert {"type": "installed", "seat": "red", "card": "camera", "slot": "sense",
            "replaced": None} in events  # fmt: skip
    assert events[-1] == {"type": "turn", "seat": "blue", "turn": 2, "last_turn": False}
    assert (game.current_seat, game.phase) == ("blue", "draw")


def test_installing_into_a_filled_slot_sends_the_old_card_to_the_discard(game, bb_play):
    bb_play(game, ("red", DECK), ("red", install("camera")), ("blue", DECK))
    bb_play(game, ("blue", discard("speaker")), ("red", DECK))
    game.hands["red"].append("gps_receiver")  # hand it a second Sense part
    game.draw_pile.remove("gps_receiver")
    events = game.apply("red", install("gps_receiver"))
    assert events[0]["replaced"] == "camera"
    assert game.benches["red"]["sense"] == "gps_receiver"
    assert game.discard[-1] == "camera"


def test_a_mission_installs_into_the_mission_slot(game, bb_play):
    bb_play(game, ("red", DECK), ("red", install("rescue_rover")))
    assert game.benches["red"]["mission"] == "rescue_rover"


def test_a_glitch_can_never_be_installed(game):
    game.apply("red", DECK)
    with pytest.raises(IllegalAction, match="can't install a Glitch on your own bench"):
        game.apply("red", install("flat_tire"))


def test_discard_is_a_turn_action(game, bb_play):
    events = bb_play(game, ("red", DECK), ("red", discard("loop_chip")))
    assert {"type": "discarded", "seat": "red", "card": "loop_chip", "reason": "action"} in events
    assert game.discard[-1] == "loop_chip"
    assert game.current_seat == "blue"


def test_taking_the_discard_top_then_discarding_it_is_allowed(game, bb_play):
    bb_play(game, ("red", TAKE), ("red", discard("timer_chip")))
    assert game.discard == ["timer_chip"]
    assert game.hands["red"] == RED
    assert game.current_seat == "blue"


def test_turns_go_round_in_seat_order(bb_game, bb_play):
    game = bb_game([[], [], []], start_seat="blue")
    order = []
    for _ in range(6):
        seat = game.current_seat
        order.append(seat)
        bb_play(game, (seat, DECK), (seat, discard(game.hands[seat][0])))
    assert order == ["blue", "green", "red", "blue", "green", "red"]


# -- hand limit -----------------------------------------------------------------------------------


def test_five_cards_after_acting_needs_no_discard(game, bb_play):
    game.hands["red"].append(game.draw_pile.pop(0))  # five in hand before the draw
    bb_play(game, ("red", DECK), ("red", install("camera")))
    assert len(game.hands["red"]) == 5
    assert game.current_seat == "blue"


def test_six_cards_after_acting_means_discard_down(bb_game, bb_play):
    game = bb_game([["camera", "loop_chip", "speaker", "solar_panel"], []], draws=["microphone"])
    game.hands["red"].append(game.draw_pile.pop(0))  # 5 cards
    game.hands["red"].append(game.draw_pile.pop(0))  # 6 cards
    events = bb_play(game, ("red", DECK), ("red", install("camera")))
    assert events[-1] == {"type": "hand_limit", "seat": "red", "hand_size": 6}
    assert game.phase == "discard_down"
    assert game.legal_actions("red") == [discard(c) for c in game.hands["red"]]
    with pytest.raises(IllegalAction, match="discard down to 5"):
        game.apply("red", install("loop_chip"))
    events = game.apply("red", discard("speaker"))
    assert events[0] == {"type": "discarded", "seat": "red", "card": "speaker",
                         "reason": "hand_limit"}  # fmt: skip
    assert len(game.hands["red"]) == 5
    assert game.current_seat == "blue"


def test_hand_limit_is_checked_only_at_the_end_of_the_own_turn(bb_game, bb_play):
    # Blue's Sense part comes back to blue's hand on red's turn: blue holds 6 until its turn ends.
    game = bb_game(
        [["static_noise", "loop_chip"], ["camera", "speaker", "solar_panel", "wall_plug"]],
        draws=["gps_receiver", "microphone", "timer_chip"],
    )
    bb_play(game, ("red", DECK), ("red", discard("loop_chip")))
    bb_play(game, ("blue", DECK), ("blue", install("camera")))
    game.hands["blue"].append("fuel_cell")
    game.draw_pile.remove("fuel_cell")
    bb_play(game, ("red", DECK), ("red", {"type": "glitch", "card": "static_noise",
                                         "target": "blue"}))  # fmt: skip
    assert len(game.hands["blue"]) == 6
    assert game.phase == "draw" and game.current_seat == "blue"
    bb_play(game, ("blue", DECK), ("blue", install("camera")))
    assert game.phase == "discard_down"
    game.apply("blue", discard("wall_plug"))
    assert len(game.hands["blue"]) == 5 and game.current_seat == "red"
