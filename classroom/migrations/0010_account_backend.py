"""Signed-in sessions name the site's own backend (classroom.authentication.AccountBackend, a
ModelBackend that reads the account with one raw statement) instead of ModelBackend, so that
nobody signed in is signed out by the upgrade.

A session's copy in the cache (classroom.sessions keeps one a minute) still names the old
backend: each renamed session's copy is deleted, and its next request reads the renamed row. A
cache that does not answer is passed over (config/cache.py), and such a copy expires within the
minute."""

from django.conf import settings
from django.contrib.sessions.backends.cached_db import SessionStore
from django.core.cache import caches
from django.db import migrations
from django.utils import timezone

from classroom.migrations._session_backends import with_backend

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
ACCOUNT_BACKEND = "classroom.authentication.AccountBackend"


def _rename(apps, old: str, new: str) -> None:
    session = apps.get_model("sessions", "Session")
    renamed = []
    for row in session.objects.filter(expire_date__gt=timezone.now()).iterator():
        data = with_backend(row.session_data, old, new)
        if data != row.session_data:
            row.session_data = data
            renamed.append(row)
    session.objects.bulk_update(renamed, ["session_data"], batch_size=500)
    # The store's own cache and keys (classroom.sessions keeps cached_db's).
    caches[settings.SESSION_CACHE_ALIAS].delete_many(
        [SessionStore(row.session_key).cache_key for row in renamed]
    )


def to_account_backend(apps, schema_editor):
    _rename(apps, MODEL_BACKEND, ACCOUNT_BACKEND)


def to_model_backend(apps, schema_editor):
    _rename(apps, ACCOUNT_BACKEND, MODEL_BACKEND)


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0009_lti_scores_and_session_links"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(to_account_backend, to_model_backend)]
