"""What each version of a table shares among its screens, kept in the cache.

After a move every screen of the table draws its new version within the same second: each of
its devices (one seat each), the projector, the grid and the dashboard. What the table's
version alone decides (who sits there and the moves just made) is read once and shared
through the cache; every change to a table raises its version (games.services.state), so a
key never names stale rows. Kept as long as a device's drawing (games.views.regions).

games.selectors reads through it; a move fills its new version from the one before
(`carry_forward`), so no screen of the table waits on the database for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.core.cache import cache

from games.models import Move

PER_VERSION_TTL = 60
RECENT_MOVES = 6
# The columns a screen reads of a recent move (games.selectors reads no others).
MOVE_FIELDS = ("seq", "seat", "events")


def version_key(game_id: int, version: int, what: str) -> str:
    return f"games:table:{game_id}:{version}:{what}"


def through_cache(keys: list[str], read: Callable[[list[str]], dict[str, Any]]) -> dict[str, Any]:
    """The per-version values under `keys`: one cache read, and one `read(missing_keys)` for
    the values no screen has read yet, kept for the next screens."""
    found = cache.get_many(keys)
    missing = [key for key in keys if key not in found]
    if missing:
        fresh = read(missing)
        cache.set_many(fresh, PER_VERSION_TTL)
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
        newest = [_as_read(move) for move in reversed(new_moves)]
        moves = (newest + found[before["moves"]])[:RECENT_MOVES]
        carried[version_key(game_id, version, "moves")] = moves
    if carried:
        cache.set_many(carried, PER_VERSION_TTL)


def _as_read(move: Move) -> Move:
    """`move` as the selectors' query gives it (`only(*MOVE_FIELDS)`): a screen's cached moves
    carry no action, and pickle the same whichever way they were found."""
    names = ["id", *MOVE_FIELDS]
    return Move.from_db(move._state.db, names, [getattr(move, name) for name in names])
