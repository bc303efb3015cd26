"""What the migrations that rename a session's backend share (a module Django's migration loader
skips: its name starts with an underscore).

Django signs out a session whose backend (`_auth_user_backend`) is not in
AUTHENTICATION_BACKENDS, so a migration that changes the backend renames it in every live
session, keeping each one's key, data and expiry date."""

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore


def with_backend(session_data: str, old: str, new: str) -> str:
    """The session's data, with backend `old` renamed `new`; any other data as it was."""
    store = SessionStore()
    data = store.decode(session_data)
    if data.get(BACKEND_SESSION_KEY) != old:
        return session_data
    return store.encode({**data, BACKEND_SESSION_KEY: new})
