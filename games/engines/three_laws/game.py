"""The 3 Laws state machine: phases, turns, queries and key transfers.

Error calls live in `enforcement.py`, round scoring in `scoring.py`, what each seat may see in
`seat_view.py`. All state is plain JSON-safe data so `to_dict` / `from_dict` are copies.
"""

from __future__ import annotations

from typing import Any

from games.engines import IllegalAction
from games.engines.i18n import N_, Reason

from . import components as c
from . import enforcement, scoring, seat_view, state

PHASES: tuple[str, ...] = ("setup", "wake_up", "query", "transfer", "reveal", "over")
PHASE_NAMES: dict[str, str] = {
    "setup": N_("Setup"),
    "wake_up": N_("Wake Up"),
    "query": N_("Query"),
    "transfer": N_("Transfer"),
    "reveal": N_("Reveal"),
    "over": N_("the end of the game"),
}
# Laws are enforced from Wake Up until Reveal (rulebook "Round Gameplay").
ENFORCING_PHASES = frozenset({"wake_up", "query", "transfer"})

# A turn's refusals, one whole sentence each (never built from pieces, so each translates).
_TURN_WORDS: dict[str, dict[str, str]] = {
    "query": {
        "facilitator": N_("The facilitator does not ask a question; only players do."),
        "phase": N_("Players ask a question in the %(phase)s phase; now it is %(now)s."),
        "turn": N_("It is %(seat)s's turn to ask a question."),
    },
    "transfer": {
        "facilitator": N_("The facilitator does not give or keep keys; only players do."),
        "phase": N_("Players give or keep keys in the %(phase)s phase; now it is %(now)s."),
        "turn": N_("It is %(seat)s's turn to give or keep keys."),
    },
}
MUST_ANSWER = N_("%(seat)s must first accept or reject the keys.")

_HANDLERS: dict[str, str] = {
    "advance": "_advance",
    "query": "_query",
    "give": "_give",
    "keep": "_keep",
    "accept": "_accept",
    "reject": "_reject",
    "error": "_error",
    "counter": "_counter",
    "void": "_void",
}


def fields(
    action: dict[str, Any], required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> None:
    """Reject an action dict with missing or unexpected keys, in plain words."""
    for key in required:
        if key not in action:
            raise IllegalAction(
                Reason(N_("A %(action)r action needs a %(key)r."), action=action["type"], key=key)
            )
    extra = set(action) - {"type", *required, *optional}
    if extra:
        raise IllegalAction(
            Reason(
                N_("A %(action)r action has no %(key)r."),
                action=action["type"],
                key=sorted(extra)[0],
            )
        )


class Game:
    """One game of 3 Laws. Build it with `new_game` or `Game.from_dict`."""

    seats: list[str]
    order: list[str]
    keys: dict[str, int]
    tokens: dict[str, int]
    vp: dict[str, list[int]]
    calls: list[dict[str, Any]]

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        *,
        seats: list[str],
        seed: Any,
        start_seat: str,
        factions: list[str],
        rounds: list[int],
        deals: list[dict[str, list[Any]]],
        law_order: list[str],
        vp_deck: list[int],
    ) -> Game:
        game = cls.__new__(cls)
        game.seats = seats
        game.seed = seed
        game.start_seat = start_seat
        game.factions = factions
        game.rounds = rounds
        game.deals = deals
        game.law_order = law_order
        game.vp_deck = vp_deck
        game.round_index = 0
        game.vp = {seat: [] for seat in seats}
        game.queries = []
        game.transfers = []
        game.calls = []
        game.next_call = 1
        game.scored = []
        game.scored_round = None
        game._derive()
        game._begin_round()
        return game

    def _derive(self) -> None:
        """Rebuild the values that follow from the state (never serialised)."""
        i = self.seats.index(self.start_seat)
        self.order = self.seats[i:] + self.seats[:i]
        self.token_total = len(self.seats) + 2

    def _begin_round(self) -> list[dict[str, Any]]:
        # Keys do not carry over: every seat starts each round with exactly one.
        self.keys = dict.fromkeys(self.seats, 1)
        self.tokens = dict.fromkeys(self.seats, 0)
        self.supply = self.token_total
        self.phase = "setup"
        self.turn = 0
        self.pending: dict[str, Any] | None = None
        r = self.round
        new = self.law_order[c.LAWS_IN_FORCE[r - 1] if r > 1 else 0 : c.LAWS_IN_FORCE[r]]
        return [{"type": "round", "round": r, "new_laws": list(new), "laws": self.laws_in_force}]

    # -- what the table looks like ----------------------------------------------------------

    @property
    def round(self) -> int:
        return self.rounds[self.round_index]

    @property
    def cards(self) -> dict[str, list[Any]]:
        return self.deals[self.round_index]

    @property
    def laws_in_force(self) -> list[str]:
        """Ids of the laws revealed by this round (enforced only while `enforcing`)."""
        return self.law_order[: c.LAWS_IN_FORCE[self.round]]

    @property
    def enforcing(self) -> bool:
        return self.phase in ENFORCING_PHASES and c.LAWS_IN_FORCE[self.round] > 0

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def current_seat(self) -> str | None:
        if self.phase == "query":
            return self.order[self.turn]
        if self.phase == "transfer":
            if self.pending is not None:
                return self.pending["to"]
            if self.turn < len(self.order):
                return self.order[self.turn]
        return None

    def can_advance(self) -> bool:
        if self.phase in ("setup", "wake_up", "reveal"):
            return True
        return self.phase == "transfer" and self.current_seat is None

    def check_seat(self, seat: Any) -> None:
        if seat != c.FACILITATOR and (not isinstance(seat, str) or seat not in self.keys):
            raise IllegalAction(Reason(N_("%(seat)r is not a seat at this table."), seat=seat))

    # -- the contract -----------------------------------------------------------------------

    def legal_actions(self, seat: str) -> list[dict[str, Any]]:
        """Every action `seat` may take now; `apply` accepts exactly these."""
        self.check_seat(seat)
        if self.phase == "over":
            return []
        if seat == c.FACILITATOR:
            actions = [{"type": "advance"}] if self.can_advance() else []
            return actions + enforcement.void_actions(self)
        actions: list[dict[str, Any]] = []
        current = self.current_seat
        if seat == current:
            if self.phase == "query":
                actions = [
                    {"type": "query", "target": other, "question": ""}
                    for other in self.order
                    if other != seat
                ]
            elif self.pending is not None:
                actions = [{"type": "accept"}, {"type": "reject"}]
            else:
                if self.keys[seat] > 0:
                    actions = [{"type": "give", "to": o} for o in self.order if o != seat]
                actions.append({"type": "keep"})
        return actions + enforcement.seat_actions(self, seat)

    def apply(self, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Play `action` for `seat` and return what happened.

        Raises IllegalAction (saying why) and leaves the game untouched if the action is not legal:
        every handler checks everything before it changes anything.
        """
        self.check_seat(seat)
        if not isinstance(action, dict):
            raise IllegalAction(Reason(N_('An action must be a dict such as {"type": "keep"}.')))
        kind = action.get("type")
        if not isinstance(kind, str) or kind not in _HANDLERS:
            raise IllegalAction(Reason(N_("There is no action called %(kind)r."), kind=kind))
        if self.phase == "over":
            raise IllegalAction(Reason(N_("The game is over: no more moves.")))
        return getattr(self, _HANDLERS[kind])(seat, action)

    def view(self, seat: str | None = None) -> dict[str, Any]:
        if seat is not None:
            self.check_seat(seat)
        return seat_view.build_view(self, seat)

    def results(self) -> list[dict[str, Any]]:
        if not self.is_over:
            raise IllegalAction(Reason(N_("The game is not over yet.")))
        return scoring.results(self)

    # -- facilitator ------------------------------------------------------------------------

    def _advance(self, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        fields(action, ())
        if seat != c.FACILITATOR:
            raise IllegalAction(Reason(N_("Only the facilitator can move the game on.")))
        if not self.can_advance():
            raise IllegalAction(self._why_not_advance())
        if self.phase == "setup":
            return self._enter("wake_up")
        if self.phase == "wake_up":
            self.turn = 0
            return self._enter("query")
        if self.phase == "transfer":
            events = self._enter("reveal")
            return events + scoring.score_round(self)
        # From Reveal: the next round, or the end.
        if self.round_index + 1 < len(self.rounds):
            self.round_index += 1
            return self._begin_round()
        events = self._enter("over")
        return events + [{"type": "game_over", "results": scoring.results(self)}]

    def _why_not_advance(self) -> Reason:
        current = self.current_seat
        if self.phase == "query":
            return Reason(
                N_("Everyone must ask a question first: it is %(seat)s's turn to ask."),
                seat=current,
            )
        if self.pending is not None:
            return Reason(MUST_ANSWER, seat=current)
        return Reason(
            N_("Everyone must take a transfer turn first: it is %(seat)s's turn."), seat=current
        )

    def _enter(self, phase: str) -> list[dict[str, Any]]:
        self.phase = phase
        return [{"type": "phase", "round": self.round, "phase": phase}]

    # -- query ------------------------------------------------------------------------------

    def _turn_check(self, seat: str, phase: str) -> None:
        words = _TURN_WORDS[phase]
        if seat == c.FACILITATOR:
            raise IllegalAction(Reason(words["facilitator"]))
        if self.phase != phase:
            raise IllegalAction(
                Reason(
                    words["phase"],
                    ("phase", "now"),
                    phase=PHASE_NAMES[phase],
                    now=PHASE_NAMES[self.phase],
                )
            )
        if self.pending is not None and seat != self.pending["to"]:
            raise IllegalAction(Reason(MUST_ANSWER, seat=self.pending["to"]))
        current = self.current_seat
        if current is None:
            raise IllegalAction(
                Reason(N_("Everyone has had a turn; the facilitator moves the game on."))
            )
        if seat != current:
            raise IllegalAction(Reason(words["turn"], seat=current))

    def _other_seat(self, seat: str, target: Any, yourself: str) -> str:
        """`target`, a seat other than `seat`; `yourself` is the refusal when it is the same."""
        if not isinstance(target, str) or target not in self.keys:
            raise IllegalAction(Reason(N_("%(seat)r is not a seat at this table."), seat=target))
        if target == seat:
            raise IllegalAction(Reason(yourself))
        return target

    def _query(self, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        fields(action, ("target",), ("question",))
        self._turn_check(seat, "query")
        target = self._other_seat(
            seat, action["target"], N_("You cannot ask yourself; pick another seat.")
        )
        question = action.get("question", "")
        if question is None:
            question = ""
        if not isinstance(question, str):
            raise IllegalAction(Reason(N_("The question must be words (a string).")))
        question = question.strip()
        if len(question) > c.QUESTION_MAX_CHARS:
            raise IllegalAction(
                Reason(
                    N_("That question is too long: keep it to %(limit)s letters."),
                    limit=c.QUESTION_MAX_CHARS,
                )
            )
        entry = {"round": self.round, "asker": seat, "target": target, "question": question}
        self.queries.append(entry)
        events = [{"type": "query", **entry}]
        self.turn += 1
        if self.turn == len(self.order):
            # The last question moves the game on by itself (docs/engines.md).
            self.turn = 0
            events += self._enter("transfer")
        return events

    # -- transfer ---------------------------------------------------------------------------

    def _give(self, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        fields(action, ("to",))
        self._transfer_turn_check(seat)
        to = self._other_seat(
            seat, action["to"], N_("You cannot give keys to yourself; pick another seat.")
        )
        if self.keys[seat] == 0:
            # Offering nothing would ask the receiver a question with no meaning.
            raise IllegalAction(
                Reason(N_("%(seat)s has no keys to give, so can only keep."), seat=seat)
            )
        self.pending = {"from": seat, "to": to, "keys": self.keys[seat]}
        return [{"type": "offer", "round": self.round, **self.pending}]

    def _keep(self, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        fields(action, ())
        self._transfer_turn_check(seat)
        entry = {"round": self.round, "from": seat, "to": None, "keys": self.keys[seat]}
        entry["result"] = "kept"
        self.transfers.append(entry)
        self.turn += 1
        return [{"type": "keep", "round": self.round, "seat": seat, "keys": self.keys[seat]}]

    def _transfer_turn_check(self, seat: str) -> None:
        self._turn_check(seat, "transfer")
        if self.pending is not None:
            raise IllegalAction(
                Reason(N_("%(seat)s must accept or reject the keys on offer."), seat=seat)
            )

    def _accept(self, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        return self._answer(seat, action, accepted=True)

    def _reject(self, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        return self._answer(seat, action, accepted=False)

    def _answer(self, seat: str, action: dict[str, Any], accepted: bool) -> list[dict[str, Any]]:
        fields(action, ())
        offer = self.pending
        if offer is None:
            raise IllegalAction(
                Reason(
                    N_("There are no keys on offer to %(seat)s. Nobody can answer offers."),
                    seat=seat,
                )
            )
        if seat != offer["to"]:
            raise IllegalAction(
                Reason(
                    N_("There are no keys on offer to %(seat)s. %(who)s can answer offers."),
                    seat=seat,
                    who=offer["to"],
                )
            )
        if accepted:
            self.keys[offer["from"]] -= offer["keys"]
            self.keys[offer["to"]] += offer["keys"]
        entry = {"round": self.round, **offer, "result": "accepted" if accepted else "rejected"}
        self.transfers.append(entry)
        self.pending = None
        self.turn += 1
        return [{"type": "accept" if accepted else "reject", **entry}]

    # -- enforcement ------------------------------------------------------------------------

    def _error(self, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        fields(action, ("offender", "law"))
        return enforcement.call_error(self, seat, action["offender"], action["law"])

    def _counter(self, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        fields(action, ("call",))
        return enforcement.call_counter(self, seat, action["call"])

    def _void(self, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        fields(action, ("call",))
        return enforcement.void_call(self, seat, action["call"])

    # -- saving -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe copy of the whole state, secrets included: keep it on the server."""
        return state.snapshot(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        game = cls.__new__(cls)
        for key, value in state.load(data).items():
            if key != "version":
                setattr(game, key, value)
        if game.phase not in PHASES or game.start_seat not in game.seats:
            raise ValueError(Reason(N_("The saved 3 Laws game does not hold together.")))
        game._derive()
        return game

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<three_laws.Game round {self.round} {self.phase} seats={self.seats}>"
