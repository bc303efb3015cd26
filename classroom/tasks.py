"""Small tasks that prove the worker is alive (the health page and the test suite use them)."""

from celery import shared_task
from django.core.cache import cache


@shared_task(name="classroom.echo")
def echo(key: str, value: str) -> None:
    """Write `value` under `key` in the shared cache: a round trip web -> broker -> worker."""
    cache.set(key, value, timeout=300)
