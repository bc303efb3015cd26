"""classroom/signed_in.py reads a session's row and its account with one written-out statement:
it must load exactly what Django's database store and model backend load, for live, expired and
unknown keys, and active, inactive, unknown and garbled accounts alike; and the account column
the statement joins on is only a hint, never who is signed in."""

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session as DjangoSession
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from classroom.models import SignIn, User
from classroom.signed_in import AccountBackend, SessionStore, get_user
from tests.conftest import make_user

moving = importlib.import_module("classroom.migrations.0005_sign_ins")


class DjangoStoreOfSignIns(DjangoStore):
    """Django's own database store (the ORM's queries) over our table: what ours must equal."""

    key_salt = "django.contrib.sessions.SessionStore"  # Django's salts with the class's name

    @classmethod
    def get_model_class(cls):
        return SignIn


def _signed_in_data(user: User) -> dict:
    """A session's data as Django's login() leaves it."""
    return {
        SESSION_KEY: str(user.pk),
        BACKEND_SESSION_KEY: "classroom.signed_in.AccountBackend",
        HASH_SESSION_KEY: user.get_session_auth_hash(),
    }


@pytest.fixture
def saved(teacher) -> str:
    store = SessionStore()
    store.update(_signed_in_data(teacher))
    store["language"] = "es"
    store.save()
    return store.session_key


def _request(session_key: str):
    request = RequestFactory().get("/")
    request.session = SessionStore(session_key)
    return request


def test_a_live_session_loads_what_django_s_store_loads_and_its_account_in_one_statement(
    saved, teacher
):
    store = SessionStore(saved)
    with CaptureQueriesContext(connection) as queries:
        loaded = store.load()
    assert loaded == DjangoStoreOfSignIns(saved).load()
    assert loaded == {**_signed_in_data(teacher), "language": "es"}
    assert len(queries) == 1 and "classroom_signin" in queries[0]["sql"]
    assert store.account == teacher and store.account.email == teacher.email


@pytest.mark.parametrize("key", ["expired", "unknown"])
def test_an_expired_or_unknown_key_loads_nothing_and_is_forgotten(saved, key):
    if key == "expired":
        SignIn.objects.filter(pk=saved).update(expire_date=timezone.now() - timedelta(seconds=1))
        session_key = saved
    else:
        session_key = "x" * 32
    ours, django = SessionStore(session_key), DjangoStoreOfSignIns(session_key)
    assert ours.load() == django.load() == {}
    assert ours.session_key is None and django.session_key is None
    assert ours.account is None


@pytest.mark.parametrize(
    ("value", "column"),
    [("7", 7), (None, None), ("x", None), ("99999999999999999999999", None)],
)
def test_saving_copies_the_data_s_account_into_the_column(db, value, column):
    store = SessionStore()
    if value is not None:
        store[SESSION_KEY] = value
    store["language"] = "es"
    store.save()
    assert SignIn.objects.get(pk=store.session_key).account_id == column


def test_a_signed_in_request_reads_its_session_and_account_in_one_statement(saved, teacher):
    request = _request(saved)
    with CaptureQueriesContext(connection) as queries:
        assert get_user(request) == teacher
    assert len(queries) == 1
    assert get_user(request) is get_user(request)  # looked up once a request


def test_the_column_is_only_a_hint_the_session_data_says_who_is_signed_in(saved, teacher):
    intruder = make_user("mallory@maple.test", teacher.school, name="Mallory")
    SignIn.objects.filter(pk=saved).update(account_id=intruder.pk)
    request = _request(saved)
    with CaptureQueriesContext(connection) as queries:
        assert get_user(request) == teacher
    assert len(queries) == 2  # the account read with the session was not the data's: read again


def test_an_account_made_inactive_is_signed_out_though_read_with_the_session(saved, teacher):
    User.objects.filter(pk=teacher.pk).update(is_active=False)
    assert not get_user(_request(saved)).is_authenticated


def test_an_account_deleted_is_signed_out(saved, teacher):
    SignIn.objects.filter(pk=saved).update(account_id=None)  # as if saved before it had one
    User.objects.filter(pk=teacher.pk).delete()
    assert not get_user(_request(saved)).is_authenticated


def test_a_signed_in_teacher_stays_signed_in_and_signs_out(teacher_client, teacher):
    page = teacher_client.get("/")
    assert page.wsgi_request.user == teacher
    key = teacher_client.cookies["sessionid"].value
    assert SignIn.objects.get(pk=key).account_id == teacher.pk
    teacher_client.post("/accounts/logout/")
    assert not SignIn.objects.filter(pk=key).exists()


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


def test_the_upgrade_moves_live_sessions_so_nobody_signed_in_is_signed_out(teacher):
    """Sessions saved by Django's store before migration 0005 still sign their teacher in."""

    def django_session(expires_in: timedelta) -> str:
        store = DjangoStore()
        store.update(_signed_in_data(teacher))
        store.set_expiry(expires_in)
        store.save()
        return store.session_key

    signed_in, expired = django_session(timedelta(days=1)), django_session(timedelta(seconds=-1))
    moving.move_sign_ins(apps, None)

    assert not DjangoSession.objects.filter(pk__in=[signed_in, expired]).exists()
    assert list(SignIn.objects.values_list("pk", "account_id")) == [(signed_in, teacher.pk)]
    client = Client()
    client.cookies["sessionid"] = signed_in
    assert client.get("/").wsgi_request.user == teacher
