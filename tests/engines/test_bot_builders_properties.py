"""Random playthroughs checking the invariants of the spec (OpenSpiel-style random sims)."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import IllegalAction
from games.engines.bot_builders import (
    CARDS,
    DECK_IDS,
    DUMMY,
    SLOTS,
    Game,
    new_game,
    score_bench,
    suggest,
)

NAMES = ["red", "blue", "green", "yellow", "purple", "orange"]
BAD_ACTIONS = [
    {"type": "draw", "source": "moon"},
    {"type": "install", "card": "toaster"},
    {"type": "glitch", "card": "flat_tire", "target": "nobody"},
    {"type": "bot", "extra": True},
    {"type": "discard"},
    {},
]


def all_cards(game: Game) -> list[str]:
    cards = game.draw_pile + game.discard
    for seat in game.seats:
        cards += game.hands[seat]
        cards += [c for c in game.benches[seat].values() if c]
    if game.dummy_bench:
        cards += [c for c in game.dummy_bench.values() if c]
    return cards


def check_invariants(game: Game) -> None:
    assert sorted(all_cards(game)) == sorted(DECK_IDS)
    benches = list(game.benches.values()) + ([game.dummy_bench] if game.dummy_bench else [])
    for bench in benches:
        assert set(bench) == set(SLOTS)
        for slot, card in bench.items():
            assert card is None or (CARDS[card].slot == slot and not CARDS[card].is_glitch)
        assert 0 <= score_bench(bench).total <= 16
    # Every card is in one place, so a hand card named anywhere in a view is a leak.
    public = json.dumps(game.view(None))
    assert '"hand"' not in public
    for seat in game.seats:
        assert not any(f'"{card}"' in public for card in game.hands[seat])
        view = game.view(seat)
        assert view["hand"] == game.hands[seat]
        text = json.dumps(view)
        others = [c for s in game.seats if s != seat for c in game.hands[s]]
        assert not any(f'"{card}"' in text for card in others)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
    moves_seed=st.integers(min_value=0, max_value=2**32),
    robot_share=st.sampled_from([0.0, 0.3, 0.7, 1.0]),
)
def test_random_games_keep_every_invariant(seats, seed, moves_seed, robot_share):
    # Moves come from a seeded generator rather than st.data(), so every example plays a whole
    # game (a draw per move would overrun Hypothesis's buffer on long games).
    names = NAMES[:seats]
    game = new_game(names, seed=seed, solo=seats == 1)
    rng = random.Random(moves_seed)
    log = []
    last_seat = None
    turn = game.turn
    for _ in range(2000):
        check_invariants(game)
        if game.is_over:
            break
        seat = game.current_seat
        actions = game.legal_actions(seat)
        assert actions
        assert all(game.legal_actions(s) == [] for s in names if s != seat)
        # Some illegal moves are refused and change nothing.
        before = game.to_dict()
        for bad in BAD_ACTIONS:
            try:
                game.apply(seat, bad)
                raise AssertionError("an illegal action was accepted")
            except IllegalAction:
                pass
        assert game.to_dict() == before
        action = suggest(game, seat) if rng.random() < robot_share else rng.choice(actions)
        if game.bot_called_by is not None:
            assert action["type"] != "glitch"
        game.apply(seat, action)
        log.append((seat, action))
        if game.turn != turn and not game.is_over:
            # A new turn started: never the same seat twice in a row, except in solo.
            if seats > 1:
                assert game.current_seat != last_seat or last_seat is None
                assert game.current_seat != seat
            turn = game.turn
        last_seat = seat
        copy = Game.from_dict(json.loads(json.dumps(game.to_dict())))
        assert copy.to_dict() == game.to_dict()
    assert game.is_over
    results = game.results()
    assert sorted(r["seat"] for r in results) == sorted(names)
    assert all(0 <= r["score"] <= 16 for r in results)
    assert [r["place"] for r in results] == sorted(r["place"] for r in results)
    replay = new_game(names, seed=seed, solo=seats == 1)
    for seat, action in log:
        replay.apply(seat, action)
    assert replay.to_dict() == game.to_dict()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), steps=st.integers(0, 120))
def test_every_legal_action_is_accepted(seed, steps):
    game = new_game(NAMES[:4], seed=seed)
    for i in range(steps):
        if game.is_over:
            break
        seat = game.current_seat
        actions = game.legal_actions(seat)
        state = game.to_dict()
        for action in actions:
            trial = Game.from_dict(state)
            trial.apply(seat, action)
        game.apply(seat, actions[(seed + i) % len(actions)])
    if not game.is_over:
        other = [s for s in game.seats if s != game.current_seat][0]
        before = game.to_dict()
        for action in game.legal_actions(game.current_seat):
            try:
                game.apply(other, action)
                raise AssertionError("a move out of turn was accepted")
            except IllegalAction:
                pass
        assert game.to_dict() == before


def test_dummy_is_never_a_seat():
    game = new_game(["me"], seed=1, solo=True)
    assert DUMMY not in game.seats
