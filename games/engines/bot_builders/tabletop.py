"""Tabletop Bot-Builders: the teams play with printed cards and each records its final bench
on its device; the site scores the benches exactly like a live game's.

A table played this way still has an engine with the common interface (docs/engines.md), so
the services, the screens and the reports treat it like any other: its one action is
`{"type": "record_bench", "bench": {slot: card id or None}}` (a later record of a seat
replaces its earlier one), `legal_actions` is always empty (the bench is free input, like the
words of a 3 Laws query), nobody has a turn, and the game ends only when the teacher ends it
(`results()` scores the benches as recorded).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.engines import IllegalAction
from games.engines.i18n import N_, Reason

from .cards import CARDS, CATEGORY_NAMES, SLOTS
from .scoring import score_bench, standings
from .setup import new_game as deal_live

RECORD = "record_bench"


def clean_bench(raw: Mapping[str, str | None]) -> dict[str, str | None]:
    """{slot: card id or None} for the five slots; IllegalAction naming what is wrong."""
    unknown = set(raw) - set(SLOTS)
    bench: dict[str, str | None] = {}
    for slot in SLOTS:
        card_id = raw.get(slot) or None
        if card_id is not None:
            card = CARDS.get(card_id)
            if card is None or card.is_glitch or card.slot != slot:
                raise IllegalAction(
                    Reason(
                        N_("That card does not go in the %(slot)s slot."),
                        ("slot",),
                        slot=CATEGORY_NAMES[slot],
                    )
                )
        bench[slot] = card_id
    if unknown:
        raise IllegalAction(
            Reason(N_("A bench has only Sense, Think, Act, Power and Mission slots."))
        )
    return bench


class TabletopGame:
    """The benches recorded at one tabletop table."""

    current_seat = None
    is_over = False
    phase = "record"

    def __init__(
        self,
        seats: Sequence[str],
        benches: Mapping[str, Mapping[str, str | None]] | None = None,
        birth_months: Mapping[str, str | None] | None = None,
    ) -> None:
        self.seats = list(seats)
        benches = benches or {}
        self.benches = {seat: dict(benches.get(seat) or dict.fromkeys(SLOTS)) for seat in seats}
        self.birth_months = {seat: month for seat, month in (birth_months or {}).items() if month}

    def legal_actions(self, seat: str | None) -> list[dict]:
        return []

    def apply(self, seat: str, action: Mapping) -> list[dict]:
        if action.get("type") != RECORD:
            raise IllegalAction(
                Reason(N_("At a tabletop table the only move is recording a bench."))
            )
        if seat not in self.seats:
            raise IllegalAction(Reason(N_("Your team is not at this table.")))
        bench = clean_bench(action.get("bench") or {})
        taken = {
            card_id
            for other, other_bench in self.benches.items()
            if other != seat
            for card_id in other_bench.values()
            if card_id
        }
        clashes = [card_id for card_id in bench.values() if card_id in taken]
        if clashes:
            names = ", ".join(CARDS[card_id].name for card_id in clashes)
            # One clash (the usual case) names its card in the reader's language too.
            raise IllegalAction(
                Reason(
                    N_(
                        "Already on another team's bench: %(names)s. Each card exists only "
                        "once: check your cards and pick again."
                    ),
                    ("names",) if len(clashes) == 1 else (),
                    names=names,
                )
            )
        self.benches[seat] = bench
        return [{"type": "bench_recorded", "seat": seat}]

    def recorded_seats(self) -> list[str]:
        return [seat for seat in self.seats if any(self.benches[seat].values())]

    def view(self, seat: str | None) -> dict:
        """Benches are public: every seat and the projector see the same."""
        return {"seats": list(self.seats), "benches": {s: dict(b) for s, b in self.benches.items()}}

    def results(self) -> list[dict]:
        """Standings from the recorded benches (a bench not recorded scores as empty), with the
        live game's scoring and tie-breaks, in the shape of `Game.results()`."""
        scores = {seat: score_bench(self.benches[seat]) for seat in self.seats}
        return standings(self.seats, scores, self.birth_months)

    def to_dict(self) -> dict:
        return {
            "seats": list(self.seats),
            "benches": {seat: dict(bench) for seat, bench in self.benches.items()},
            "birth_months": dict(self.birth_months),
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> TabletopGame:
        benches = data.get("benches") or {}
        # A state saved before the seats were kept (see games migration 0003) lists every
        # seat's bench, in seat order.
        seats = data.get("seats") or list(benches)
        return cls(seats, benches, data.get("birth_months"))


def new_game(
    seats: Sequence[str],
    seed: int | str = 0,
    birth_months: Mapping[str, str | None] | None = None,
    **options: object,
) -> TabletopGame:
    """Every bench empty. The seats are checked as for a live table (same limits, same
    messages); `seed` and the live game's other options are accepted and not needed."""
    deal_live(seats, seed=seed, birth_months=birth_months, **options)
    return TabletopGame(seats, birth_months=birth_months)


Game = TabletopGame
