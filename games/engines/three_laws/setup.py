"""`new_game`: check every option, resolve what the seed decides, build the first round."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.engines import IllegalAction
from games.engines.i18n import N_, Reason

from . import components as c
from .components import FACILITATOR
from .game import Game


def new_game(
    seats: Sequence[str],
    seed: Any = None,
    skip_first_round: bool = False,
    start_seat: str | None = None,
    factions: Sequence[str] | None = None,
    deals: Sequence[dict[str, Sequence[Any]]] | None = None,
    law_order: Sequence[str] | None = None,
    vp_deck: Sequence[int] | None = None,
) -> Game:
    """Start a game in round 1's (or, skipping it, round 2's) setup phase.

    Anything not given is drawn from `seed`, each option from its own stream (see `rng_for`).
    A `seed` of None picks one at random and records it, so the game still replays.
    Raises ValueError (IllegalAction) for any malformed option.
    """
    seat_list = _check_seats(seats)
    if not isinstance(skip_first_round, bool):
        raise IllegalAction(Reason(N_("skip_first_round must be True or False.")))
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    elif not isinstance(seed, int | str) or isinstance(seed, bool):
        raise IllegalAction(Reason(N_("The seed must be a whole number or a string.")))
    n = len(seat_list)
    rounds = list(c.SKIP_FIRST_ROUNDS if skip_first_round else c.ALL_ROUNDS)

    if start_seat is None:
        start_seat = c.rng_for(seed, "start").choice(seat_list)
    elif start_seat not in seat_list:
        raise IllegalAction(
            Reason(N_("The start player %(seat)r is not one of the seats."), seat=start_seat)
        )

    in_play = _resolve_factions(n, seed, factions, deals)
    top_rank = c.max_rank(n)
    if deals is None:
        deal_list = _random_deals(seed, seat_list, in_play, top_rank, len(rounds))
    else:
        deal_list = _check_deals(deals, seat_list, in_play, top_rank, len(rounds))

    if law_order is None:
        laws = c.law_ids()
        c.rng_for(seed, "laws").shuffle(laws)
    else:
        laws = _check_law_order(law_order)

    if vp_deck is None:
        vps = c.vp_deck()
        c.rng_for(seed, "vp").shuffle(vps)
    else:
        vps = _check_vp_deck(vp_deck)

    return Game.start(
        seats=seat_list,
        seed=seed,
        start_seat=start_seat,
        factions=in_play,
        rounds=rounds,
        deals=deal_list,
        law_order=laws,
        vp_deck=vps,
    )


def _check_seats(seats: Sequence[str]) -> list[str]:
    if isinstance(seats, str | bytes) or not isinstance(seats, Sequence):
        raise IllegalAction(Reason(N_("Seats must be a list of names.")))
    seat_list = list(seats)
    if not c.MIN_SEATS <= len(seat_list) <= c.MAX_SEATS:
        raise IllegalAction(
            Reason(
                N_("3 Laws needs %(min)s to %(max)s seats, not %(count)s."),
                min=c.MIN_SEATS,
                max=c.MAX_SEATS,
                count=len(seat_list),
            )
        )
    for seat in seat_list:
        if not isinstance(seat, str) or not seat:
            raise IllegalAction(Reason(N_("Every seat needs a name (a non-empty string).")))
        if seat == FACILITATOR:
            raise IllegalAction(
                Reason(
                    N_("%(seat)r is kept for the facilitator; pick another name."),
                    seat=FACILITATOR,
                )
            )
    if len(set(seat_list)) != len(seat_list):
        raise IllegalAction(Reason(N_("Two seats have the same name.")))
    return seat_list


def _resolve_factions(
    n: int,
    seed: Any,
    factions: Sequence[str] | None,
    deals: Sequence[dict[str, Sequence[Any]]] | None,
) -> list[str]:
    """The factions in play, in FACTIONS order.

    At 4 seats with fixed `deals` but no `factions`, the factions the deals use are taken (topped
    up from the seed if the deals only use one), so a test need not repeat itself.
    """
    wanted = c.faction_count(n)
    if factions is not None:
        if isinstance(factions, str) or not isinstance(factions, Sequence):
            raise IllegalAction(Reason(N_("factions must be a list of faction names.")))
        chosen = list(factions)
        if any(f not in c.FACTIONS for f in chosen):
            raise IllegalAction(
                Reason(N_("Factions must come from %(factions)s."), factions=", ".join(c.FACTIONS))
            )
        if len(set(chosen)) != len(chosen) or len(chosen) != wanted:
            raise IllegalAction(
                Reason(
                    N_("A %(seats)s-seat game plays with %(wanted)s different factions."),
                    seats=n,
                    wanted=wanted,
                )
            )
        return [f for f in c.FACTIONS if f in chosen]
    if wanted == len(c.FACTIONS):
        return list(c.FACTIONS)
    used: set[str] = set()
    if deals is not None and isinstance(deals, Sequence):
        for deal in deals:
            if isinstance(deal, dict):
                for card in deal.values():
                    if isinstance(card, list | tuple) and card and card[0] in c.FACTIONS:
                        used.add(card[0])
    if len(used) > wanted:
        raise IllegalAction(
            Reason(
                N_("A %(seats)s-seat game plays with only %(wanted)s factions."),
                seats=n,
                wanted=wanted,
            )
        )
    rest = [f for f in c.FACTIONS if f not in used]
    c.rng_for(seed, "factions").shuffle(rest)
    chosen = sorted(used) + rest[: wanted - len(used)]
    return [f for f in c.FACTIONS if f in chosen]


def _random_deals(
    seed: Any, seats: list[str], factions: list[str], top_rank: int, rounds: int
) -> list[dict[str, list[Any]]]:
    rng = c.rng_for(seed, "deals")
    deals = []
    for _ in range(rounds):
        deck = c.faction_deck(factions, top_rank)
        rng.shuffle(deck)
        deals.append({seat: list(deck[i]) for i, seat in enumerate(seats)})
    return deals


def _check_deals(
    deals: Sequence[dict[str, Sequence[Any]]],
    seats: list[str],
    factions: list[str],
    top_rank: int,
    rounds: int,
) -> list[dict[str, list[Any]]]:
    if isinstance(deals, str | dict) or not isinstance(deals, Sequence):
        raise IllegalAction(
            Reason(N_("deals must be a list with one {seat: [faction, rank]} per round."))
        )
    if len(deals) != rounds:
        raise IllegalAction(
            Reason(
                N_("This game plays %(rounds)s rounds, so deals needs %(rounds)s entries."),
                rounds=rounds,
            )
        )
    checked = []
    for number, deal in enumerate(deals, start=1):
        if not isinstance(deal, dict) or set(deal) != set(seats):
            raise IllegalAction(
                Reason(
                    N_("Deal %(number)s must give exactly one card to every seat."), number=number
                )
            )
        seen: set[tuple[str, int]] = set()
        round_deal: dict[str, list[Any]] = {}
        for seat in seats:
            card = deal[seat]
            if not isinstance(card, list | tuple) or len(card) != 2:
                raise IllegalAction(
                    Reason(
                        N_("Deal %(number)s: %(seat)s's card must be [faction, rank]."),
                        number=number,
                        seat=seat,
                    )
                )
            faction, rank = card
            if faction not in factions:
                raise IllegalAction(
                    Reason(
                        N_("Deal %(number)s: %(faction)r is not a faction in play."),
                        number=number,
                        faction=faction,
                    )
                )
            if not isinstance(rank, int) or isinstance(rank, bool) or not 1 <= rank <= top_rank:
                raise IllegalAction(
                    Reason(
                        N_("Deal %(number)s: ranks run from 1 to %(top)s."),
                        number=number,
                        top=top_rank,
                    )
                )
            if (faction, rank) in seen:
                raise IllegalAction(
                    Reason(
                        N_("Deal %(number)s gives the card %(faction)s %(rank)s twice."),
                        number=number,
                        faction=faction,
                        rank=rank,
                    )
                )
            seen.add((faction, rank))
            round_deal[seat] = [faction, rank]
        checked.append(round_deal)
    return checked


def _check_law_order(law_order: Sequence[str]) -> list[str]:
    if isinstance(law_order, str) or not isinstance(law_order, Sequence):
        raise IllegalAction(Reason(N_("law_order must be a list of law ids.")))
    laws = list(law_order)
    if any(not isinstance(law, str) or law not in c.LAWS for law in laws):
        raise IllegalAction(Reason(N_("law_order holds an id that is not a law.")))
    if len(set(laws)) != len(laws):
        raise IllegalAction(Reason(N_("law_order names the same law twice.")))
    if len(laws) < c.LAWS_NEEDED:
        raise IllegalAction(
            Reason(N_("law_order needs at least %(count)s laws for round 4."), count=c.LAWS_NEEDED)
        )
    return laws


def _check_vp_deck(vp_deck: Sequence[int]) -> list[int]:
    if isinstance(vp_deck, str) or not isinstance(vp_deck, Sequence):
        raise IllegalAction(Reason(N_("vp_deck must be a list of card values.")))
    values = list(vp_deck)
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool) or value not in c.VP_VALUES:
            raise IllegalAction(Reason(N_("Victory Point cards are worth 1, 2 or 3.")))
    return values
