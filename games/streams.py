"""The receiving half of server push: one hub a process wakes the streams whose keys changed.

Every open stream registers the keys it watches (see classroom/push.py). The hub, not each
stream, talks to the outside, so 1,700 idle streams cost one Redis connection (or one cache read
each EMBEDDED_INTERVAL), not 1,700:

- with Redis: one pub/sub connection subscribed to the watched keys' channels;
- embedded: one `cache.get_many` of every watched key each EMBEDDED_INTERVAL, comparing with the
  last values.

A change made in this process (embedded: `make run`, where the move and the projector's stream
share one process) wakes this process's hubs at once through `push.local_wakers`; the cache read
is then only for changes made by other processes (a Celery worker, another web process).

A stream learns only which of its keys changed; it then decides what to send.

**No thread a stream.** Django's ASGI handler runs each request in a `ThreadSensitiveContext`,
whose first thread-sensitive call (the session middleware's, the view's checks) starts a thread
that lives as long as the request: for a stream, hours (measured: 300 streams, 300 threads,
+45 MB). `serve_stream` (config/asgi.py sends the stream URL there) gives each stream's
request a context backed by one small shared pool instead, STREAM_SYNC_THREADS threads for all
the streams of the process: the sync work of a stream (middleware, the checks at connect, a
binding's re-check) runs there in short calls that close their database connections, and an
idle stream is a coroutine waiting on its Listener, with no thread.

**Limits.** A device (its cookie; a signed-in adult's browser) holds at most
STREAMS_PER_DEVICE streams in a process, a client address STREAMS_PER_ADDRESS; opening one more
ends the holder's oldest (`Listener.replaced`), so a script or stuck browser re-opening its
stream in a loop costs one stream's place, not the class's; and a caller re-opening faster than
a page does is answered 429 before any work (`OpenRate`), so the loop costs the class's pages
little time either.

Both are per process: behind a proxy spreading streams over N stream processes, a device may
hold up to N times as many. Compose's proxy refuses a loop's opens with the same budget before
they reach a stream process (docker/nginx.conf); `OpenRate` is the limit where no proxy does
(`make run`, Kubernetes' ingress).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict, defaultdict
from collections.abc import AsyncIterator, Iterable
from concurrent.futures import ThreadPoolExecutor
from functools import cache as memoize

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import connections

from classroom import push

logger = logging.getLogger(__name__)

EMBEDDED_INTERVAL = 0.25
REDIS_RETRY = 1.0


@memoize
def stream_path() -> str:
    from django.urls import reverse

    return reverse("games:stream")


class _SyncPool(ThreadPoolExecutor):
    """The streams' threads. One stream's calls may land on different threads of it, so none
    may leave a database connection open for the next: each call closes its thread's own."""

    def submit(self, fn, /, *args, **kwargs):
        def call():
            try:
                return fn(*args, **kwargs)
            finally:
                connections.close_all()

        return super().submit(call)


@memoize
def _sync_pool() -> ThreadPoolExecutor:
    return _SyncPool(max_workers=settings.STREAM_SYNC_THREADS, thread_name_prefix="stream-sync")


class OpenRate:
    """How fast each caller may open streams: a bucket of STREAM_OPEN_BURST opens, refilled by
    one every STREAM_REOPEN_SECONDS. A page opens one stream and re-opens it after a dropped
    connection (2 s at the soonest), so only a loop runs its bucket dry."""

    # Past this many callers, the buckets that are full again are forgotten.
    PRUNE_AT = 4096

    def __init__(self) -> None:
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, caller: str, now: float) -> bool:
        burst, every = settings.STREAM_OPEN_BURST, settings.STREAM_REOPEN_SECONDS
        tokens, then = self._buckets.get(caller, (burst, now))
        tokens = min(burst, tokens + (now - then) / every)
        allowed = tokens >= 1
        self._buckets[caller] = (tokens - 1 if allowed else tokens, now)
        if len(self._buckets) > self.PRUNE_AT:
            self._buckets = {
                who: (left, at)
                for who, (left, at) in self._buckets.items()
                if left + (now - at) / every < burst
            }
        return allowed


_open_rate = OpenRate()


def _caller(scope) -> str:
    """Who opens a stream, from its cookies alone (no query, no thread): the device cookie, else
    the session's, else the connection's address. A forged value only names a bucket of its own,
    and its stream then fails the view's checks."""
    from django.http.cookie import parse_cookie

    from classroom.devices import DEVICE_COOKIE

    header = next((value for name, value in scope["headers"] if name == b"cookie"), b"")
    cookies = parse_cookie(header.decode("latin-1"))
    for name in (DEVICE_COOKIE, settings.SESSION_COOKIE_NAME):
        if cookies.get(name):
            return f"{name}={cookies[name]}"
    client = scope.get("client") or ("unknown", 0)
    return f"address={client[0]}"


async def serve_stream(app, scope, receive, send) -> None:
    """Serve a stream's request with `app` (Django), its sync calls on the shared small pool; a
    caller opening streams in a loop is answered 429 before Django (or a thread) does any work:
    the limits below would end all but its newest streams anyway, but each open's checks would
    cost the class's pages their time (measured: 300 opens, another phone's page p95 x4)."""
    if not _open_rate.allow(_caller(scope), time.monotonic()):
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"retry-after", str(settings.STREAM_REOPEN_SECONDS).encode()),
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})
        return
    # Django's own ThreadSensitiveContext, inside, finds this one and leaves it in charge.
    async with ThreadSensitiveContext(executor=_sync_pool()):
        await app(scope, receive, send)


class Listener:
    """One stream's mailbox: the keys that changed since it last looked."""

    def __init__(self, keys: Iterable[str]):
        self.keys = frozenset(keys)
        self._changed: set[str] = set()
        self._event = asyncio.Event()
        # Set when a newer stream of the same device or address took this one's place.
        self.replaced = False

    def wake(self, key: str) -> None:
        self._changed.add(key)
        self._event.set()

    def replace(self) -> None:
        self.replaced = True
        self._event.set()

    async def wait(self, timeout: float) -> frozenset[str]:
        """The keys that changed, once any has; empty after `timeout` seconds of quiet."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            return frozenset()
        self._event.clear()
        changed, self._changed = frozenset(self._changed), set()
        return changed


class Hub:
    """The listeners of one event loop, and the task that wakes them."""

    def __init__(self) -> None:
        self.listeners: dict[str, set[Listener]] = defaultdict(set)
        # Per holder (a device, an address): its open streams, oldest first.
        self.held: dict[str, OrderedDict[Listener, None]] = {}
        self._task: asyncio.Task | None = None
        self._pubsub = None
        self._subscribed = asyncio.Event()
        self._key_of: dict[str, str] = {}
        # Embedded: the last value read of each watched key.
        self._seen: dict[str, object] = {}

    def _hold(self, listener: Listener, holders: Iterable[tuple[str, int]]) -> None:
        for holder, limit in holders:
            streams = self.held.setdefault(holder, OrderedDict())
            streams[listener] = None
            while len(streams) > limit:
                oldest, _ = streams.popitem(last=False)
                oldest.replace()

    def _release(self, listener: Listener, holders: Iterable[tuple[str, int]]) -> None:
        for holder, _ in holders:
            streams = self.held.get(holder)
            if streams is not None:
                streams.pop(listener, None)
                if not streams:
                    del self.held[holder]

    @contextlib.asynccontextmanager
    async def listen(
        self, keys: Iterable[str], holders: Iterable[tuple[str, int]] = ()
    ) -> AsyncIterator[Listener]:
        """Listen to `keys`; `holders` are (holder, most streams it may hold) pairs."""
        listener = Listener(keys)
        holders = list(holders)
        self._hold(listener, holders)
        new = [key for key in listener.keys if not self.listeners.get(key)]
        for key in listener.keys:
            self.listeners[key].add(listener)
            self._key_of[push.channel(key)] = key
        self._ensure_task()
        # Before the stream says hello, a change to its keys must already be noticed: take the
        # embedded baseline now, or make sure Redis has the subscription.
        if not settings.REDIS_URL:
            if new:
                values = await sync_to_async(cache.get_many, thread_sensitive=False)(new)
                for key in new:
                    self._seen.setdefault(key, values.get(key))
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._subscribed.wait(), 5)
            if new and self._pubsub is not None:
                await self._subscribe(new)
        try:
            yield listener
        finally:
            self._release(listener, holders)
            gone = []
            for key in listener.keys:
                self.listeners[key].discard(listener)
                if not self.listeners[key]:
                    del self.listeners[key]
                    self._key_of.pop(push.channel(key), None)
                    self._seen.pop(key, None)
                    gone.append(key)
            if gone and self._pubsub is not None:
                await self._unsubscribe(gone)

    def wake(self, keys: Iterable[str]) -> None:
        for key in keys:
            for listener in self.listeners.get(key, ()):
                listener.wake(key)

    def wake_all(self) -> None:
        self.wake(list(self.listeners))

    def changed_here(self, key: str, value: object) -> None:
        """This process changed `key` to `value` (push.publish): wake its streams now, and take
        the value as seen, so the embedded cache read does not wake them a second time."""
        if key in self._seen and value is not push.UNKNOWN:
            self._seen[key] = value
        self.wake([key])

    def _ensure_task(self) -> None:
        if self._task is None or self._task.done():
            run = self._run_redis if settings.REDIS_URL else self._run_embedded
            self._task = asyncio.get_running_loop().create_task(run())

    # -- embedded: read the shared cache ---------------------------------------------------------

    async def _run_embedded(self) -> None:
        while self.listeners:
            await self._read_once()
            await asyncio.sleep(EMBEDDED_INTERVAL)

    async def _read_once(self) -> None:
        """Read every watched key and wake the streams of those that changed since last read."""
        keys = list(self.listeners)
        try:
            values = await sync_to_async(cache.get_many, thread_sensitive=False)(keys)
        except Exception:
            logger.warning("Stream hub could not read the cache", exc_info=True)
            return
        seen = self._seen
        changed = [k for k in keys if k in seen and values.get(k) != seen[k]]
        for key in keys:
            if key in self.listeners:
                seen[key] = values.get(key)
        self.wake(changed)

    # -- Redis: pub/sub --------------------------------------------------------------------------

    async def _subscribe(self, keys: list[str]) -> None:
        with contextlib.suppress(Exception):  # the reader resubscribes after a failure
            await self._pubsub.subscribe(*[push.channel(key) for key in keys])

    async def _unsubscribe(self, keys: list[str]) -> None:
        with contextlib.suppress(Exception):
            await self._pubsub.unsubscribe(*[push.channel(key) for key in keys])

    async def _run_redis(self) -> None:
        import redis.asyncio as aioredis

        reconnecting = False
        while self.listeners:
            client = aioredis.Redis.from_url(settings.REDIS_URL)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                # Set first: a stream arriving during the subscribe below subscribes itself.
                self._pubsub = pubsub
                await pubsub.subscribe(*[push.channel(key) for key in list(self.listeners)])
                self._subscribed.set()
                if reconnecting:
                    # Whatever was published while the hub was cut off is unknown: every stream
                    # checks once.
                    self.wake_all()
                while self.listeners:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    key = self._key_of.get(message["channel"].decode())
                    if key is not None:
                        self.wake([key])
            except Exception:
                reconnecting = True
                logger.warning("Stream hub lost Redis; retrying", exc_info=True)
                await asyncio.sleep(REDIS_RETRY)
            finally:
                self._pubsub = None
                self._subscribed.clear()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                    await client.aclose()


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def _wake_local_hubs(key: str, value: object) -> None:
    """push.publish in this process, from any thread: each hub with streams on `key` hears it on
    its own loop."""
    for loop, each in list(_hubs.items()):
        if key in each.listeners and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(each.changed_here, key, value)


push.local_wakers.append(_wake_local_hubs)


def hub() -> Hub:
    """The hub of the running event loop (a worker process has one loop; tests may have more)."""
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        for old in [old for old in _hubs if old.is_closed()]:
            del _hubs[old]
        _hubs[loop] = Hub()
    return _hubs[loop]
