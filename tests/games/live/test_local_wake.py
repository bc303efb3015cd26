"""Without Redis, a change made in the process that serves the streams wakes them at once
(classroom/push.py's local wakers), not at the hub's next cache read (games/streams.py)."""

import threading

import pytest
from django.core.cache import cache

from classroom import push
from games import live, streams
from tests.support.streams import run_alone


async def _no_background_reads(hub: streams.Hub) -> None:
    return None


@pytest.fixture
def embedded(settings, monkeypatch):
    settings.REDIS_URL = None
    # The hub's own cache reads are left out (its first runs at once, and could meet a test's
    # change half-way and wake the stream itself): the tests read when they mean to.
    monkeypatch.setattr(streams.Hub, "_run_embedded", _no_background_reads)


def test_a_change_in_this_process_wakes_its_streams_without_the_cache_read(embedded):
    key = live.version_key(424242)
    cache.set(key, 1)

    async def scenario() -> tuple[frozenset, frozenset, int]:
        hub = streams.hub()
        async with hub.listen([key]) as listener:
            # As a move does: a web thread stores the version, then publishes it.
            def move() -> None:
                cache.set(key, 2)
                push.publish(key, 2)

            mover = threading.Thread(target=move)
            mover.start()
            woken = await listener.wait(10)
            mover.join()
            # The cache read then finds the value the wake told it: no second wake for it.
            await hub._read_once()
            again = await listener.wait(0.05)
            return woken, again, hub._seen[key]

    woken, again, seen = run_alone(scenario())
    assert woken == {key}
    assert again == frozenset()
    assert seen == 2


def test_a_change_another_process_made_still_wakes_through_the_cache_read(embedded):
    key = live.version_key(434343)
    cache.set(key, 1)

    async def scenario() -> tuple[frozenset, frozenset]:
        hub = streams.hub()
        async with hub.listen([key]) as listener:
            before = await listener.wait(0.05)
            cache.set(key, 2)  # no publish here: another process changed it
            await hub._read_once()
            return before, await listener.wait(10)

    before, after = run_alone(scenario())
    assert before == frozenset()
    assert after == {key}
