"""Error calls, counters and the facilitator's voids, and the token moves they make.

Every call (an Error or a counter) gets a sequential id "c1", "c2", ... and records the token moves
it made as [from, to] pairs, `None` meaning the supply. Undoing a call reverses those moves
newest first, each only if the token is still there to move back: tokens that have moved on
cannot be undone exactly, and every move keeps held + supply == seats + 2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.engines import IllegalAction
from games.engines.i18n import N_, Reason

from .components import FACILITATOR

if TYPE_CHECKING:
    from .game import Game

NO_LAWS = N_("There are no laws in force yet, so nobody can break one.")
NOT_NOW = N_("Laws are only enforced from Wake Up until Reveal.")
# A call that is no longer active, by its status: one whole sentence each.
ALREADY = {
    "countered": N_("Call %(call)s is already countered."),
    "voided": N_("Call %(call)s is already voided."),
}


def copy_call(call: dict[str, Any]) -> dict[str, Any]:
    copy = dict(call)
    copy["moves"] = [list(move) for move in call["moves"]]
    return copy


# -- which calls are possible ---------------------------------------------------------------


def seat_actions(game: Game, seat: str) -> list[dict[str, Any]]:
    """Every error and counter `seat` may call now."""
    if not game.enforcing:
        return []
    laws = game.laws_in_force
    actions: list[dict[str, Any]] = [
        {"type": "error", "offender": other, "law": law}
        for other in game.order
        if other != seat
        for law in laws
    ]
    actions += [
        {"type": "counter", "call": call["call"]}
        for call in _round_calls(game)
        if _counterable(call) and call["caller"] != seat
    ]
    return actions


def void_actions(game: Game) -> list[dict[str, Any]]:
    """Every call or counter the facilitator may void now."""
    if game.phase not in ("wake_up", "query", "transfer"):
        return []
    return [
        {"type": "void", "call": call["call"]}
        for call in _round_calls(game)
        if call["status"] == "active"
    ]


def _round_calls(game: Game) -> list[dict[str, Any]]:
    """This round's calls, oldest first. Earlier rounds' calls are settled by their Reveal."""
    found = []
    for call in reversed(game.calls):
        if call["round"] != game.round:
            break
        found.append(call)
    found.reverse()
    return found


def _counterable(call: dict[str, Any]) -> bool:
    return call["kind"] == "error" and call["status"] == "active" and call["countered_by"] is None


# -- token moves ----------------------------------------------------------------------------


def _holding(game: Game, holder: str | None) -> int:
    return game.supply if holder is None else game.tokens[holder]


def _move(game: Game, source: str | None, dest: str | None) -> list[str | None] | None:
    """Move one token if `source` has one; return the move made, or None."""
    if _holding(game, source) == 0:
        return None
    if source is None:
        game.supply -= 1
    else:
        game.tokens[source] -= 1
    if dest is None:
        game.supply += 1
    else:
        game.tokens[dest] += 1
    return [source, dest]


def _undo(game: Game, moves: list[list[str | None]]) -> list[list[str | None]]:
    """Reverse `moves`, newest first, as far as the tokens are still there."""
    done = []
    for source, dest in reversed(moves):
        back = _move(game, dest, source)
        if back is not None:
            done.append(back)
    return done


def _steal_source(game: Game, caller: str) -> str | None:
    """The other seat with the most tokens; ties go to the first clockwise from the start player."""
    best, most = None, 0
    for seat in game.order:
        if seat != caller and game.tokens[seat] > most:
            best, most = seat, game.tokens[seat]
    return best


# -- the three actions ----------------------------------------------------------------------


def _check_window(game: Game) -> None:
    if game.phase in ("wake_up", "query", "transfer") and not game.laws_in_force:
        raise IllegalAction(Reason(NO_LAWS))
    if not game.enforcing:
        raise IllegalAction(Reason(NOT_NOW))


def _new_call(game: Game, **fields: Any) -> dict[str, Any]:
    call = {"call": f"c{game.next_call}", "round": game.round, "status": "active", **fields}
    game.next_call += 1
    game.calls.append(call)
    return call


def call_error(game: Game, seat: str, offender: Any, law: Any) -> list[dict[str, Any]]:
    if seat == FACILITATOR:
        raise IllegalAction(Reason(N_("The facilitator is the referee; only players call Error.")))
    _check_window(game)
    if not isinstance(offender, str) or offender not in game.tokens:
        raise IllegalAction(Reason(N_("%(seat)r is not a seat at this table."), seat=offender))
    if offender == seat:
        raise IllegalAction(Reason(N_("You cannot call Error on yourself.")))
    if law not in game.laws_in_force:
        raise IllegalAction(
            Reason(N_("%(law)r is not one of the laws in force right now."), law=law)
        )
    source = None if game.supply > 0 else _steal_source(game, seat)
    move = None
    if source is not None or game.supply > 0:
        move = _move(game, source, seat)
    moves = [move] if move else []
    call = _new_call(
        game,
        kind="error",
        caller=seat,
        offender=offender,
        law=law,
        counters=None,
        countered_by=None,
        moves=moves,
    )
    return [_event("error", call)]


def call_counter(game: Game, seat: str, call_id: Any) -> list[dict[str, Any]]:
    if seat == FACILITATOR:
        raise IllegalAction(Reason(N_("The facilitator is the referee: use void, not a counter.")))
    _check_window(game)
    target = _find(game, call_id)
    if target["kind"] != "error":
        raise IllegalAction(Reason(N_("A counter cannot be countered.")))
    if target["caller"] == seat:
        raise IllegalAction(Reason(N_("You cannot counter your own call.")))
    if target["countered_by"] is not None:
        raise IllegalAction(
            Reason(N_("That call has already been countered; each call gets one counter."))
        )
    if target["status"] != "active":
        raise IllegalAction(
            Reason(N_("That call was voided by the facilitator: nothing to counter."))
        )
    caller = target["caller"]
    # The wrong call gives back what it gained, then the accuser takes one from the caller
    # (or from the supply if the caller has none left).
    moves = _undo(game, target["moves"])
    take = _move(game, caller, seat) if game.tokens[caller] > 0 else _move(game, None, seat)
    if take is not None:
        moves.append(take)
    counter = _new_call(
        game,
        kind="counter",
        caller=seat,
        offender=caller,
        law=None,
        counters=target["call"],
        countered_by=None,
        moves=moves,
    )
    target["status"] = "countered"
    target["countered_by"] = counter["call"]
    return [_event("counter", counter)]


def void_call(game: Game, seat: str, call_id: Any) -> list[dict[str, Any]]:
    if seat != FACILITATOR:
        raise IllegalAction(Reason(N_("Only the facilitator can void a call.")))
    if game.phase not in ("wake_up", "query", "transfer"):
        raise IllegalAction(Reason(N_("Calls can only be voided before Reveal.")))
    target = _find(game, call_id)
    if target["status"] != "active":
        raise IllegalAction(Reason(ALREADY[target["status"]], call=target["call"]))
    restored = _undo(game, target["moves"])
    target["status"] = "voided"
    event = {"type": "void", "round": game.round, "call": target["call"], "restored": None}
    event["moves"] = restored
    if target["kind"] == "counter":
        # The countered call stands again; its countered_by stays set, so no second counter.
        original = _find(game, target["counters"])
        original["status"] = "active"
        event["restored"] = original["call"]
    return [event]


def _find(game: Game, call_id: Any) -> dict[str, Any]:
    if isinstance(call_id, str) and call_id[:1] == "c" and call_id[1:].isdigit():
        index = int(call_id[1:]) - 1
        if 0 <= index < len(game.calls) and game.calls[index]["call"] == call_id:
            call = game.calls[index]
            if call["round"] != game.round:
                raise IllegalAction(
                    Reason(
                        N_("Call %(call)s was in an earlier round; it is settled."), call=call_id
                    )
                )
            return call
    raise IllegalAction(Reason(N_("There is no call %(call)r."), call=call_id))


def _event(kind: str, call: dict[str, Any]) -> dict[str, Any]:
    event = copy_call(call)
    del event["status"], event["kind"]
    event["type"] = kind
    return event
