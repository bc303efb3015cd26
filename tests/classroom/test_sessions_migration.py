"""Migration 0006 moves the sessions from SignIn back to Django's table: whoever was signed in
before the upgrade is still signed in after it, and expired sessions are left behind. Undone, it
moves them into SignIn again, as the old store saved them."""

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
