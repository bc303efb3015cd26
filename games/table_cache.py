"""What each version of a table shares among its screens, kept in the cache.

After a move every screen of the table draws its new version within the same second: each of
its devices (one seat each), the projector, the grid and the dashboard. What the table's
version alone decides (who sits there and the moves just made) is read once and shared
through the cache; every change to a table raises its version (games.services.state), so a
key never names stale rows. Kept as long as a drawing (games.kept_html).

games.selectors reads through it; a move fills its new version from the one before
(`carry_forward`), so no screen of the table, the mover's included, waits on the database for
it: the move's own request would otherwise read them again right after its commit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from django.core.cache import cache

from games.kept_html import TTL
from games.models import Move

RECENT_MOVES = 6


@dataclass(frozen=True)
class ShownMove:
    """What a screen reads of a move: the events it narrates (public by the engines' contract),
    never the action. Made by `of` from a move however it was found: read by a selector, or
    just made by a move (`carry_forward`)."""

    pk: int
    seq: int
    seat: str
    events: list[dict]

    @classmethod
    def of(cls, move: Move) -> ShownMove:
        return cls(pk=move.pk, seq=move.seq, seat=move.seat, events=move.events)


# The columns a selector reads of a move for a screen.
MOVE_FIELDS = tuple(field.name for field in fields(ShownMove) if field.name != "pk")


def version_key(game_id: int, version: int, what: str) -> str:
    return f"games:table:{game_id}:{version}:{what}"


def through_cache(keys: list[str], read: Callable[[list[str]], dict[str, Any]]) -> dict[str, Any]:
    """The per-version values under `keys`: one cache read, and one `read(missing_keys)` for
    the values no screen has read yet, kept for the next screens."""
    found = cache.get_many(keys)
    missing = [key for key in keys if key not in found]
    if missing:
        fresh = read(missing)
        cache.set_many(fresh, TTL)
        found.update(fresh)
    return found


def carry_forward(game_id: int, version: int, new_moves: Sequence[Move]) -> None:
    """Fill `version`'s values from the version before, which `new_moves` (in the order they
    were made) turned into it: the same teams, and the recent moves with the new ones on top.

    Only for a change that added moves and nothing else (a move and the robots' answers);
    the values of a version no screen read are left for the first screen to read. Call it
    once the change is committed, before the screens are told: a key must never name a
    version that was rolled back."""
    before = {what: version_key(game_id, version - 1, what) for what in ("teams", "moves")}
    found = cache.get_many(list(before.values()))
    carried = {}
    if before["teams"] in found:
        carried[version_key(game_id, version, "teams")] = found[before["teams"]]
    if before["moves"] in found:
        newest = [ShownMove.of(move) for move in reversed(new_moves)]
        moves = (newest + found[before["moves"]])[:RECENT_MOVES]
        carried[version_key(game_id, version, "moves")] = moves
    if carried:
        cache.set_many(carried, TTL)
