"""The Bot-Builders state machine: one table, one round.

A turn is: phase "draw" -> phase "act" -> (phase "discard_down" while the hand holds more than
5) -> (phase "bot" when the seat may shout BOT!) -> the next seat's "draw". The game ends in phase
"over". `legal_actions` is the single source of truth: `apply` accepts exactly what it lists.

Events returned by `apply` (small JSON-safe dicts, safe to show to everyone: a card id only appears
when that card is face up for the whole table):
- {"type": "drew", "seat", "source": "deck"}             the card stays secret
- {"type": "drew", "seat", "source": "discard", "card"}  the discard top is public
- {"type": "drew", "seat", "source": "none"}
- {"type": "act_skipped", "seat"}                        empty hand and nothing to draw
- {"type": "installed", "seat", "card", "slot", "replaced": id or None}  old card to the discard
- {"type": "glitched", "seat", "card", "target", "slot", "effect", "part": id or None}
      effect "discarded" | "returned" (to the target's hand) | "fizzled" (empty slot)
- {"type": "discarded", "seat", "card", "reason": "action" | "hand_limit"}
- {"type": "hand_limit", "seat", "hand_size"}            the seat must discard down to 5
- {"type": "bot", "seat"} / {"type": "passed", "seat"}   the BOT! choice
- {"type": "dummy_flip", "card", "result": "installed" | "discarded"}   solo only
- {"type": "draw_pile_empty", "seat"}                    this seat's turn is the last one
- {"type": "turn", "seat", "turn", "last_turn": bool}    a new turn starts (last_turn: after BOT!)
- {"type": "game_over", "reason": "bot" | "draw_pile_empty", "scores": {seat: total}}

Decision (not in the spec): the seat whose turn starts on an empty draw pile is not offered BOT!,
since the round stops after that turn anyway and shouting scores nothing.
"""

from __future__ import annotations

from typing import Any

from games.engines import IllegalAction

from .cards import CARDS, HAND_LIMIT, SLOTS
from .messages import explain
from .scoring import BenchScore, score_bench, standings

DUMMY = "dummy"
PHASES = ("draw", "act", "discard_down", "bot", "over")
FORMAT_VERSION = 1


def empty_bench() -> dict[str, str | None]:
    return dict.fromkeys(SLOTS)


class Game:
    """One Bot-Builders table. Build it with `new_game`; restore it with `Game.from_dict`.

    Piles are lists with the top card LAST (so a draw is a cheap `pop()`), in memory and in
    `to_dict()`; `new_game`'s `deck` argument is top first like the spec says.
    """

    seats: list[str]
    solo: bool
    seed: int | str
    start_seat: str
    birth_months: dict[str, str]
    hands: dict[str, list[str]]
    benches: dict[str, dict[str, str | None]]
    dummy_bench: dict[str, str | None] | None
    draw_pile: list[str]
    discard: list[str]
    current: int
    phase: str
    bot_called_by: str | None
    final_turn: bool
    end_reason: str | None
    turn: int
    moves: int

    # -- reading the state ---------------------------------------------------------------------

    @property
    def current_seat(self) -> str | None:
        return None if self.phase == "over" else self.seats[self.current]

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def in_last_turn(self) -> bool:
        """True during the last turns every other seat gets after BOT!."""
        return self.bot_called_by is not None and self.phase != "over"

    def last_turns_left(self) -> int:
        """Seats still to play a last turn after BOT!, counting the one playing now."""
        if not self.in_last_turn:
            return 0
        caller = self.seats.index(self.bot_called_by)  # type: ignore[arg-type]
        return (caller - self.current) % len(self.seats)

    def targets(self, seat: str) -> list[str]:
        """Who `seat` may glitch: every opponent, or the dummy in solo."""
        if self.solo:
            return [DUMMY]
        return [other for other in self.seats if other != seat]

    def bench_score(self, seat: str) -> BenchScore:
        bench = self.dummy_bench if seat == DUMMY else self.benches[seat]
        return score_bench(bench.values())  # type: ignore[union-attr]

    def legal_actions(self, seat: Any) -> list[dict]:
        """Every action `seat` may take now; [] when it is not its move (or no such seat)."""
        if self.phase == "over" or not isinstance(seat, str) or seat != self.seats[self.current]:
            return []
        hand = self.hands[seat]
        if self.phase == "draw":
            actions = []
            if self.draw_pile:
                actions.append({"type": "draw", "source": "deck"})
            if self.discard:
                actions.append({"type": "draw", "source": "discard"})
            if not self.draw_pile:
                actions.append({"type": "draw", "source": "none"})
            return actions
        if self.phase == "bot":
            return [{"type": "bot"}, {"type": "pass"}]
        discards = [{"type": "discard", "card": card_id} for card_id in hand]
        if self.phase == "discard_down":
            return discards
        actions = []
        glitches_allowed = self.bot_called_by is None
        for card_id in hand:
            if not CARDS[card_id].is_glitch:
                actions.append({"type": "install", "card": card_id})
            elif glitches_allowed:
                actions.extend(
                    {"type": "glitch", "card": card_id, "target": target}
                    for target in self.targets(seat)
                )
        return actions + discards

    # -- changing the state --------------------------------------------------------------------

    def apply(self, seat: Any, action: Any) -> list[dict]:
        """Apply one legal action and return the events; raise IllegalAction (state unchanged)."""
        if not isinstance(action, dict) or action not in self.legal_actions(seat):
            raise IllegalAction(explain(self, seat, action))
        events: list[dict] = []
        kind = action["type"]
        self.moves += 1
        if kind == "draw":
            self._draw(seat, action["source"], events)
        elif kind == "install":
            self._install(seat, action["card"], events)
            self._after_act(seat, events)
        elif kind == "glitch":
            self._glitch(seat, action["card"], action["target"], events)
            self._after_act(seat, events)
        elif kind == "discard":
            in_limit = self.phase == "discard_down"
            self.hands[seat].remove(action["card"])
            self.discard.append(action["card"])
            reason = "hand_limit" if in_limit else "action"
            events.append(
                {"type": "discarded", "seat": seat, "card": action["card"], "reason": reason}
            )
            if in_limit and len(self.hands[seat]) <= HAND_LIMIT:
                self._after_hand_limit(seat, events)
            elif not in_limit:
                self._after_act(seat, events)
        elif kind == "bot":
            self.bot_called_by = seat
            events.append({"type": "bot", "seat": seat})
            if self.solo:
                self._finish("bot", events)
            else:
                self._end_turn(events)
        else:  # pass
            events.append({"type": "passed", "seat": seat})
            self._end_turn(events)
        return events

    def _draw(self, seat: str, source: str, events: list[dict]) -> None:
        hand = self.hands[seat]
        # Normally already set when the turn started; kept here so the rule holds on its own.
        self.final_turn = self.final_turn or not self.draw_pile
        if source == "deck":
            hand.append(self.draw_pile.pop())
            events.append({"type": "drew", "seat": seat, "source": "deck"})
        elif source == "discard":
            card_id = self.discard.pop()
            hand.append(card_id)
            events.append({"type": "drew", "seat": seat, "source": "discard", "card": card_id})
        else:
            events.append({"type": "drew", "seat": seat, "source": "none"})
        if hand:
            self.phase = "act"
        else:
            events.append({"type": "act_skipped", "seat": seat})
            self._after_hand_limit(seat, events)

    def _install(self, seat: str, card_id: str, events: list[dict]) -> None:
        slot = CARDS[card_id].slot
        bench = self.benches[seat]
        self.hands[seat].remove(card_id)
        replaced = bench[slot]
        if replaced is not None:
            self.discard.append(replaced)
        bench[slot] = card_id
        events.append(
            {"type": "installed", "seat": seat, "card": card_id, "slot": slot, "replaced": replaced}
        )

    def _glitch(self, seat: str, card_id: str, target: str, events: list[dict]) -> None:
        glitch = CARDS[card_id]
        bench = self.dummy_bench if target == DUMMY else self.benches[target]
        assert bench is not None
        self.hands[seat].remove(card_id)
        part = bench[glitch.slot]
        if part is None:
            effect = "fizzled"
        else:
            bench[glitch.slot] = None
            # The dummy has no hand: a "take it back" glitch discards the part instead.
            if glitch.returns_to_hand and target != DUMMY:
                self.hands[target].append(part)
                effect = "returned"
            else:
                self.discard.append(part)
                effect = "discarded"
        # The target does what the card says first, then the Glitch itself is discarded.
        self.discard.append(card_id)
        events.append(
            {
                "type": "glitched",
                "seat": seat,
                "card": card_id,
                "target": target,
                "slot": glitch.slot,
                "effect": effect,
                "part": part,
            }
        )

    def _after_act(self, seat: str, events: list[dict]) -> None:
        size = len(self.hands[seat])
        if size > HAND_LIMIT:
            self.phase = "discard_down"
            events.append({"type": "hand_limit", "seat": seat, "hand_size": size})
        else:
            self._after_hand_limit(seat, events)

    def _after_hand_limit(self, seat: str, events: list[dict]) -> None:
        if self.bot_called_by is None and not self.final_turn and self.bench_score(seat).full_bot:
            self.phase = "bot"
        else:
            self._end_turn(events)

    def _end_turn(self, events: list[dict]) -> None:
        if self.final_turn:
            self._finish("draw_pile_empty", events)
            return
        if self.solo:
            self._dummy_flip(events)
        else:
            following = (self.current + 1) % len(self.seats)
            if self.bot_called_by == self.seats[following]:
                self._finish("bot", events)
                return
            self.current = following
        self._start_turn(events)

    def _start_turn(self, events: list[dict]) -> None:
        self.turn += 1
        self.phase = "draw"
        seat = self.seats[self.current]
        events.append(
            {"type": "turn", "seat": seat, "turn": self.turn, "last_turn": self.in_last_turn}
        )
        if not self.draw_pile:
            self.final_turn = True
            events.append({"type": "draw_pile_empty", "seat": seat})

    def _dummy_flip(self, events: list[dict]) -> None:
        if not self.draw_pile:
            return  # Decision: no flip when the draw pile is empty.
        assert self.dummy_bench is not None
        card_id = self.draw_pile.pop()
        card = CARDS[card_id]
        if card.installable and self.dummy_bench[card.slot] is None:
            self.dummy_bench[card.slot] = card_id
            result = "installed"
        else:
            self.discard.append(card_id)
            result = "discarded"
        events.append({"type": "dummy_flip", "card": card_id, "result": result})

    def _finish(self, reason: str, events: list[dict]) -> None:
        self.phase = "over"
        self.end_reason = reason
        scores = {seat: self.bench_score(seat).total for seat in self.seats}
        events.append({"type": "game_over", "reason": reason, "scores": scores})

    # -- what people see -------------------------------------------------------------------------

    def results(self) -> list[dict]:
        """Best first: seat, place (true ties share one), score, full_bot, four_loop, breakdown."""
        if not self.is_over:
            raise IllegalAction("The game is not over yet: no results.")
        scores = {seat: self.bench_score(seat) for seat in self.seats}
        return standings(self.seats, scores, self.birth_months, solo=self.solo)

    def view(self, seat: str | None) -> dict:
        """What `seat` may see (its own hand, never another's); `None` is the public view.

        Benches always list all five slots, an empty slot as None.
        """
        if seat is not None and (not isinstance(seat, str) or seat not in self.hands):
            raise IllegalAction(f"There is no seat called {seat!r} at this table.")
        over = self.is_over
        data: dict[str, Any] = {
            "seats": list(self.seats),
            "solo": self.solo,
            "turn": self.turn,
            "phase": self.phase,
            "current_seat": self.current_seat,
            "hand_sizes": {s: len(h) for s, h in self.hands.items()},
            "benches": {s: dict(b) for s, b in self.benches.items()},
            "discard_top": self.discard[-1] if self.discard else None,
            "discard_size": len(self.discard),
            "draw_pile": len(self.draw_pile),
            "bot_called_by": self.bot_called_by,
            "last_turn": self.in_last_turn,
            "last_turns_left": self.last_turns_left(),
            "final_turn": self.final_turn and not over,
            "round_over": over,
            "is_over": over,
            "end_reason": self.end_reason,
            "scores": {s: self.bench_score(s).total for s in self.seats} if over else None,
            "results": self.results() if over else None,
        }
        if seat is not None:
            data["hand"] = list(self.hands[seat])
        if self.solo:
            data["dummy_bench"] = dict(self.dummy_bench or {})
        return data

    # -- JSON ------------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {
            "version": FORMAT_VERSION,
            "seats": list(self.seats),
            "solo": self.solo,
            "seed": self.seed,
            "start_seat": self.start_seat,
            "birth_months": dict(self.birth_months),
            "hands": {s: list(h) for s, h in self.hands.items()},
            "benches": {s: dict(b) for s, b in self.benches.items()},
            "dummy_bench": dict(self.dummy_bench) if self.dummy_bench is not None else None,
            "draw_pile": list(self.draw_pile),
            "discard": list(self.discard),
            "current": self.current,
            "phase": self.phase,
            "bot_called_by": self.bot_called_by,
            "final_turn": self.final_turn,
            "end_reason": self.end_reason,
            "turn": self.turn,
            "moves": self.moves,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Game:
        from .setup import restore

        return restore(cls, data)
