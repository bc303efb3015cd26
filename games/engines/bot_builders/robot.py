"""The robot player: a greedy heuristic that plays a sensible, quick Bot-Builders game.

It fills empty slots (preferring what its Mission wants), takes a useful discard top, glitches the
opponent whose bench it hurts most (the leader counts more), shouts BOT! when it is not behind, and
at the hand limit discards the card it needs least. It only ever returns one of `legal_actions`.
"""

from __future__ import annotations

from games.engines import IllegalAction

from .cards import CARDS
from .game import DUMMY, Game
from .scoring import score_bench

# How much hurting an opponent is worth compared with scoring the same points yourself.
LEADER_WEIGHT = 0.8
OTHER_WEIGHT = 0.4
# A "take it back" glitch costs the target a turn, not the card.
RETURN_WEIGHT = 0.5


def suggest(game: Game, seat: str) -> dict:
    """One of `game.legal_actions(seat)`, chosen by the heuristic above."""
    actions = game.legal_actions(seat)
    if not actions:
        raise IllegalAction(f"{seat!r} has no move to make now.")
    if game.phase == "draw":
        return _choose_draw(game, seat, actions)
    if game.phase == "bot":
        return {"type": "bot"} if _should_shout(game, seat) else {"type": "pass"}
    return max(actions, key=lambda action: _action_value(game, seat, action))


def _total(bench: dict) -> int:
    return score_bench(bench.values()).total


def _install_gain(game: Game, seat: str, card_id: str) -> int:
    bench = game.benches[seat]
    after = dict(bench)
    after[CARDS[card_id].slot] = card_id
    return _total(after) - _total(bench)


def _glitch_value(game: Game, seat: str, card_id: str, target: str) -> float:
    glitch = CARDS[card_id]
    bench = game.dummy_bench if target == DUMMY else game.benches[target]
    assert bench is not None
    if bench[glitch.slot] is None:
        return -_keep_value(game, seat, card_id)  # fizzles: no better than a discard
    after = dict(bench)
    after[glitch.slot] = None
    loss = _total(bench) - _total(after)
    if target == DUMMY:
        return loss * 0.1  # the dummy's score does not decide a solo win
    opponents = {other: _total(game.benches[other]) for other in game.targets(seat)}
    weight = LEADER_WEIGHT if opponents[target] == max(opponents.values()) else OTHER_WEIGHT
    if glitch.returns_to_hand:
        weight *= RETURN_WEIGHT
    return loss * weight


def _keep_value(game: Game, seat: str, card_id: str) -> float:
    """How much the card is worth holding on to (higher = discard it last)."""
    card = CARDS[card_id]
    bench = game.benches[seat]
    if card.is_glitch:
        if game.bot_called_by is not None:
            return 0.0
        filled = any(
            game.benches[other][card.slot] is not None
            for other in game.targets(seat)
            if other != DUMMY
        )
        return 4.0 if filled else 1.0
    if bench[card.slot] is None:
        return 10.0
    if card.kind == "mission":
        return 1.0 + _mission_fit(game, seat, card_id)
    mission = bench["mission"]
    wanted = mission is not None and card.kind in CARDS[mission].prefers
    return 3.0 if wanted else 2.0  # a spare for when a Glitch strikes


def _mission_fit(game: Game, seat: str, mission_id: str) -> int:
    """How many of the Mission's preferred categories are on the bench or in the hand."""
    have = {CARDS[c].kind for c in game.hands[seat]}
    have |= {slot for slot, c in game.benches[seat].items() if c is not None}
    return sum(1 for category in CARDS[mission_id].prefers if category in have)


def _action_value(game: Game, seat: str, action: dict) -> float:
    kind = action["type"]
    card_id = action["card"]
    if kind == "discard":
        return -_keep_value(game, seat, card_id)
    if kind == "glitch":
        return _glitch_value(game, seat, card_id, action["target"])
    gain = _install_gain(game, seat, card_id)
    if gain > 0:
        # Among equal gains, prefer the Mission that fits what is coming.
        bonus = _mission_fit(game, seat, card_id) * 0.1 if CARDS[card_id].kind == "mission" else 0
        return gain + bonus
    # A swap that scores nothing: worth it only for a Mission that fits better later.
    if CARDS[card_id].kind == "mission":
        current = game.benches[seat]["mission"]
        better = _mission_fit(game, seat, card_id) > _mission_fit(game, seat, current or card_id)
        return 0.5 if better else -5.0
    return -5.0


def _choose_draw(game: Game, seat: str, actions: list[dict]) -> dict:
    take = {"type": "draw", "source": "discard"}
    if take in actions:
        top = game.discard[-1]
        card = CARDS[top]
        if card.is_glitch:
            useful = game.bot_called_by is None and any(
                _glitch_value(game, seat, top, target) >= 4 for target in game.targets(seat)
            )
        else:
            useful = _install_gain(game, seat, top) > 0
        if useful or {"type": "draw", "source": "deck"} not in actions:
            return take if useful or card.installable else {"type": "draw", "source": "none"}
    deck = {"type": "draw", "source": "deck"}
    return deck if deck in actions else actions[-1]


def _should_shout(game: Game, seat: str) -> bool:
    if game.solo:
        return True  # a Full Bot always scores 16: the solo win (10+) is safe
    mine = _total(game.benches[seat])
    best_other = max(_total(game.benches[other]) for other in game.targets(seat))
    return mine >= best_other
