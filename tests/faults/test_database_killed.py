"""PostgreSQL connections ended under the site (pg_terminate_backend: a database restart, a
failover, an administrator's cleanup). The pool checks each connection as it hands it out, so a
dead one is replaced and no request fails. A connection ended while a request is using it (the
check cannot see the future) is met by classroom.ended_connections: the request runs again where
that is safe, and otherwise answers a "try again" page (503); never a 500.

The pool's check reads the connection's socket without a round trip (config/database.py), so it
sees an ended connection once its server process has gone: pg_terminate_backend only signals the
process, and the test waits for it to exit, as a restart has before the site's next request.
A query sent in between fails under any check, as one already in flight when the server is
stopped does."""

import contextlib
import json

import pytest
from django.db import connection
from django.urls import reverse

from games.models import Move
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


class EndConnectionAt:
    """A `connection.execute_wrapper` that ends the connection's server process (and waits for
    it to exit) just before the `at`-th statement goes out: PostgreSQL stopping while a request
    is using its connection."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.seen = 0
        self.ended: list[int] = []

    def __call__(self, execute, sql, params, many, context):
        self.seen += 1
        if self.seen == self.at:
            pid = context["connection"].connection.info.backend_pid
            with connect_outside_the_pool("postgres") as admin:
                self.ended.extend(end_server_processes(admin, [pid]))
        return execute(sql, params, many, context)


@contextlib.contextmanager
def ending_the_connection_at(at: int):
    ender = EndConnectionAt(at)
    with connection.execute_wrapper(ender):
        yield ender
    assert ender.ended, f"the request sent fewer than {at} statements"


@pytest.fixture
def own_pool():
    if connection.vendor != "postgresql":
        skip_without_server("ending PostgreSQL connections needs PostgreSQL")
    # A pool of its own: earlier browser tests' server threads may still hold connections
    # checked out of the shared one, and a pool with none left to hand out would time out
    # whatever this test does.
    connection.close()
    connection.close_pool()


@pytest.mark.parametrize("at", [1, 2, 3])
def test_a_page_whose_connection_is_ended_while_it_reads_is_read_again(
    own_pool, open_session, teacher_client, at
):
    url = reverse("classroom:session_detail", args=[open_session.pk])
    with ending_the_connection_at(at):
        response = teacher_client.get(url)
    assert response.status_code == 200
    assert open_session.room_code in response.content.decode()


def test_a_move_whose_connection_is_ended_before_its_first_statement_goes_through(
    own_pool, open_session, teacher, students, device_client
):
    """Nothing of the move reached the database: it is sent again, and applied once."""
    table = start_live_table(open_session, teacher, students, device_client)
    lesson = Lesson(table)
    with ending_the_connection_at(1):
        lesson.move()
    lesson.assert_no_move_lost_or_doubled()
    assert len(lesson.accepted) == 1


def test_a_move_whose_connection_is_ended_after_it_began_answers_try_again(
    own_pool, open_session, teacher, students, device_client
):
    """Statements of the move had gone out: it is not run again blindly. The device is told to
    try again (503 with a page saying so, not a 500), nothing was saved, and its next tap of the
    same button goes through once."""
    table = start_live_table(open_session, teacher, students, device_client)
    lesson = Lesson(table)
    device, posted = lesson.next_tap()
    before = Move.objects.filter(game=table.game).count()
    with ending_the_connection_at(3):
        response = device.post(
            reverse("games:move", args=[table.game.pk]),
            {
                "action": json.dumps(posted["action"]),
                "version": posted["version"],
                "client_move_id": posted["move_id"],
            },
            headers={"HX-Request": "true"},
        )
    assert response.status_code == 503
    assert response.headers["Retry-After"]
    assert "Try again in a moment" in response.content.decode()
    assert Move.objects.filter(game=table.game).count() == before
    lesson.tap_again(device, posted)
    lesson.accepted.append(posted["move_id"])
    lesson.assert_no_move_lost_or_doubled()


def test_the_try_again_page_is_in_the_device_language(
    own_pool, open_session, teacher, students, device_client
):
    table = start_live_table(open_session, teacher, students, device_client)
    device, posted = Lesson(table).next_tap()
    device.cookies["django_language"] = "es"
    with ending_the_connection_at(3):
        response = device.post(
            reverse("games:move", args=[table.game.pk]),
            {
                "action": json.dumps(posted["action"]),
                "version": posted["version"],
                "client_move_id": posted["move_id"],
            },
        )
    assert response.status_code == 503
    assert "Vuelve a intentarlo en un momento" in response.content.decode()


def test_requests_after_the_pools_connections_are_ended_all_succeed(
    own_pool, open_session, teacher, students, device_client, teacher_client
):
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
