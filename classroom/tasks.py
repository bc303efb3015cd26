"""The password reset e-mail, sent by the worker after the response."""

from celery import shared_task

from classroom import services


@shared_task(name="classroom.password_reset_send")
def password_reset_send(
    *, email: str, domain: str, use_https: bool, language: str | None = None
) -> None:
    # The address, not a user id: looking the user up is exactly what the request must not do.
    services.password_reset_mail_send(
        email=email, domain=domain, use_https=use_https, language=language
    )
