"""Django's database sessions, with the session's row read by one written-out statement.

Every page and every live redraw of a signed-in teacher or administrator reads its session row:
the projector grid's poll, served from the cache, is little more than that read, the account's
and the permission check (games.views.regions). The ORM takes longer to build this one-table
query than the database takes to answer it; the statement is the same query, and the rest of
Django's database store (writes, expiry, key rotation) is unchanged.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.utils import timezone


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        table = self.model._meta.db_table
        rows = self.model.objects.raw(
            f"SELECT session_key, session_data, expire_date FROM {table}"
            " WHERE session_key = %s AND expire_date > %s",
            [self.session_key, timezone.now()],
        )
        found = next(iter(rows), None)
        if found is None:  # as Django's store: a key not found is forgotten, and a new one made
            self._session_key = None
        return found
