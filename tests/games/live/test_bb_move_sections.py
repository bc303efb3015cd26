"""The team device's buttons in sections: the likely move first, every legal action exactly once
(no database: engine states only)."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.display.bot_builders import move_sections
from games.engines import bot_builders as bb

SEATS = ["team-1", "team-2", "team-3", "team-4"]
NAMES = {seat: f"Team {seat[-1]}" for seat in SEATS}


def sections_of(game: bb.Game):
    seat = game.current_seat
    view = game.view(seat)
    actions = game.legal_actions(seat)
    return move_sections(view, actions, NAMES), actions


def offered(sections) -> list[str]:
    return [b.action for s in sections for g in s.groups for b in g.buttons]


def act_phase(hand: list[str], bench: dict[str, str]) -> bb.Game:
    game = bb.new_game(SEATS, seed=1, start_seat="team-1")
    state = game.to_dict()
    everything = state["draw_pile"] + state["discard"]
    for seat in SEATS:
        everything += state["hands"][seat]
    keep = set(hand) | set(bench.values())
    state["hands"] = {seat: [] for seat in SEATS}
    state["hands"]["team-1"] = list(hand)
    state["benches"]["team-1"].update(bench)
    state["draw_pile"] = [c for c in everything if c not in keep]
    state["discard"] = []
    state["phase"] = "act"
    return bb.Game.from_dict(state)


def test_installing_into_an_empty_slot_comes_first_then_replace_glitch_discard():
    game = act_phase(["flat_tire", "microphone", "loop_chip"], {"sense": "camera"})
    sections, _ = sections_of(game)
    assert [s.key for s in sections] == ["install", "replace", "glitch", "discard"]
    assert [s.count for s in sections] == [1, 1, 3, 3]
    assert sections[0].groups[0].buttons[0].label == "Install Loop chip (Think)"
    assert sections[1].groups[0].buttons[0].label == "Install Microphone (Sense), replacing Camera"
    assert sections[3].heading == "Discard a card" and len(sections[3].groups) == 1


def test_with_nothing_to_install_into_an_empty_slot_the_next_kind_comes_first():
    game = act_phase(["flat_tire", "microphone"], {"sense": "camera"})
    sections, _ = sections_of(game)
    assert [s.key for s in sections] == ["replace", "glitch", "discard"]


def test_drawing_is_one_section_with_the_draw_pile_first():
    game = bb.new_game(SEATS, seed=3, start_seat="team-1")
    sections, actions = sections_of(game)
    assert len(sections) == 1 and sections[0].heading == "Draw a card"
    assert sections[0].groups[0].buttons[0].label.startswith("Draw from the draw pile")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 60))
def test_every_legal_action_is_one_button_exactly_once(seed, steps):
    game = bb.new_game(SEATS, seed=seed)
    for _ in range(steps):
        if game.is_over:
            return
        seat = game.current_seat
        game.apply(seat, bb.suggest(game, seat))
    if game.is_over:
        return
    sections, actions = sections_of(game)
    assert sorted(offered(sections)) == sorted(json.dumps(a, sort_keys=True) for a in actions)
