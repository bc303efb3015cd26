"""The pool's connection check (config/database.py): no round trip for a live connection, the
full check for one whose server process was ended."""

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from config.database import check_connection
from tests.conftest import skip_without_server
from tests.faults.conftest import connect_outside_the_pool, end_server_processes

pytestmark = pytest.mark.django_db


class _NoQueries:
    """A connection that fails the test if anything is sent on it."""

    def __init__(self, conn: psycopg.Connection) -> None:
        self._conn = conn
        self.autocommit = conn.autocommit

    closed = property(lambda self: self._conn.closed)
    broken = property(lambda self: self._conn.broken)

    def fileno(self) -> int:
        return self._conn.fileno()

    def execute(self, *args, **kwargs):
        raise AssertionError("the check sent a query on a quiet connection")


@pytest.fixture
def own_connection():
    if connection.vendor != "postgresql":
        skip_without_server("the pool's check needs PostgreSQL")
    with connect_outside_the_pool() as conn:
        yield conn


def test_the_settings_pool_uses_this_check():
    if connection.vendor != "postgresql":
        skip_without_server("the pool is PostgreSQL's")
    assert settings.DATABASES["default"]["OPTIONS"]["pool"]["check"] is check_connection


def test_a_live_connection_passes_without_a_round_trip(own_connection):
    own_connection.execute("SELECT 1").fetchone()
    check_connection(_NoQueries(own_connection))  # raises if it sends anything
    check_connection(own_connection)


def test_a_connection_whose_server_process_was_ended_fails_the_check(own_connection):
    with connect_outside_the_pool("postgres") as admin:
        assert end_server_processes(admin, [own_connection.info.backend_pid])
    with pytest.raises(psycopg.OperationalError):
        check_connection(own_connection)


def test_a_closed_connection_fails_the_check(own_connection):
    own_connection.close()
    with pytest.raises(ConnectionError):
        check_connection(own_connection)
