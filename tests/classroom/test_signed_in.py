"""classroom/signed_in.py reads a session's row and its account with one written-out statement
each: they must load exactly what Django's database store and model backend load, for live,
expired and unknown keys, and active, inactive, unknown and garbled accounts alike."""

from datetime import timedelta

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from classroom.signed_in import AccountBackend, SessionStore


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


@pytest.mark.parametrize("case", ["active", "inactive", "unknown", "garbled"])
def test_the_account_loads_as_django_s_model_backend_loads_it_in_one_statement(teacher, case):
    user_id = {"active": teacher.pk, "inactive": teacher.pk, "unknown": 999_999, "garbled": "x"}
    if case == "inactive":
        teacher.is_active = False
        teacher.save(update_fields=["is_active"])
    with CaptureQueriesContext(connection) as queries:
        ours = AccountBackend().get_user(user_id[case])
    assert len(queries) == (0 if case == "garbled" else 1)
    django = ModelBackend().get_user(user_id[case]) if case != "garbled" else None
    assert ours == django
    if case == "active":
        assert ours.pk == teacher.pk and ours.email == teacher.email
        fields = [f.attname for f in type(teacher)._meta.concrete_fields]
        assert {f: getattr(ours, f) for f in fields} == {f: getattr(django, f) for f in fields}
    else:
        assert ours is None


def test_a_changed_password_still_signs_the_old_session_out(teacher_client, teacher):
    assert teacher_client.get("/").wsgi_request.user == teacher
    teacher.set_password("a-new-long-passphrase-42")
    teacher.save()
    assert not teacher_client.get("/").wsgi_request.user.is_authenticated


def test_signing_up_signs_the_new_teacher_in_with_the_one_backend(client, db):
    response = client.post(
        "/accounts/signup/",
        {
            "display_name": "Ada Lovelace",
            "email": "ada@example.test",
            "school_name": "Analytical Elementary",
            "password": "a-long-enough-passphrase-1",
        },
    )
    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == "classroom.signed_in.AccountBackend"
    assert client.get("/").wsgi_request.user.email == "ada@example.test"
