"""Small tasks that prove the worker is alive (the health page and the test suite use them),
and the password reset e-mail, sent after the response."""

from celery import shared_task
from django.core.cache import cache

from classroom import services


@shared_task(name="classroom.echo")
def echo(key: str, value: str) -> None:
    """Write `value` under `key` in the shared cache: a round trip web -> broker -> worker."""
    cache.set(key, value, timeout=300)


@shared_task(name="classroom.password_reset_send")
def password_reset_send(*, email: str, domain: str, use_https: bool) -> None:
    # The address, not a user id: looking the user up is exactly what the request must not do.
    services.password_reset_mail_send(email=email, domain=domain, use_https=use_https)
