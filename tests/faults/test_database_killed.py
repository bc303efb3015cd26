"""PostgreSQL connections ended under the site (pg_terminate_backend: a database restart, a
failover, an administrator's cleanup). The pool checks each connection as it hands it out, so a
dead one is replaced and no request fails.

The pool's check reads the connection's socket without a round trip (config/database.py), so it
sees an ended connection once its server process has gone: pg_terminate_backend only signals the
process, and the test waits for it to exit, as a restart has before the site's next request.
A query sent in between fails under any check, as one already in flight when the server is
stopped does."""

import pytest
from django.db import connection
from django.urls import reverse

from tests.conftest import skip_without_server
from tests.faults.conftest import connect_outside_the_pool, end_server_processes
from tests.faults.lesson import Lesson, WatchingScreen
from tests.games.conftest import start_live_table

pytestmark = pytest.mark.django_db(transaction=True)


def _pooled_backend() -> int:
    """The server process behind the connection the pool hands out next; back to the pool."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    connection.close()  # with a pool: returned to it, still open
    return pid


def _end_every_connection() -> set[int]:
    """End every connection to the test database from outside the pool; return once their
    server processes have exited."""
    with connect_outside_the_pool("postgres") as admin:
        pids = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [connection.settings_dict["NAME"]],
        ).fetchall()
        return end_server_processes(admin, [pid for (pid,) in pids])


def test_requests_after_the_pools_connections_are_ended_all_succeed(
    open_session, teacher, students, device_client, teacher_client
):
    if connection.vendor != "postgresql":
        skip_without_server("ending PostgreSQL connections needs PostgreSQL")
    # A pool of its own: earlier browser tests' server threads may still hold connections
    # checked out of the shared one, and a pool with none left to hand out would time out
    # whatever this test does.
    connection.close()
    connection.close_pool()
    table = start_live_table(open_session, teacher, students, device_client)
    lesson = Lesson(table)
    screen = WatchingScreen.open("device of team 2", table.devices[1], reverse("games:device"))
    failures = []
    for _ in range(3):
        pid = _pooled_backend()
        assert pid in _end_every_connection(), "the pooled connection was not ended"
        # The first request after the kill draws the dead connection from the pool.
        for name, client, url in [
            (
                "teacher page",
                teacher_client,
                reverse("games:teacher_tables", args=[open_session.pk]),
            ),
            ("device page", table.devices[0], reverse("games:device")),
        ]:
            response = client.get(url)
            if response.status_code != 200:
                failures.append((name, response.status_code))
        lesson.move()
        screen.poll()
        assert _pooled_backend() != pid
    assert failures == []
    assert screen.is_current(table.game)
    lesson.assert_no_move_lost_or_doubled()
