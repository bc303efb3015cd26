"""The Redis cache backend the settings name: Django's RedisCache that degrades instead of raising.

Redis holds only what can be rebuilt (live-table versions, throttle counters), never the truth,
so a Redis that is down, slow or refusing writes (`maxmemory` reached) must not turn a page into
a 500. While it fails, this backend answers like an empty cache that drops writes: `get` gives
the default, `get_many` nothing, `add`/`touch`/`delete`/`has_key` False, `set_many` lists every
key as failed (Django's contract for keys not stored), `incr` raises ValueError as for a missing
key. Each swallowed error is logged (at most every `LOG_EVERY` seconds a process) and counted on
the backend instance (`errors`), which `cache_answered()` reads for the callers that must know
whether a write reached Redis (games.live, /healthz).

After a connection error the process skips Redis for `PAUSE_SECONDS`, so a Redis that times out
costs one timeout a second rather than one per cache call. An error Redis answers with (such as
OOM on a write) pauses nothing: reads and deletes still work.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

PAUSE_SECONDS = 1.0
LOG_EVERY = 10.0


class _Health:
    """Process-wide (every thread's backend instance shares it): when to try Redis again."""

    lock = threading.Lock()
    paused_until = 0.0
    logged_at = 0.0


class ReusingRedisCacheClient(RedisCacheClient):
    """Django's client builds a new `redis.Redis` for every cache call, and its constructor fills
    a table of some 300 reply callbacks: about half a millisecond, more than the call itself on
    loopback. One a connection pool is enough: `redis.Redis` takes a connection from its pool
    for each command, so it is safe to share."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


# Django keeps a cache backend a thread, and under ASGI a request context: each event stream (a
# request open for hours) built a client and connection pool of its own, and held a Redis
# connection in it (200 open streams: 193 more Redis connections, still open after the streams
# closed; a district's 17,000 screens would pass Redis's 10,000 clients). A pool hands each
# command a connection of its own, so the process shares one client (and pool) per
# configuration; redis-py's pool starts afresh in a forked child.
_shared_clients: dict[str, ReusingRedisCacheClient] = {}
_shared_clients_lock = threading.Lock()


class DegradingRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
        self.errors = 0

    @cached_property
    def _cache(self) -> ReusingRedisCacheClient:
        configuration = repr((self._servers, sorted(self._options.items())))
        with _shared_clients_lock:
            client = _shared_clients.get(configuration)
            if client is None:
                client = _shared_clients[configuration] = self._class(
                    self._servers, **self._options
                )
        return client

    def _guard[T](self, fallback: Callable[[], T], call: Callable[[], T]) -> T:
        if time.monotonic() < _Health.paused_until:
            self.errors += 1
            return fallback()
        try:
            return call()
        except RedisError as exc:
            self.errors += 1
            now = time.monotonic()
            with _Health.lock:
                if isinstance(exc, RedisConnectionError | RedisTimeoutError):
                    _Health.paused_until = now + PAUSE_SECONDS
                quiet = now - _Health.logged_at < LOG_EVERY
                if not quiet:
                    _Health.logged_at = now
            if not quiet:
                logger.warning("Redis cache unavailable, carrying on without it: %r", exc)
            return fallback()

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(
            lambda: False, lambda: RedisCache.add(self, key, value, timeout, version)
        )

    def get(self, key, default=None, version=None):
        return self._guard(lambda: default, lambda: RedisCache.get(self, key, default, version))

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(lambda: None, lambda: RedisCache.set(self, key, value, timeout, version))

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(lambda: False, lambda: RedisCache.touch(self, key, timeout, version))

    def delete(self, key, version=None):
        return self._guard(lambda: False, lambda: RedisCache.delete(self, key, version))

    def get_many(self, keys, version=None):
        keys = list(keys)
        return self._guard(dict, lambda: RedisCache.get_many(self, keys, version))

    def has_key(self, key, version=None):
        return self._guard(lambda: False, lambda: RedisCache.has_key(self, key, version))

    def incr(self, key, delta=1, version=None):
        def missing():
            raise ValueError(f"Key {key!r} not found (the cache is unavailable).")

        return self._guard(missing, lambda: RedisCache.incr(self, key, delta, version))

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guard(
            lambda: list(data), lambda: RedisCache.set_many(self, data, timeout, version)
        )

    def delete_many(self, keys, version=None):
        keys = list(keys)
        return self._guard(lambda: None, lambda: RedisCache.delete_many(self, keys, version))

    def clear(self):
        return self._guard(lambda: False, lambda: RedisCache.clear(self))


def cache_answered[T](call: Callable[[], T], backend: Any = cache) -> tuple[bool, T]:
    """Run one cache call; (False, its fallback result) when the cache did not answer.

    Any other backend (the embedded file cache) raises instead of degrading, so it always
    "answered" here."""
    before = getattr(backend, "errors", 0)
    result = call()
    return getattr(backend, "errors", 0) == before, result
