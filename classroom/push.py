"""Telling open screens that something they show has changed (the sending half of server push).

A screen's stream (games/views/stream.py) watches a few *keys*: cache keys whose value changes
whenever what the screen shows changes (a table's version, a session's list of tables, a
"topic" such as a lobby or a device binding). Whoever changes such a value calls `publish(key)`
after the commit:

- with Redis (`REDIS_URL`), a pub/sub message on the key's channel reaches the streams of every
  web process at once;
- without Redis (the embedded default), the streams of *this* process are woken at once (`make
  run`: the move and the projector's stream live in one process); each other process's stream
  hub reads the watched keys from the shared file cache several times a second and notices the
  change itself.

Messages carry no content, only "this key changed"; the screen then asks for its region through
the permission-checked redraw. A lost message (Redis down for a moment) is healed by the screen's
fallback poll, so a failure here is logged and never fails the change that caused it.

This module sits in `classroom` (the bottom app) because lobbies and device bindings change here;
`games` and `reports` call it too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import cache as memoize

from django.conf import settings
from django.core.cache import cache
from django.utils.crypto import get_random_string

from config.cache import cache_answered

logger = logging.getLogger(__name__)

# Unknown: a publish that does not say which value the key now holds.
UNKNOWN = object()
# What wakes this process's own streams, given a key and its new value; games/streams.py adds its
# hubs' (this app sits below `games`, so it is told rather than importing it). Called from any
# thread.
local_wakers: list[Callable[[str, object], None]] = []


def channel(key: str) -> str:
    """The pub/sub channel of a key. Pub/sub ignores Redis database numbers, so the channel names
    the cache's prefix and database: two sites sharing one Redis server never hear each other."""
    location = settings.CACHES["default"].get("LOCATION", "")
    return f"botbench-push:{cache.key_prefix}:{location}:{key}"


@memoize
def _redis():
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1)


def publish(key: str, value: object = UNKNOWN) -> None:
    """Wake the streams watching `key` (call after the new `value` is in the cache)."""
    if not settings.REDIS_URL:
        # Redis would tell this process too; without it, nothing else tells it at once.
        for wake in local_wakers:
            try:
                wake(key, value)
            except Exception:  # the hub's cache read still notices the change
                logger.warning("Could not wake the streams of %s", key, exc_info=True)
        return
    import redis

    try:
        _redis().publish(channel(key), "1")
    except redis.RedisError:
        # The screens' fallback poll shows the change within seconds anyway.
        logger.warning("Could not publish a change of %s", key, exc_info=True)


def topic_key(name: str) -> str:
    return f"push:topic:{name}"


def touch(name: str) -> None:
    """A topic (a lobby, a device binding, an export) changed: store a new stamp and publish."""
    key, value = topic_key(name), get_random_string(8)
    try:
        cache.set(key, value, None)
    except Exception:  # a cache outage must not fail the change; polls still see it
        logger.warning("Could not store a change of %s", key, exc_info=True)
        return
    publish(key, value)


def stamp(name: str, found: dict | None = None) -> str:
    """A topic's current stamp, which a screen's fingerprint holds (classroom/watch.py); `found`
    holds the values a read of several keys just got, maybe this topic's.

    A stamp the cache lost is stored anew, so the screens watching it re-draw once, which is
    always safe. When the cache cannot keep one, each call gives a new stamp: the screen is
    then re-drawn on each poll, from the database, until the cache answers again."""
    key = topic_key(name)
    if found is not None and found.get(key) is not None:
        return found[key]
    read, value = cache_answered(lambda: cache.get(key))
    if read and value is None:
        added, _ = cache_answered(lambda: cache.add(key, get_random_string(8), None))
        if added:
            read, value = cache_answered(lambda: cache.get(key))
    return value if read and value is not None else get_random_string(8)


def lobby_topic(session_id: int) -> str:
    return f"session:{session_id}:lobby"


def binding_topic(binding_id: int) -> str:
    return f"binding:{binding_id}"


def spotlight_topic(session_id: int) -> str:
    return f"session:{session_id}:spotlight"


def export_topic(export_id: int) -> str:
    return f"export:{export_id}"


def touch_after_commit(*names: str) -> None:
    """`touch` each topic once the current transaction commits (at once outside one)."""
    from django.db import transaction

    def notify() -> None:
        for name in names:
            touch(name)

    notify.push = True  # tests counting queued tasks leave these out
    transaction.on_commit(notify)
