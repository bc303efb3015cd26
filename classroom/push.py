"""Telling open screens that something they show has changed (the sending half of server push).

A screen's stream (games/views/stream.py) watches a few *keys*: cache keys whose value changes
whenever what the screen shows changes (a table's version, a session's list of tables, a
"topic" such as a lobby or a device binding). Whoever changes such a value calls `publish(key)`
after the commit:

- with Redis (`REDIS_URL`), a pub/sub message on the key's channel reaches the streams of every
  web process at once;
- without Redis (the embedded default), nothing is sent: each process's stream hub reads the
  watched keys from the shared file cache every 250 ms and notices the change itself.

Messages carry no content, only "this key changed"; the screen then asks for its region through
the permission-checked redraw. A lost message (Redis down for a moment) is healed by the screen's
slow fallback poll, so a failure here is logged and never fails the change that caused it.

This module sits in `classroom` (the bottom app) because lobbies and device bindings change here;
`games` and `reports` call it too.
"""

from __future__ import annotations

import logging
from functools import cache as memoize
from urllib.parse import urlencode

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.urls import reverse
from django.utils.crypto import get_random_string

logger = logging.getLogger(__name__)

_TOPIC_SALT = "classroom.push.topic"
TOPIC_MAX_AGE = 60 * 60 * 16


def channel(key: str) -> str:
    """The pub/sub channel of a key. Pub/sub ignores Redis database numbers, so the channel names
    the cache's prefix and database: two sites sharing one Redis server never hear each other."""
    location = settings.CACHES["default"].get("LOCATION", "")
    return f"botbench-push:{cache.key_prefix}:{location}:{key}"


@memoize
def _redis():
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1, socket_connect_timeout=1)


def publish(key: str) -> None:
    """Wake the streams watching `key` (call after the new value is in the cache)."""
    if not settings.REDIS_URL:
        return
    import redis

    try:
        _redis().publish(channel(key), "1")
    except redis.RedisError:
        # The screens' fallback poll shows the change within seconds anyway.
        logger.warning("Could not publish a change of %s", key, exc_info=True)


def stream_url(token: str, shown: str = "") -> str:
    """The URL of the stream for a watch token (games.live) or a topic token (below); `shown` is
    the fingerprint the page was drawn with, so a change made before the stream opened is sent at
    once."""
    query = {"t": token, "v": shown} if shown else {"t": token}
    return f"{reverse('games:stream')}?{urlencode(query)}"


def topic_key(name: str) -> str:
    return f"push:topic:{name}"


def touch(name: str) -> None:
    """A topic (a lobby, a device binding, an export) changed: store a new stamp and publish."""
    key = topic_key(name)
    try:
        cache.set(key, get_random_string(8), None)
    except Exception:  # a cache outage must not fail the change; polls still see it
        logger.warning("Could not store a change of %s", key, exc_info=True)
        return
    publish(key)


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


def mint_topics(topics: list[str], *, user_id: int | None = None, binding_id: int | None = None):
    """A signed stream token for pages that watch topics: who may hold it and what it watches."""
    payload: dict = {"k": topics}
    if user_id is not None:
        payload["u"] = user_id
    if binding_id is not None:
        payload["b"] = binding_id
    return signing.dumps(payload, salt=_TOPIC_SALT, compress=True)


def read_topics(token: str) -> dict | None:
    try:
        payload = signing.loads(token, salt=_TOPIC_SALT, max_age=TOPIC_MAX_AGE)
        topics = [str(t) for t in payload["k"]]
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None
    return {"topics": topics, "user_id": payload.get("u"), "binding_id": payload.get("b")}
