"""Sessions are Django's cached_db with a short-lived cached copy (classroom/sessions.py): a
signed-in request reads no session row while the copy lives, sign-out ends the session at once,
and a copy the cache kept by mistake (a sign-out Redis did not hear) outlives it only briefly."""

from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from classroom import sessions
from tests.conftest import wait_until

SESSION_TABLE = Session._meta.db_table


def _session_reads(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("classroom:dashboard"))
    assert response.status_code == 200
    return sum(SESSION_TABLE in query["sql"] for query in queries)


def test_a_signed_in_request_reads_the_session_from_the_cache(teacher_client):
    _session_reads(teacher_client)  # the first read fills the cache
    assert _session_reads(teacher_client) == 0


def test_signing_out_ends_the_session_even_while_its_copy_was_cached(teacher_client):
    _session_reads(teacher_client)
    cookie = teacher_client.cookies["sessionid"].value
    teacher_client.post(reverse("logout"))
    teacher_client.cookies["sessionid"] = cookie  # someone kept the old cookie
    response = teacher_client.get(reverse("classroom:dashboard"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_a_copy_left_behind_by_a_missed_sign_out_expires(teacher_client, monkeypatch):
    monkeypatch.setattr(sessions, "CACHE_SECONDS", 1)
    key = teacher_client.cookies["sessionid"].value
    cache.delete(sessions.SessionStore.cache_key_prefix + key)  # signing in cached it for longer
    _session_reads(teacher_client)
    # The sign-out reached the database but not the cache (Redis did not answer).
    Session.objects.filter(pk=key).delete()
    assert cache.get(sessions.SessionStore.cache_key_prefix + key) is not None

    def signed_out() -> bool:
        return teacher_client.get(reverse("classroom:dashboard")).status_code == 302

    wait_until(signed_out, timeout=30, what="the cached copy of a deleted session to expire")
