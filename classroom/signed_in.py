"""Django's database sessions and accounts, each signed-in request's session and account read by
one written-out statement.

Every page and every live redraw of a signed-in teacher or administrator reads its session row
and its account: the projector grid's poll, served from the cache, is little more than those
reads and the permission check (games.views.regions). The sessions live in our own table
(`SignIn`), which keeps the signed-in account's id as a column, so the session's row and the
account come from one statement; the ORM takes longer to build even a one-table query than the
database takes to answer it, so the statement is written out and its row built by
classroom.rows.

The account read with the session is handed to Django's own `auth.get_user` for this request
only (`_read_with_session`): Django still decides who is signed in, from the session data, and
still refuses an inactive account or a session whose password hash no longer matches. Where the
column and the data disagree, or for a request that reads the user some other way
(`request.auser`), the backend reads the account by its own statement. The rest of Django's
database store (writes, expiry, key rotation) and of its model backend is unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache

from django.contrib import auth
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthentication
from django.contrib.sessions.backends import db
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from classroom import sql as rows

_read_with_session: ContextVar = ContextVar("account read with the session", default=None)


class SessionStore(db.SessionStore):
    # The account the session's row named when it was read (None: none, or not read yet).
    account = None

    @classmethod
    def get_model_class(cls):
        from classroom.models import SignIn

        return SignIn

    def _get_session_from_db(self):
        found = rows.first_all(
            _session_statement(),
            [self.session_key, timezone.now()],
            (self.model, "s"),
            (get_user_model(), "u"),
            joined=True,
        )
        if found is None:  # as Django's store: a key not found is forgotten, and a new one made
            self._session_key = None
            return None
        session, self.account = found
        return session

    def create_model_instance(self, data):
        sign_in = super().create_model_instance(data)
        sign_in.account_id = _account_id(data.get(SESSION_KEY))
        return sign_in


def _account_id(value) -> int | None:
    """The id of the session data's account as the column stores it; None for no account or a
    value no account could have (the column is only a hint: see SignIn)."""
    try:
        pk = get_user_model()._meta.pk.to_python(value)
    except ValidationError:
        return None
    return pk if isinstance(pk, int) and rows.storable_pk(get_user_model(), pk) else None


@cache
def _session_statement() -> str:
    from classroom.models import SignIn

    account = get_user_model()
    return (
        f"SELECT {rows.columns(SignIn, 's')}, {rows.columns(account, 'u')}"
        f" FROM {SignIn._meta.db_table} s"
        f" LEFT JOIN {account._meta.db_table} u ON u.{account._meta.pk.column} = s.account_id"
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
        user = _read_with_session.get()
        if user is None or user.pk != pk:
            user = rows.first(_account_statement(), [pk], model, "u")
        return user if user is not None and self.user_can_authenticate(user) else None


@contextmanager
def _account_of(session) -> Iterator[None]:
    """While Django's `auth.get_user` runs: the account `session`'s row brought, if any."""
    session.get(SESSION_KEY)  # reads the row (and its account) unless read already
    token = _read_with_session.set(getattr(session, "account", None))
    try:
        yield
    finally:
        _read_with_session.reset(token)


def get_user(request: HttpRequest):
    """django.contrib.auth.middleware.get_user (the request's user, looked up once), given the
    account read with the session."""
    if not hasattr(request, "_cached_user"):
        with _account_of(request.session):
            request._cached_user = auth.get_user(request)
    return request._cached_user


class AuthenticationMiddleware(DjangoAuthentication):
    """Django's, with `request.user` from `get_user` above."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: get_user(request))
