"""Sessions go back from SignIn to Django's own table, so that nobody signed in is signed out by
the upgrade: each live session keeps its key, data and expiry date.

The data is Django's format in both tables (the two stores sign with the same salt: both classes
are named SessionStore), but a session signed in through the old backend names it, and Django
signs out a session whose backend is not in AUTHENTICATION_BACKENDS: that one entry is renamed
to ModelBackend (and back, going back)."""

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations
from django.utils import timezone

from classroom.migrations._session_backends import with_backend as _with_backend

OLD_BACKEND = "classroom.signed_in.AccountBackend"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _account_id(session_data: str) -> int | None:
    try:
        return int(SessionStore().decode(session_data).get(SESSION_KEY))
    except (TypeError, ValueError):
        return None


def to_django_sessions(apps, schema_editor):
    sign_in, session = apps.get_model("classroom", "SignIn"), apps.get_model("sessions", "Session")
    live = sign_in.objects.filter(expire_date__gt=timezone.now())
    session.objects.bulk_create(
        [
            session(
                session_key=row.session_key,
                session_data=_with_backend(row.session_data, OLD_BACKEND, MODEL_BACKEND),
                expire_date=row.expire_date,
            )
            for row in live.iterator()
        ],
        batch_size=500,
    )


def to_sign_ins(apps, schema_editor):
    sign_in, session = apps.get_model("classroom", "SignIn"), apps.get_model("sessions", "Session")
    live = session.objects.filter(expire_date__gt=timezone.now())
    rows = []
    for row in live.iterator():
        data = _with_backend(row.session_data, MODEL_BACKEND, OLD_BACKEND)
        rows.append(
            sign_in(
                session_key=row.session_key,
                session_data=data,
                expire_date=row.expire_date,
                account_id=_account_id(data),
            )
        )
    sign_in.objects.bulk_create(rows, batch_size=500)
    # As migration 0005 left it: every session in SignIn (its own undoing moves them back here).
    session.objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ("classroom", "0005_sign_ins"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(to_django_sessions, to_sign_ins),
        migrations.DeleteModel(name="SignIn"),
    ]
