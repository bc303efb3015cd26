"""What an open stream costs its process, and how many one device may hold (games/streams.py):
an idle stream holds no OS thread, and a device re-opening its stream in a loop ends its own
oldest streams, not the class's."""

import contextlib
import sys
import threading
from urllib.parse import urlsplit

import pytest

from tests.conftest import skip_without_server
from tests.games.live.test_streams import move_once, open_stream, page, web_get
from tests.support.streams import (
    ROOT,
    EventReader,
    StreamServer,
    cookie_header,
    run_alone,
    stream_path,
)

sys.path.insert(0, str(ROOT / "benchmarks"))
import harness  # noqa: E402  -- the benchmarks' process counters

pytestmark = pytest.mark.django_db(transaction=True)

# Limits out of the way: what streams cost, not how many one phone may hold.
UNLIMITED = {
    f"BOTBENCH_{name}": "1000"
    for name in ("STREAMS_PER_DEVICE", "STREAMS_PER_ADDRESS", "STREAM_OPEN_BURST")
}


@pytest.fixture
def table(open_session, teacher, students, device_client):
    from tests.games.conftest import start_live_table

    return start_live_table(open_session, teacher, students, device_client)


def test_two_hundred_open_streams_hold_no_thread_each(table):
    server = StreamServer(env=UNLIMITED).start()
    try:
        phone = table.devices[1]
        html = page(phone, "/play/")
        first = open_stream(server, phone, html)
        idle = server.threads()
        readers = [first] + [open_stream(server, phone, html) for _ in range(199)]
        with_streams = server.threads()
        # Before: one thread a stream (Django's ThreadSensitiveContext), 200 more.
        assert with_streams - idle <= 8, (idle, with_streams)
        # ... and every one of them is alive: a move reaches all.
        move_once(table)
        for reader in readers:
            reader.wait_for("changed", pings=1)
        for reader in readers:
            reader.close()
    finally:
        server.stop()


def test_open_streams_share_their_processs_redis_connections(table, settings):
    """Django keeps a cache backend per request context under ASGI: each stream held a Redis
    connection of its own (and left it open after it ended) until config/cache.py shared one
    client per process."""
    if not settings.REDIS_URL:
        skip_without_server("the cache's Redis connections")
    redis_port = urlsplit(settings.REDIS_URL).port or 6379
    server = StreamServer(env=UNLIMITED).start()
    try:
        phone = table.devices[1]
        html = page(phone, "/play/")
        readers = [open_stream(server, phone, html)]
        one_stream = harness.connections_to(server.process.pid, redis_port)
        readers += [open_stream(server, phone, html) for _ in range(59)]
        # The hub's one pub/sub connection and the cache's few, however many streams.
        assert harness.connections_to(server.process.pid, redis_port) <= one_stream + 3
        for reader in readers:
            reader.close()
    finally:
        server.stop()


def test_a_new_stream_of_a_device_past_its_limit_replaces_its_oldest(table):
    server = StreamServer(env={"BOTBENCH_STREAMS_PER_DEVICE": "2"}).start()
    try:
        phone = table.devices[0]
        html = page(phone, "/play/")
        opened = [open_stream(server, phone, html) for _ in range(5)]
        for reader in opened[:3]:
            assert reader.wait_for("replaced") == ("replaced", "")
            assert reader.next_event() is None  # and it ended
        move_once(table)
        for reader in opened[3:]:
            reader.wait_for("changed", pings=1)
        for reader in opened:
            reader.close()
    finally:
        server.stop()


def test_a_device_opening_three_hundred_streams_keeps_only_the_newest_few(table, settings):
    server = StreamServer().start()
    try:
        flooder, other = table.devices[0], table.devices[1]
        other_stream = open_stream(server, other, page(other, "/play/"))
        html, cookies = page(flooder, "/play/"), cookie_header(flooder)
        other_cookies = cookie_header(other)

        pages, stop = [], threading.Event()

        def other_phone_reloads() -> None:
            while not stop.is_set():
                pages.append(web_get(server.port, "/play/", other_cookies)[0])

        reloading = threading.Thread(target=other_phone_reloads)
        reloading.start()
        try:
            tries = [EventReader(server.port, stream_path(html), cookies) for _ in range(300)]
        finally:
            stop.set()
            reloading.join()
        # The other phone's page answered all along.
        assert pages and set(pages) == {200}
        # Past its burst, the flooder's opens were refused at once, without any work.
        assert {reader.status for reader in tries} == {200, 429}
        opened = [reader for reader in tries if reader.status == 200]
        assert settings.STREAM_OPEN_BURST <= len(opened) < 60, len(opened)

        limit = settings.STREAMS_PER_DEVICE
        # Every stream it opened but the newest `limit` was told it was replaced, and ended.
        for reader in opened[:-limit]:
            assert reader.wait_for("replaced") == ("replaced", "")
            assert reader.next_event() is None
        # The newest few and the other phone's stream still hear a move.
        move_once(table)
        for reader in [*opened[-limit:], other_stream]:
            reader.wait_for("changed", pings=1)
        for reader in [*tries, other_stream]:
            reader.close()
    finally:
        server.stop()


def test_the_open_rate_allows_a_burst_then_one_open_every_few_seconds(settings):
    from games.streams import OpenRate

    settings.STREAM_OPEN_BURST, settings.STREAM_REOPEN_SECONDS = 3, 2
    rate = OpenRate()
    assert [rate.allow("phone", 100.0) for _ in range(5)] == [True, True, True, False, False]
    assert rate.allow("other phone", 100.0)  # a bucket each
    assert not rate.allow("phone", 101.0)
    assert rate.allow("phone", 102.1)
    assert not rate.allow("phone", 102.2)


def test_an_address_holds_its_limit_of_streams_across_devices(settings):

    from games import streams

    async def scenario() -> list[bool]:
        hub, held = streams.hub(), []
        async with contextlib.AsyncExitStack() as stack:
            for device in range(5):
                holders = [(f"binding:{device}", 4), ("address:203.0.113.9", 3)]
                held.append(await stack.enter_async_context(hub.listen([], holders)))
            return [listener.replaced for listener in held]

    settings.REDIS_URL = None
    # Five phones behind one address that may hold three: the two oldest made way.
    assert run_alone(scenario()) == [True, True, False, False, False]
