"""The migrations that move signed-in sessions keep whoever was signed in before the upgrade
signed in after it. 0006 moves the sessions from SignIn back to Django's table (expired ones are
left behind; undone, it moves them into SignIn again, as the old store saved them); 0010 renames
their backend from ModelBackend to classroom.authentication.AccountBackend."""

from datetime import timedelta

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from django.utils import timezone

BEFORE = ("classroom", "0005_sign_ins")
OLD_BACKEND = "classroom.signed_in.AccountBackend"


def _migrate(target: tuple[str, str] | None = None):
    """Migrates to `target` (default: the latest); the apps as they are there."""
    executor = MigrationExecutor(connection)
    targets = [target] if target else executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def alice(transactional_db, django_user_model):
    """An account, in a test free to migrate the database (left at the latest schema)."""
    yield django_user_model.objects.create_user("alice@maple.test", "a-long-passphrase-1")
    _migrate()  # whatever the test left, the latest schema for the tests after it


def test_the_upgrade_keeps_every_signed_in_teacher_signed_in(alice):
    sign_in = _migrate(BEFORE).get_model("classroom", "SignIn")
    # As the old store saved a sign-in: Django's data, naming the old backend, and the column.
    data = {
        SESSION_KEY: str(alice.pk),
        BACKEND_SESSION_KEY: OLD_BACKEND,
        HASH_SESSION_KEY: alice.get_session_auth_hash(),
    }
    now = timezone.now()
    for key, expires in [("live" * 8, now + timedelta(days=1)), ("gone" * 8, now)]:
        sign_in.objects.create(
            session_key=key,
            session_data=SessionStore().encode(data),
            expire_date=expires,
            account_id=alice.pk,
        )

    _migrate()

    assert list(Session.objects.values_list("pk", flat=True)) == ["live" * 8]
    client = Client()
    client.cookies["sessionid"] = "live" * 8
    assert client.get(reverse("classroom:dashboard")).wsgi_request.user == alice


def test_undoing_it_moves_the_sessions_back_into_sign_ins(alice):
    client = Client()
    client.force_login(alice)
    key = client.cookies["sessionid"].value

    sign_in = _migrate(BEFORE).get_model("classroom", "SignIn")

    assert not Session.objects.exists()
    row = sign_in.objects.get()
    assert (row.session_key, row.account_id) == (key, alice.pk)
    assert SessionStore().decode(row.session_data)[BACKEND_SESSION_KEY] == OLD_BACKEND


# Migration 0010: the sessions' backend becomes classroom.authentication.AccountBackend.
BEFORE_ACCOUNT_BACKEND = ("classroom", "0009_lti_scores_and_session_links")
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
ACCOUNT_BACKEND = "classroom.authentication.AccountBackend"


def _backend_of(session_key: str) -> str:
    row = Session.objects.get(pk=session_key)
    return SessionStore().decode(row.session_data)[BACKEND_SESSION_KEY]


def test_the_account_backend_keeps_every_signed_in_teacher_signed_in(alice, settings):
    _migrate(BEFORE_ACCOUNT_BACKEND)
    settings.AUTHENTICATION_BACKENDS = [MODEL_BACKEND]  # as the site was then
    client = Client()
    client.force_login(alice)
    # A page read, so the cache holds the session's copy as the old site left it.
    assert client.get(reverse("classroom:dashboard")).wsgi_request.user == alice
    key = client.cookies["sessionid"].value

    settings.AUTHENTICATION_BACKENDS = [ACCOUNT_BACKEND]
    _migrate()

    assert _backend_of(key) == ACCOUNT_BACKEND
    assert client.get(reverse("classroom:dashboard")).wsgi_request.user == alice


def test_undoing_the_account_backend_names_model_backend_again(alice, settings):
    client = Client()
    client.force_login(alice)
    key = client.cookies["sessionid"].value
    assert _backend_of(key) == ACCOUNT_BACKEND

    _migrate(BEFORE_ACCOUNT_BACKEND)

    assert _backend_of(key) == MODEL_BACKEND
    settings.AUTHENTICATION_BACKENDS = [MODEL_BACKEND]
    assert client.get(reverse("classroom:dashboard")).wsgi_request.user == alice
