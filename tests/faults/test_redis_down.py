"""Redis down for a while, mid-lesson, then back with the keys it had saved (a production Redis
with persistence): pages, moves and polls carry on from the database, /healthz says degraded, an
export asked for meanwhile is not lost, and afterwards no screen trusts a version from before."""

import pytest
from celery.contrib.testing.worker import start_worker
from django.core.cache import cache
from django.urls import reverse

from config.cache import cache_answered
from config.celery import app as celery_app
from games import live
from games.models import TableGame
from reports.models import Export, ExportStatus
from reports.services import exports_sweep_stuck
from tests.conftest import wait_until
from tests.faults.lesson import Lesson, WatchingScreen
from tests.games.conftest import start_live_table

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def version(game) -> int:
    return TableGame.objects.get(pk=game.pk).version


def test_a_lesson_carries_on_through_redis_going_down_and_coming_back_stale(
    private_redis, open_session, teacher, students, device_client, teacher_client, client,
    classroom, settings, tmp_path,
):  # fmt: skip
    settings.MEDIA_ROOT = tmp_path / "media"
    table = start_live_table(open_session, teacher, students, device_client)
    lesson = Lesson(table)
    session = table.session.pk
    polling = [
        WatchingScreen.open("device of team 2", table.devices[1], reverse("games:device")),
        WatchingScreen.open(
            "grid", teacher_client, reverse("games:projector_grid", args=[session])
        ),
        WatchingScreen.open(
            "teacher", teacher_client, reverse("games:teacher_tables", args=[session])
        ),
    ]
    # A projector whose polls do not get through during the outage (its network dropped too):
    # afterwards it must not trust the version Redis kept from before.
    asleep = WatchingScreen.open(
        "projector", teacher_client, reverse("games:projector", args=[table.game.pk])
    )
    before = version(table.game)
    for screen in [*polling, asleep]:
        assert screen.is_current(table.game)

    private_redis.stop()

    health = client.get(reverse("classroom:healthz"))
    assert health.status_code == 200
    assert health.json()["status"] == "degraded"
    assert health.json()["checks"] == {"database": "ok", "broker": "down", "cache": "down"}
    for _ in range(4):
        device, posted = lesson.move()
        for screen in polling:
            screen.poll()  # drawn from the database: never stale, even now
            assert screen.shown_version(table.game) == version(table.game), screen.name
    lesson.tap_again(device, posted)
    for page in (
        reverse("games:teacher_tables", args=[session]),
        reverse("classroom:dashboard"),
        reverse("classroom:class_detail", args=[classroom.pk]),
    ):
        assert teacher_client.get(page).status_code == 200, page
    # The join throttle counts in Redis: a wrong code still gets its clear answer, not a 500.
    assert client.post(reverse("classroom:join"), {"code": "ZZZZZZ"}).status_code in (200, 400)
    # An export asked for now: its task cannot be sent, and the row stays queued (the truth).
    answer = teacher_client.post(
        reverse("reports:export_create"), {"kind": "class", "target": classroom.pk}
    )
    assert answer.status_code == 302
    export = Export.objects.get()
    assert export.status == ExportStatus.QUEUED

    private_redis.start()
    # Redis came back with the version it saved before the outage: stale.
    stale = private_redis.client().get(f"faults:1:{live.version_key(table.game.pk)}")
    assert int(stale) == before < version(table.game)

    # The process takes Redis back (its pause after connection errors is over) ...
    wait_until(lambda: cache_answered(lambda: cache.get("probe"))[0], 5, "the cache answers again")
    # ... and the screen that slept through the outage polls first, before any page drawn from
    # the database could heal the cached version for it.
    for screen in [asleep, *polling]:
        wait_until(lambda s=screen: s.is_current(table.game), 5, f"{screen.name} is current")
    lesson.move()
    for screen in [*polling, asleep]:
        wait_until(lambda s=screen: s.is_current(table.game), 5, f"{screen.name} is current")
    lesson.assert_no_move_lost_or_doubled()

    # The sweeper (Celery beat in production) sends the export's task again; a worker makes it.
    settings.REPORTS_RESEND_SECONDS = 0
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=20):

        def ready():
            exports_sweep_stuck()
            export.refresh_from_db()
            return export.status in (ExportStatus.READY, ExportStatus.FAILED)

        wait_until(ready, 90, "the export made after the outage")
    assert export.status == ExportStatus.READY, export.error
    assert Export.objects.count() == 1
