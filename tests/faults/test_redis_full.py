"""Redis at `maxmemory` (noeviction): it still reads and deletes but refuses every write. A
committed move must answer normally, and no screen may keep trusting an older cached version."""

import pytest
import redis
from django.urls import reverse

from games import live
from tests.conftest import wait_until
from tests.faults.lesson import Lesson, WatchingScreen
from tests.games.conftest import start_live_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(private_redis, open_session, teacher, students, device_client):
    return start_live_table(open_session, teacher, students, device_client)


def screens(table, teacher_client) -> list[WatchingScreen]:
    session, game = table.session.pk, table.game.pk
    return [
        WatchingScreen.open("device of team 2", table.devices[1], reverse("games:device")),
        WatchingScreen.open("device of team 3", table.devices[2], reverse("games:device")),
        WatchingScreen.open("projector", teacher_client, reverse("games:projector", args=[game])),
        WatchingScreen.open(
            "grid", teacher_client, reverse("games:projector_grid", args=[session])
        ),
        WatchingScreen.open(
            "teacher", teacher_client, reverse("games:teacher_tables", args=[session])
        ),
    ]


def test_moves_commit_and_screens_stay_fresh_while_redis_refuses_writes(
    private_redis, table, teacher_client, client
):
    lesson = Lesson(table)
    watching = screens(table, teacher_client)
    for screen in watching:
        assert screen.is_current(table.game)

    private_redis.refuse_writes()
    with pytest.raises(redis.exceptions.OutOfMemoryError):
        private_redis.client().set("probe", "x")

    for _ in range(4):
        device, posted = lesson.move()
        version = table.game.__class__.objects.get(pk=table.game.pk).version
        for screen in watching:
            # Not stale at the very next poll: the refused version write dropped the old one.
            screen.poll()
            assert screen.shown_version(table.game) == version, screen.name
    lesson.tap_again(device, posted)
    health = client.get(reverse("classroom:healthz"))
    assert health.status_code == 200
    assert health.json()["status"] == "degraded"
    assert health.json()["checks"]["cache"] == "down"

    private_redis.accept_writes()
    lesson.move()
    for screen in watching:
        wait_until(lambda s=screen: s.is_current(table.game), 5, f"{screen.name} is current")
    # Writes reach Redis again: the version is cached and the unchanged poll is cheap again.
    assert (
        live.get_version(table.game.pk)
        == table.game.__class__.objects.get(pk=table.game.pk).version
    )
    assert watching[0].poll() == 204
    lesson.assert_no_move_lost_or_doubled()
