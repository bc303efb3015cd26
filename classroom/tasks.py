"""The worker's classroom jobs: the password reset e-mail, sent after the response, and clearing
expired sessions, run by Celery beat (CELERY_BEAT_SCHEDULE)."""

from importlib import import_module

from celery import shared_task
from django.conf import settings

from classroom import services


@shared_task(name="classroom.password_reset_send")
def password_reset_send(
    *, email: str, domain: str, use_https: bool, language: str | None = None
) -> None:
    # The address, not a user id: looking the user up is exactly what the request must not do.
    services.password_reset_mail_send(
        email=email, domain=domain, use_https=use_https, language=language
    )


@shared_task(name="classroom.clear_expired_sessions", ignore_result=True)
def clear_expired_sessions() -> None:
    """What Django's `clearsessions` command does: delete the sessions past their expiry date,
    which the database store keeps until asked."""
    import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()
