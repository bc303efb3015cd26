"""Password reset: the request answers alike for any address and sends nothing itself; the
worker sends Django's reset e-mail after the response, only to an address with an account."""

import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.core import mail
from django.urls import reverse

from config.celery import app as celery_app


def _ask(client, email: str):
    return client.post(reverse("password_reset"), {"email": email})


@pytest.mark.parametrize("email", ["alice@maple.test", "nobody@maple.test"])
def test_the_request_sends_nothing_itself_and_queues_the_same_work_for_any_address(
    teacher, client, django_capture_on_commit_callbacks, email
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = _ask(client, email)
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []
    assert len(callbacks) == 1


def _wait_for_mail(count: int) -> None:
    for _ in range(300):
        if len(mail.outbox) >= count:
            return
        time.sleep(0.1)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_worker_sends_the_reset_mail_only_to_an_account(teacher, client):
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        # The unknown address goes first: the solo worker takes tasks in order, so once the
        # known address's mail is there, the unknown one was handled (and sent nothing).
        _ask(client, "nobody@maple.test")
        _ask(client, "alice@maple.test")
        _wait_for_mail(1)
    assert [message.to for message in mail.outbox] == [["alice@maple.test"]]
    assert "/accounts/reset/" in mail.outbox[0].body
    assert "testserver" in mail.outbox[0].body
