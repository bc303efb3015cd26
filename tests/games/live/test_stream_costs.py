"""What an open stream costs its process, and how many one device may hold (games/streams.py):
an idle stream holds no OS thread, and a device re-opening its stream in a loop ends its own
oldest streams, not the class's."""

import threading

import pytest

from tests.games.live.test_streams import move_once, open_stream, page, web_get
from tests.support.streams import EventReader, StreamServer, cookie_header, stream_path

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(open_session, teacher, students, device_client):
    from tests.games.conftest import start_live_table

    return start_live_table(open_session, teacher, students, device_client)


def test_two_hundred_open_streams_hold_no_thread_each(table):
    # Limits out of the way: this counts what streams cost, not how many one phone may hold.
    server = StreamServer(
        env={"BOTBENCH_STREAMS_PER_DEVICE": "1000", "BOTBENCH_STREAMS_PER_ADDRESS": "1000"}
    ).start()
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
            opened = [EventReader(server.port, stream_path(html), cookies) for _ in range(300)]
        finally:
            stop.set()
            reloading.join()
        assert [reader.status for reader in opened] == [200] * 300
        # The other phone's page answered all along.
        assert pages and set(pages) == {200}

        limit = settings.STREAMS_PER_DEVICE
        # Every stream but the newest `limit` was told it was replaced, and ended.
        for reader in opened[:-limit]:
            assert reader.wait_for("replaced") == ("replaced", "")
            assert reader.next_event() is None
        # The newest few and the other phone's stream still hear a move.
        move_once(table)
        for reader in [*opened[-limit:], other_stream]:
            reader.wait_for("changed", pings=1)
        for reader in [*opened, other_stream]:
            reader.close()
    finally:
        server.stop()
