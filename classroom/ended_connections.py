"""A request that meets a database connection PostgreSQL has ended is tried again once where
that is safe, and otherwise answers a "try again" page: never a 500.

The pool checks each connection as it hands it out (config/database.py), but a connection can
still be ended in between: its server process is told to stop and has not yet closed the socket
when the check looks, or the server stops while a request is using it. The query then fails with
OperationalError (or InterfaceError on a connection psycopg already knows is closed).

When the request can be run again:
- a read (GET, HEAD) changes nothing, so it is run once more on a fresh connection;
- any request whose first statement was the one that failed: nothing reached the database in
  this request (a transaction's BEGIN goes out with its first statement), so running it again
  is running it for the first time. This is the case of a connection ended between requests.

Anything else (a write that had already sent statements, or a second failure) answers 503 with
a translated page asking to try again. The page is drawn without the database (no context
processors, nothing signed-in), since the database may be what is failing.

Exceptions raised by a view reach `process_exception`, which recovers before Django logs an
error; one raised by a middleware below this one has already become a 500 response when
`__call__` sees it, so the same recovery is applied to that response.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass

from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

SAFE_METHODS = ("GET", "HEAD")
TRY_AGAIN_SECONDS = 5


@dataclass
class _Attempt:
    """What the database saw of the request's current attempt."""

    statements: int = 0  # statements that went through
    ended: bool = False  # a statement failed on a connection that is now gone
    retried: bool = False
    recovered: bool = False

    def __call__(self, execute, sql, params, many, context):
        """A `connection.execute_wrapper`: counts statements and notes an ended connection."""
        try:
            result = execute(sql, params, many, context)
        except (OperationalError, InterfaceError):
            self.ended = self.ended or connection_ended()
            raise
        self.statements += 1
        return result


_attempt: ContextVar[_Attempt | None] = ContextVar("ended_connections_attempt", default=None)


def connection_ended() -> bool:
    """True when a database connection of this thread is closed or broken: the server ended
    it (or never answered), as opposed to a statement it refused (a lock timeout, SQLite's
    "database is locked"), which leaves the connection usable."""
    for conn in connections.all(initialized_only=True):
        raw = conn.connection
        if raw is None or getattr(raw, "closed", False) or getattr(raw, "broken", False):
            return True
    return False


def _drop_ended_connections() -> None:
    """Hand back the ended connections: the pool discards a broken one, and the next statement
    draws a checked one."""
    for conn in connections.all(initialized_only=True):
        raw = conn.connection
        if raw is not None and (getattr(raw, "closed", False) or getattr(raw, "broken", False)):
            conn.close()


def try_again_page() -> HttpResponse:
    response = HttpResponse(render_to_string("try_again.html"), status=503)
    response.headers["Retry-After"] = str(TRY_AGAIN_SECONDS)
    return response


class EndedConnectionMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        attempt = _Attempt()
        token = _attempt.set(attempt)
        try:
            with connections["default"].execute_wrapper(attempt):
                response = self.get_response(request)
                if response.status_code >= 500 and attempt.ended and not attempt.recovered:
                    response = self._recover(request, attempt)
        finally:
            _attempt.reset(token)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        attempt = _attempt.get()
        if attempt is None or not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        if not (attempt.ended or connection_ended()):
            return None
        return self._recover(request, attempt)

    def _recover(self, request: HttpRequest, attempt: _Attempt) -> HttpResponse:
        attempt.recovered = True
        _drop_ended_connections()
        safe = request.method in SAFE_METHODS or attempt.statements == 0
        if attempt.retried or not safe:
            return try_again_page()
        attempt.retried = True
        attempt.statements = 0
        attempt.ended = False
        response = self.get_response(request)
        if response.status_code >= 500 and attempt.ended:
            _drop_ended_connections()
            return try_again_page()
        return response
