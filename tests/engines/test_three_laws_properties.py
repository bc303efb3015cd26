"""Random games through `legal_actions`, checking the spec's invariants at every step."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import IllegalAction
from games.engines import three_laws as tl

F = tl.FACILITATOR
QUESTIONS = ["", "Am I the highest rank you see?", "  Is my rank 3?  ", "x" * 280]
MAX_STEPS = 220

games = st.fixed_dictionaries(
    {
        "n": st.integers(4, 8),
        "seed": st.integers(0, 10_000),
        "skip_first_round": st.booleans(),
        "start": st.integers(0, 7),
    }
)


def build(options: dict) -> tl.Game:
    seats = [f"s{i}" for i in range(options["n"])]
    return tl.new_game(
        seats,
        seed=options["seed"],
        skip_first_round=options["skip_first_round"],
        start_seat=seats[options["start"] % len(seats)],
    )


def progress_move(game: tl.Game, data) -> tuple[str, dict]:
    """The current seat's turn action, or the facilitator's advance."""
    seat = game.current_seat
    actor = F if seat is None else seat
    legal = [a for a in game.legal_actions(actor) if a["type"] not in ("error", "counter", "void")]
    action = dict(data.draw(st.sampled_from(legal)))
    if action["type"] == "query":
        action["question"] = data.draw(st.sampled_from(QUESTIONS))
    return actor, action


def enforcement_move(game: tl.Game, data) -> tuple[str, dict] | None:
    actor = data.draw(st.sampled_from([F, *game.seats]))
    legal = [a for a in game.legal_actions(actor) if a["type"] in ("error", "counter", "void")]
    if not legal:
        return None
    return actor, data.draw(st.sampled_from(legal))


def check_invariants(game: tl.Game) -> None:
    n = len(game.seats)
    assert sum(game.keys.values()) == n
    assert game.supply + sum(game.tokens.values()) == n + 2
    assert game.supply >= 0 and min(game.tokens.values()) >= 0
    revealed = game.phase in ("reveal", "over")
    for seat in game.seats:
        view = game.view(seat)
        text = json.dumps(view)
        own = json.dumps({seat: game.cards[seat]})[1:-1]
        if not revealed:
            assert seat not in view["cards"]
            assert own not in text
        if not game.is_over:
            for other in game.seats:
                if other != seat and view["vp_counts"][other]:
                    assert view["final"] is None and view["vp_cards"] is None
    public = game.view(None)
    if not revealed:
        assert public["cards"] == {}
        # "factions" (which are in play) and "scored" (the last Reveal) are public knowledge.
        current = {k: v for k, v in public.items() if k not in ("factions", "scored")}
        text = json.dumps(current)
        assert not any(faction in text for faction in tl.FACTIONS)
    assert game.view(F) == public
    data = json.loads(json.dumps(game.to_dict()))
    assert tl.Game.from_dict(data).to_dict() == game.to_dict()


def check_round_turns(game: tl.Game) -> None:
    """At Reveal: each seat asked once and took one transfer turn, in order from the start."""
    queries = [q["asker"] for q in game.queries if q["round"] == game.round]
    transfers = [t["from"] for t in game.transfers if t["round"] == game.round]
    assert queries == game.order
    assert transfers == game.order


def check_rejected(game: tl.Game, data) -> None:
    """A move that is not legal for its actor is refused and changes nothing."""
    actor = data.draw(st.sampled_from([F, *game.seats]))
    candidates = [
        {"type": "advance"},
        {"type": "keep"},
        {"type": "accept"},
        {"type": "query", "target": game.seats[0], "question": ""},
        {"type": "give", "to": game.seats[1]},
        {"type": "error", "offender": game.seats[0], "law": "law_12"},
        {"type": "counter", "call": "c1"},
        {"type": "void", "call": "c1"},
        {"type": "keep", "extra": True},
    ]
    action = data.draw(st.sampled_from(candidates))
    legal = game.legal_actions(actor)
    if action in legal:
        return
    before = game.to_dict()
    try:
        game.apply(actor, action)
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{actor} was allowed {action}, not in legal_actions")
    assert game.to_dict() == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=games, data=st.data())
def test_random_games_keep_every_invariant_and_replay(options, data):
    game = build(options)
    log = []
    for _ in range(MAX_STEPS):
        check_invariants(game)
        if game.is_over:
            break
        check_rejected(game, data)
        move = None
        if data.draw(st.integers(0, 9)) >= 8:
            move = enforcement_move(game, data)
        if move is None:
            move = progress_move(game, data)
        seat, action = move
        # Every listed action is accepted, also on a restored copy.
        tl.Game.from_dict(game.to_dict()).apply(seat, dict(action))
        events = game.apply(seat, action)
        assert json.loads(json.dumps(events)) == events
        log.append((seat, action))
        if game.phase == "reveal" and action["type"] == "advance":
            check_round_turns(game)
    replay = build(options)
    for seat, action in log:
        replay.apply(seat, action)
    assert replay.to_dict() == game.to_dict()
    if game.is_over:
        places = [r["place"] for r in game.results()]
        assert places == list(range(1, len(game.seats) + 1))


@settings(max_examples=25, deadline=None)
@given(options=games)
def test_robot_games_finish_with_legal_moves(options):
    game = build(options)
    steps = 0
    while not game.is_over:
        seat = game.current_seat
        if seat is None:
            game.apply(F, {"type": "advance"})
        else:
            action = tl.suggest(game, seat)
            legal = game.legal_actions(seat)
            assert action in legal or {**action, "question": ""} in legal
            game.apply(seat, action)
        steps += 1
        assert steps < 400
    total = sum(r["vp"] for r in game.results())
    assert total == sum(sum(v) for v in game.vp.values())
