"""Keeping every screen of a table fresh, cheaply.

Each page that shows a live table polls `games:poll` every 1.5 seconds (so a change shows within
2) with two things it got when it was drawn: a signed *watch token* (which tables, which page,
for whom) and the *fingerprint* of what it shows (the tables' versions). The poll verifies the
token (pure HMAC, no database), builds the current fingerprint from versions kept in the cache,
and answers 204 (htmx swaps nothing) when they match. Only when something changed does the poll
do the full permission check against the database and send the re-drawn region.

So a revoked device (the teacher unbinds it) keeps getting 204s, which carry no content, until
the table next changes; the first changed poll checks the database and refuses it.

Versions reach the cache after each committed change (`bump_version`, from
`transaction.on_commit`). A missing key (evicted, expired, a fresh Redis) costs one database read
and is filled again. Two commits finishing their on_commit hooks out of order can leave an older
version cached; the next page drawn from the database stores its version again, and keys
expire.

When Redis fails (down, or refusing writes at `maxmemory`), the cache backend degrades instead of
raising (config/cache.py), and this module keeps every answer correct, only slower:
- a version that could not be written is deleted instead (Redis allows DEL when full), so the
  next poll misses and reads the database rather than trusting an older version; if even the
  delete fails the key is remembered and deleted once Redis answers again (`_unsent`);
- a poll whose cache read fails reads the versions from the database, and the session stamp
  falls back to one derived from the database (`_stamp_from_database`).
In the normal case the unchanged poll still costs one cache round trip and no query.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core import signing
from django.core.cache import cache
from django.db.models import Count, Max
from django.utils.crypto import get_random_string

from classroom import push
from config.cache import answered
from games.models import TableGame

_SALT = "games.live.watch"
# A school day: a screen left open longer simply reloads itself (see the poll view).
TOKEN_MAX_AGE = 60 * 60 * 16
VERSION_TTL = 60 * 30
# Pages that show "2 min ago" re-draw at least this often, even when no table changed.
CLOCK_SECONDS = 30

# What a watch token may be for; the poll view re-draws the matching page region.
DEVICE = "device"
WAITING = "waiting"
PROJECTOR = "projector"
GRID = "grid"
TEACHER = "teacher"
VIEWS = (DEVICE, WAITING, PROJECTOR, GRID, TEACHER)


def version_key(game_id: int) -> str:
    return f"games:table:{game_id}:version"


def session_key(session_id: int) -> str:
    return f"games:session:{session_id}:tables"


def get_version(game_id: int) -> int | None:
    """The cached version of a table, or None when the cache does not know it."""
    return cache.get(version_key(game_id))


# Keys that may hold a value older than the database: a write did not reach Redis and neither
# did the delete that replaces it. Per process; deleted as soon as Redis answers again.
_unsent: set[str] = set()
_unsent_lock = threading.Lock()


def _store(key: str, value, timeout: int | None) -> None:
    """Write a key that screens trust; if Redis refuses, no older value may stay behind."""
    stored, _ = answered(lambda: cache.set(key, value, timeout))
    if not stored:
        _forget([key])


def _forget(keys: list[str]) -> None:
    deleted, _ = answered(lambda: cache.delete_many(keys))
    if not deleted:
        with _unsent_lock:
            _unsent.update(keys)


def _retry_unsent() -> None:
    if not _unsent:  # the normal case: nothing failed
        return
    with _unsent_lock:
        keys = list(_unsent)
        _unsent.clear()
    _forget(keys)


def bump_version(game_id: int, version: int) -> None:
    """Store a table's version: after a committed change, and when a page was just drawn from
    the database (which heals an older version left by out-of-order commits)."""
    _retry_unsent()
    _store(version_key(game_id), version, VERSION_TTL)
    # Wake the streams of the table's screens (games/streams.py).
    push.publish(version_key(game_id))


def bump_session(session_id: int) -> None:
    """Tables were started or added: pages listing a session's tables must re-draw."""
    _retry_unsent()
    _store(session_key(session_id), get_random_string(8), None)
    push.publish(session_key(session_id))
    # Devices still on their lobby page move on to the game.
    push.touch(push.lobby_topic(session_id))


def session_stamp(session_id: int, found: str | None = None) -> str:
    """The stamp of the session's tables; `found` is one a read of several keys just got (None:
    not there, or not read)."""
    if found is not None:
        return found
    key = session_key(session_id)
    read, stamp = answered(lambda: cache.get(key))
    if not read:
        return _stamp_from_database(session_id)
    if stamp is None:
        # Unknown (evicted): a new stamp makes every list re-draw once, which is always safe.
        stamp = get_random_string(8)
        added, _ = answered(lambda: cache.add(key, stamp, None))
        if not added:  # Redis refuses writes: a new random stamp each poll would never settle
            return _stamp_from_database(session_id)
        stamp = cache.get(key, stamp)
    return stamp


def _stamp_from_database(session_id: int) -> str:
    """A stamp for when Redis cannot keep one: it changes when the session's tables are dealt,
    which is what `bump_session` announces."""
    tables = TableGame.objects.filter(session_id=session_id).aggregate(n=Count("pk"), top=Max("pk"))
    return f"db{tables['n']}.{tables['top'] or 0}"


@dataclass(frozen=True)
class Watch:
    """What a polling page shows and for whom. Signed into the page, never trusted unsigned."""

    view: str
    session_id: int
    game_ids: tuple[int, ...] = ()
    seat: str = ""
    binding_id: int | None = None
    user_id: int | None = None

    # Lists of tables re-draw when tables are added; the teacher's page also shows ages.
    @property
    def watches_session(self) -> bool:
        return self.view in (WAITING, GRID, TEACHER)

    @property
    def shows_clock(self) -> bool:
        return self.view == TEACHER


# Every redraw puts the screen's watch in its poll URL again, signed anew (JSON, compression,
# HMAC): the same token but for its timestamp. A token signed in the last minute is reused; its
# age only ever counts against TOKEN_MAX_AGE.
MINT_REUSE_SECONDS = 60


def mint(watch: Watch) -> str:
    return _minted(watch, int(time.time() // MINT_REUSE_SECONDS))


@functools.lru_cache(maxsize=8192)
def _minted(watch: Watch, minute: int) -> str:
    payload = {"w": watch.view, "s": watch.session_id, "g": list(watch.game_ids)}
    if watch.seat:
        payload["t"] = watch.seat
    if watch.binding_id is not None:
        payload["b"] = watch.binding_id
    if watch.user_id is not None:
        payload["u"] = watch.user_id
    return signing.dumps(payload, salt=_SALT, compress=True)


def read(token: str) -> Watch | None:
    """The watch a token was minted for, or None if it is forged, garbled or too old."""
    verified = _verified(token)
    if verified is None:
        return None
    watch, signed_at = verified
    return watch if time.time() - signed_at <= TOKEN_MAX_AGE else None


# A screen sends the same token with every poll until its next redraw, and checking it (the
# signature's HMAC, decompressing, JSON) was a quarter of an unchanged poll's cost: each process
# keeps the tokens it has checked, enough for every screen of a busy school (a few hundred bytes
# each). What is kept is the signature's verdict; the token's age is checked on every read.
@functools.lru_cache(maxsize=8192)
def _verified(token: str) -> tuple[Watch, int] | None:
    """The watch in a token whose signature holds, and when it was signed; None otherwise."""
    try:
        payload = signing.loads(token, salt=_SALT)
        watch = Watch(
            view=payload["w"],
            session_id=int(payload["s"]),
            game_ids=tuple(int(g) for g in payload["g"]),
            seat=str(payload.get("t", "")),
            binding_id=payload.get("b"),
            user_id=payload.get("u"),
        )
        # The signature held, so the token is "payload:timestamp:signature".
        signed_at = signing.b62_decode(token.rsplit(":", 2)[1])
    except (signing.BadSignature, KeyError, TypeError, ValueError, IndexError):
        return None
    return (watch, signed_at) if watch.view in VIEWS else None


@dataclass
class Fingerprint:
    """Builds the string a page shows and the poll compares: versions, session stamp, clock.
    The stamp, once looked up, is kept: a redraw keyed by the same fingerprint reads no other."""

    watch: Watch
    versions: dict[int, int] = field(default_factory=dict)
    stamp: str | None = None

    def render(self) -> str:
        parts = [f"{gid}.{self.versions.get(gid, 'x')}" for gid in sorted(self.versions)]
        text = "-".join(parts)
        if self.watch.watches_session:
            self.stamp = session_stamp(self.watch.session_id, self.stamp)
            text += f"~{self.stamp}"
        if self.watch.shows_clock:
            text += f"~{int(time.time() // CLOCK_SECONDS)}"
        return text


def fingerprint_for_page(watch: Watch, versions: dict[int, int]) -> str:
    """The fingerprint of a page drawn now from database `versions` (which heal the cache)."""
    _retry_unsent()
    # One read for all, and a write only where the cache is behind: every redraw passes here,
    # and a write costs more than a read (a file rename in the embedded default).
    cached = cache.get_many([version_key(game_id) for game_id in versions]) if versions else {}
    for game_id, version in versions.items():
        if cached.get(version_key(game_id)) != version:
            bump_version(game_id, version)
    return Fingerprint(watch, dict(versions)).render()


def current_fingerprint(watch: Watch) -> Fingerprint:
    """The fingerprint the page would have if drawn now, from the cache; a missed key costs
    one database query for all the missing tables (all of them when Redis does not answer)."""
    _retry_unsent()
    keys = {version_key(game_id): game_id for game_id in watch.game_ids}
    # A list of tables reads the stamp of its session in the same round trip.
    stamp_key = session_key(watch.session_id) if watch.watches_session else None
    wanted = [*keys, stamp_key] if stamp_key else list(keys)
    found = cache.get_many(wanted) if wanted else {}
    stamp = found.pop(stamp_key, None)
    versions = {keys[key]: value for key, value in found.items()}
    missing = [game_id for game_id in watch.game_ids if game_id not in versions]
    if missing:
        versions.update(_versions_from_database(missing))
    return Fingerprint(watch, versions, stamp)


def _versions_from_database(game_ids: Iterable[int]) -> dict[int, int]:
    versions = dict(TableGame.objects.filter(pk__in=list(game_ids)).values_list("pk", "version"))
    # The keys were missing, so a refused write leaves nothing stale: the next poll reads again.
    cache.set_many({version_key(g): v for g, v in versions.items()}, VERSION_TTL)
    return versions


def unchanged(watch: Watch, shown: str) -> bool:
    return current_fingerprint(watch).render() == shown
