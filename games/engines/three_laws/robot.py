"""The robot player: a simple, honest strategy built only on what its seat can see.

A robot cannot hear the table, so it never knows a law was broken: it calls Error only when the
rules leave it nothing else to do (see `suggest`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.engines import IllegalAction
from games.engines.i18n import N_, Reason

from .components import A_MEMBER, EXAMPLE_QUESTIONS, FACILITATOR, max_rank

if TYPE_CHECKING:
    from .game import Game

TURN_TYPES = frozenset({"query", "give", "keep", "accept", "reject"})


def suggest(game: Game, seat: str) -> dict[str, Any]:
    """One of `game.legal_actions(seat)` (a query comes with its question filled in).

    Turn actions come first. Only a seat whose sole legal actions are Error calls (it is not its
    turn) gets one back: ask robots on `game.current_seat` to avoid that.
    """
    if seat == FACILITATOR:
        raise ValueError(Reason(N_("The robot plays seats, not the facilitator.")))
    legal = game.legal_actions(seat)
    if not legal:
        raise IllegalAction(Reason(N_("%(seat)s has nothing to do right now."), seat=seat))
    turn = [action for action in legal if action["type"] in TURN_TYPES]
    if not turn:
        return legal[0]
    view = game.view(seat)
    belief = _Belief(view, seat)
    kind = turn[0]["type"]
    if kind == "query":
        return _query(view, seat, belief, turn)
    if kind in ("accept", "reject"):
        return {"type": "accept" if _accept(view, belief) else "reject"}
    return _transfer(view, belief, turn)


class _Belief:
    """What the robot can infer about its own card from the cards it sees.

    Its card is one of the faction cards it does not see, each as likely as the others.
    """

    def __init__(self, view: dict[str, Any], seat: str) -> None:
        self.seen = {seat_: (card[0], card[1]) for seat_, card in view["cards"].items()}
        top = max_rank(len(view["seats"]))
        seen_cards = set(self.seen.values())
        self.unseen = [
            (faction, rank)
            for faction in view["factions"]
            for rank in range(1, top + 1)
            if (faction, rank) not in seen_cards
        ]

    def faction(self) -> str:
        counts = dict.fromkeys(sorted({f for f, _ in self.unseen}), 0)
        for faction, _ in self.unseen:
            counts[faction] += 1
        return max(counts, key=lambda f: counts[f])

    def leader_seen(self, faction: str) -> tuple[str | None, int]:
        """The highest-ranked seat this robot sees in `faction`, and its rank (0 if none)."""
        best, rank = None, 0
        for seat, (f, r) in self.seen.items():
            if f == faction and r > rank:
                best, rank = seat, r
        return best, rank

    def chance_to_lead(self, faction: str) -> float:
        """Chance this robot is in `faction` and outranks every member it sees."""
        _, rank = self.leader_seen(faction)
        above = sum(1 for f, r in self.unseen if f == faction and r > rank)
        return above / len(self.unseen) if self.unseen else 0.0

    def think_i_lead(self) -> bool:
        faction = self.faction()
        in_faction = sum(1 for f, _ in self.unseen if f == faction)
        return in_faction > 0 and self.chance_to_lead(faction) * len(self.unseen) * 2 >= in_faction


def _query(
    view: dict[str, Any], seat: str, belief: _Belief, legal: list[dict[str, Any]]
) -> dict[str, Any]:
    targets = [action["target"] for action in legal]
    mine = belief.faction()
    leader, _ = belief.leader_seen(mine)
    # Ask the likely leader of the faction it thinks it is in: that seat's answer is the most
    # useful, and a teammate has a reason to answer honestly.
    target = leader if leader in targets else targets[0]
    pick = (view["round"] + view["order"].index(seat)) % len(EXAMPLE_QUESTIONS)
    other = next((s for s in view["order"] if s not in (seat, target)), target)
    target_faction = belief.seen.get(target, (mine, 0))[0]
    question = EXAMPLE_QUESTIONS[pick].format(seat=other, a_faction=A_MEMBER[target_faction])
    return {"type": "query", "target": target, "question": question}


def _transfer(view: dict[str, Any], belief: _Belief, legal: list[dict[str, Any]]) -> dict[str, Any]:
    givable = {action["to"] for action in legal if action["type"] == "give"}
    if not givable or belief.think_i_lead():
        return {"type": "keep"}
    leader, _ = belief.leader_seen(belief.faction())
    if leader in givable:
        return {"type": "give", "to": leader}
    return {"type": "keep"}


def _accept(view: dict[str, Any], belief: _Belief) -> bool:
    giver = view["pending_offer"]["from"]
    giver_faction = belief.seen[giver][0]
    # The giver thinks this robot leads its faction; take the keys if that could be true, or if
    # the robot expects to lead its own faction anyway (then extra keys do no harm).
    return belief.chance_to_lead(giver_faction) > 0 or belief.think_i_lead()
