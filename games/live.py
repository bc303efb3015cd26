"""Keeping every screen of a table fresh, cheaply: the games side of the live screens.

Each live page holds a stream (games/views/stream.py), which says only *that* something it
shows changed, and polls `games:poll` on a slow fallback (faster while its stream is not heard
from, static/js/live.js). A poll carries two things the page got when it was drawn: its signed
*watch token* (classroom/watch.py: which tables or topics, which page, for whom) and the
*fingerprint* of what it shows (the values of the cache keys it watches: its tables' versions,
its session's stamp, its topics' stamps). The poll verifies the token (pure HMAC, no database),
builds the current fingerprint from the cache, and answers 204 (htmx swaps nothing) when they
match. Only when something changed does the poll do the full permission check against the
database and send the re-drawn region.

So a revoked device (the teacher unbinds it) keeps getting 204s, which carry no content, until
what it shows next changes; the first changed poll checks the database and refuses it (its
stream is told at once: `gone`).

Versions reach the cache, and the streams hear of them, after each committed change
(`bump_version`, from `transaction.on_commit`). A page drawn from the database heals a missing
or older cached version (`heal_versions`), quietly: announcing a change belongs to the write
that made it, never to a GET. A missing key (evicted, expired, a fresh Redis) costs one database
read and is filled again. Two commits finishing their on_commit hooks out of order can leave an
older version cached; the next page drawn from the database stores its version again, and keys
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

import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db.models import Count, Max
from django.http import HttpResponse
from django.utils.crypto import get_random_string

from classroom import push
from classroom.watch import Watch, read, topic_stamps, topics_shown, urls
from config.cache import cache_answered
from games.models import TableGame

VERSION_TTL = 60 * 30
# Pages that show "2 min ago" re-draw at least this often, even when no table changed.
CLOCK_SECONDS = 30


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
    stored, _ = cache_answered(lambda: cache.set(key, value, timeout))
    if not stored:
        _forget([key])


def _forget(keys: list[str]) -> None:
    deleted, _ = cache_answered(lambda: cache.delete_many(keys))
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
    """Store a table's version after a committed change, and wake its screens' streams
    (games/streams.py)."""
    _retry_unsent()
    _store(version_key(game_id), version, VERSION_TTL)
    push.publish(version_key(game_id), version)


def bump_session(session_id: int) -> None:
    """Tables were started or added: pages listing a session's tables must re-draw."""
    _retry_unsent()
    stamp = get_random_string(8)
    _store(session_key(session_id), stamp, None)
    push.publish(session_key(session_id), stamp)
    # Devices still on their lobby page move on to the game.
    push.touch(push.lobby_topic(session_id))


def session_stamp(session_id: int, found: str | None = None) -> str:
    """The stamp of the session's tables; `found` is one a read of several keys just got (None:
    not there, or not read)."""
    if found is not None:
        return found
    key = session_key(session_id)
    read, stamp = cache_answered(lambda: cache.get(key))
    if not read:
        return _stamp_from_database(session_id)
    if stamp is None:
        # Unknown (evicted): a new stamp makes every list re-draw once, which is always safe.
        stamp = get_random_string(8)
        added, _ = cache_answered(lambda: cache.add(key, stamp, None))
        if not added:  # Redis refuses writes: a new random stamp each poll would never settle
            return _stamp_from_database(session_id)
        stamp = cache.get(key, stamp)
    return stamp


def _stamp_from_database(session_id: int) -> str:
    """A stamp for when Redis cannot keep one: it changes when the session's tables are dealt,
    which is what `bump_session` announces."""
    tables = TableGame.objects.filter(session_id=session_id).aggregate(n=Count("pk"), top=Max("pk"))
    return f"db{tables['n']}.{tables['top'] or 0}"


@dataclass
class Fingerprint:
    """Builds the string a page shows and the poll compares: versions, session stamp, topic
    stamps, clock. The stamps, once looked up, are kept: a redraw keyed by the same fingerprint
    reads no other."""

    watch: Watch
    versions: dict[int, int] = field(default_factory=dict)
    stamp: str | None = None
    # The topics' keys and values as read with the versions (classroom/push.py `stamp`).
    topics: dict[str, str] | None = None

    def render(self) -> str:
        parts = [f"{gid}.{self.versions.get(gid, 'x')}" for gid in sorted(self.versions)]
        text = "-".join(parts)
        if self.watch.watches_session:
            self.stamp = session_stamp(self.watch.session_id, self.stamp)
            text += f"~{self.stamp}"
        if self.watch.topics:
            self.topics = topic_stamps(self.watch, self.topics)
            text += topics_shown(self.topics)
        if self.watch.shows_clock:
            text += f"~{int(time.time() // CLOCK_SECONDS)}"
        return text


def heal_versions(versions: dict[int, int]) -> None:
    """Store the versions of tables just read from the database where the cache is behind
    (evicted, or older after out-of-order commits). Quietly: a page draw announces nothing,
    the write that made the version did (`bump_version`)."""
    _retry_unsent()
    # One read for all, and a write only where the cache is behind: every redraw passes here,
    # and a write costs more than a read (a file rename in the embedded default).
    cached = cache.get_many([version_key(game_id) for game_id in versions]) if versions else {}
    for game_id, version in versions.items():
        if cached.get(version_key(game_id)) != version:
            _store(version_key(game_id), version, VERSION_TTL)


def fingerprint_for_page(watch: Watch, versions: dict[int, int]) -> str:
    """The fingerprint of a page drawn now from database `versions` (which heal the cache)."""
    heal_versions(versions)
    return Fingerprint(watch, dict(versions)).render()


def page_urls(watch: Watch, versions: dict[int, int]) -> dict[str, str]:
    """The stream and poll URLs of a page drawn now from database `versions`."""
    return urls(watch, fingerprint_for_page(watch, versions))


def current_fingerprint(watch: Watch) -> Fingerprint:
    """The fingerprint the page would have if drawn now, from the cache; a missed key costs
    one database query for all the missing tables (all of them when Redis does not answer)."""
    _retry_unsent()
    keys = {version_key(game_id): game_id for game_id in watch.game_ids}
    # The stamps of a list's session and of the screen's topics come in the same round trip.
    stamp_key = session_key(watch.session_id) if watch.watches_session else None
    topic_keys = [push.topic_key(name) for name in watch.topics]
    wanted = [*keys, *([stamp_key] if stamp_key else []), *topic_keys]
    found = cache.get_many(wanted) if wanted else {}
    stamp = found.pop(stamp_key, None)
    topics = {key: found.pop(key) for key in topic_keys if key in found}
    versions = {keys[key]: value for key, value in found.items()}
    missing = [game_id for game_id in watch.game_ids if game_id not in versions]
    if missing:
        versions.update(_versions_from_database(missing))
    return Fingerprint(watch, versions, stamp, topics)


def _versions_from_database(game_ids: Iterable[int]) -> dict[int, int]:
    versions = dict(TableGame.objects.filter(pk__in=list(game_ids)).values_list("pk", "version"))
    # The keys were missing, so a refused write leaves nothing stale: the next poll reads again.
    cache.set_many({version_key(g): v for g, v in versions.items()}, VERSION_TTL)
    return versions


def unchanged(watch: Watch, shown: str) -> bool:
    return current_fingerprint(watch).render() == shown


def reload_answer() -> HttpResponse:
    """Ask the page to load itself again (a new token, or the page it should now be on)."""
    return HttpResponse(status=204, headers={"HX-Refresh": "true"})


# What a poll's request has read of the cache already, by (token, shown): the unchanged-poll
# middleware reads the screen's keys to answer a current screen, and a changed poll goes on to the
# view, which asks `quick_answer` again. Within `one_read_a_poll` that second ask is answered from
# this read instead of a second cache round trip (about an eighth of a phone's redraw from the
# cache, and of the grid's: benchmarks/README.md, "Serving"). The view stays correct without the
# middleware: outside the scope every ask reads the cache.
_poll_reads: ContextVar[dict[tuple[str, str], HttpResponse | Fingerprint] | None] = ContextVar(
    "poll_reads", default=None
)


@contextmanager
def one_read_a_poll() -> Iterator[None]:
    """Within this block (one poll's request), `quick_answer` reads the cache once."""
    reset = _poll_reads.set({})
    try:
        yield
    finally:
        _poll_reads.reset(reset)


def quick_answer(token: str, shown: str) -> HttpResponse | Fingerprint:
    """What a poll gets when neither the database nor the person is needed: a token that is
    not ours (reload) or a screen that is current (204, no body). Otherwise what the cache says
    now, for the redraw. The unchanged-poll middleware (games/middleware.py) answers the first
    two before the rest of the stack; the poll view asks again for the third (from the same read,
    see `one_read_a_poll`)."""
    reads = _poll_reads.get()
    if reads is not None and (token, shown) in reads:
        return reads[token, shown]
    answer = _read_answer(token, shown)
    if reads is not None:
        reads[token, shown] = answer
    return answer


def _read_answer(token: str, shown: str) -> HttpResponse | Fingerprint:
    seen = read(token)
    if seen is None:
        return reload_answer()
    now = current_fingerprint(seen)
    if now.render() == shown:
        return HttpResponse(status=204)
    return now
