"""Django's database sessions and accounts, each signed-in request's two rows read by one
written-out statement apiece.

Every page and every live redraw of a signed-in teacher or administrator reads its session row
and its account: the projector grid's poll, served from the cache, is little more than those two
reads and the permission check (games.views.regions). The ORM takes longer to build each
one-table query than the database takes to answer it, and `raw()` maps a row's columns to the
model's fields anew for every query; the statements are the same queries, their rows built by
classroom.rows, and the rest of Django's database store (writes, expiry, key rotation) and of
its model backend (signing in, permissions, the inactive account refused) is unchanged.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends import db
from django.core.exceptions import ValidationError
from django.utils import timezone

from classroom import rows


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        found = rows.first(
            _session_statement(self.model), [self.session_key, timezone.now()], self.model, "s"
        )
        if found is None:  # as Django's store: a key not found is forgotten, and a new one made
            self._session_key = None
        return found


@cache
def _session_statement(model) -> str:
    return (
        f"SELECT {rows.columns(model, 's')} FROM {model._meta.db_table} s"
        " WHERE s.session_key = %s AND s.expire_date > %s"
    )


@cache
def _account_statement() -> str:
    model = get_user_model()
    return (
        f"SELECT {rows.columns(model, 'u')} FROM {model._meta.db_table} u"
        f" WHERE u.{model._meta.pk.column} = %s"
    )


class AccountBackend(ModelBackend):
    def get_user(self, user_id):
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)
        except ValidationError:  # as ModelBackend: an id that names no account finds nobody
            return None
        user = rows.first(_account_statement(), [pk], model, "u")
        return user if user is not None and self.user_can_authenticate(user) else None
