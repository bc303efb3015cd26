"""The worker's classroom jobs: the password reset e-mail, sent after the response, and clearing
expired sessions, run by Celery beat (CELERY_BEAT_SCHEDULE)."""

from importlib import import_module

from celery import shared_task
from django.conf import settings

from classroom import services
from classroom.lti import grades


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


@shared_task(name="classroom.lti_scores_send", bind=True, acks_late=True, max_retries=None)
def lti_scores_send(self, link_id: int) -> None:
    """Post a resource link's waiting scores (classroom/lti/grades.py); the rows hold every
    outcome. Tried again with a growing wait while the platform is away: a repeated or
    redelivered task is harmless, since a sender posts only what it claimed."""
    outcome = grades.scores_send(link_id=link_id)
    if outcome.retry_after is not None:
        raise self.retry(countdown=outcome.retry_after)


@shared_task(name="classroom.lti_scores_sweep", ignore_result=True)
def lti_scores_sweep() -> None:
    """Run by Celery beat every LTI_SCORE_SWEEP_SECONDS."""
    grades.scores_sweep()
