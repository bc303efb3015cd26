"""A real round trip: the task goes through the broker the settings name (Redis when REDIS_URL
is set, the embedded SQLite broker otherwise) to a real worker, which writes to the cache."""

import uuid

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.core.cache import caches

from config.celery import app as celery_app


@celery_app.task(name="tests.echo")
def echo(key: str, value: str) -> None:
    """Write `value` under `key` in the shared cache: a round trip test -> broker -> worker
    (the in-process worker below runs this app, so it knows this test-only task)."""
    caches["default"].set(key, value, timeout=300)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_task_round_trip_through_a_real_worker_on_the_configured_broker():
    key, value = f"echo-{uuid.uuid4().hex}", uuid.uuid4().hex
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        echo.delay(key, value)
        cache = caches.create_connection("default")
        for _ in range(100):
            if cache.get(key) == value:
                break
            import time

            time.sleep(0.1)
    assert cache.get(key) == value
    expected = "redis" if settings.REDIS_URL else "sqla+sqlite"
    assert celery_app.conf.broker_url.startswith(expected)
