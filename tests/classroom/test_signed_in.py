"""classroom/signed_in.py reads a session's row with one written-out statement: it must load
exactly what Django's database store loads, for live, expired and unknown keys alike."""

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from classroom.signed_in import SessionStore


@pytest.fixture
def saved(db) -> str:
    store = SessionStore()
    store["_auth_user_id"] = "7"
    store["language"] = "es"
    store.save()
    return store.session_key


def test_a_live_session_loads_what_django_s_store_loads_in_one_statement(saved):
    with CaptureQueriesContext(connection) as queries:
        loaded = SessionStore(saved).load()
    assert loaded == DjangoStore(saved).load() == {"_auth_user_id": "7", "language": "es"}
    assert len(queries) == 1 and "django_session" in queries[0]["sql"]


@pytest.mark.parametrize("key", ["expired", "unknown"])
def test_an_expired_or_unknown_key_loads_nothing_and_is_forgotten(saved, key):
    if key == "expired":
        Session.objects.filter(pk=saved).update(expire_date=timezone.now() - timedelta(seconds=1))
        session_key = saved
    else:
        session_key = "x" * 32
    ours, django = SessionStore(session_key), DjangoStore(session_key)
    assert ours.load() == django.load() == {}
    assert ours.session_key is None and django.session_key is None


def test_a_signed_in_teacher_stays_signed_in_and_signs_out(teacher_client, teacher):
    page = teacher_client.get("/")
    assert page.wsgi_request.user == teacher
    key = teacher_client.cookies["sessionid"].value
    assert Session.objects.filter(pk=key).exists()
    teacher_client.post("/accounts/logout/")
    assert not Session.objects.filter(pk=key).exists()
