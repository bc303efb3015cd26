"""Server push: a live screen's stream is served by another web process (uvicorn) than the one
making the move, so the change must cross processes: through Redis pub/sub when REDIS_URL is
set, through the shared cache otherwise (the embedded default).

Events carry no content (only "changed"), so nothing a viewer may not see travels in them; who
may hold a stream is checked like the redraw; a device the teacher frees loses its stream."""

import http.client
import re
import shutil
import sys
import threading
from html import unescape
from urllib.parse import quote

import pytest
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from classroom import services as classroom_services
from games.views import stream as stream_views
from tests.conftest import skip_or_fail
from tests.fuzz.values import NASTY
from tests.games.conftest import post_move, read_screen, start_live_table
from tests.support.streams import (
    ROOT,
    EventReader,
    StreamServer,
    cookie_header,
    stream_path,
)

sys.path.insert(0, str(ROOT / "benchmarks"))
import harness  # noqa: E402  -- the benchmarks' nginx, run from docker/nginx.conf

DRAW = {"type": "draw", "source": "deck"}

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server():
    running = StreamServer().start()
    yield running
    running.stop()


@pytest.fixture
def table(open_session, teacher, students, device_client):
    return start_live_table(open_session, teacher, students, device_client)


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def open_stream(server: StreamServer, client: Client, html: str) -> EventReader:
    reader = EventReader(server.port, stream_path(html), cookie_header(client))
    assert reader.status == 200
    assert reader.content_type.startswith("text/event-stream")
    assert reader.next_event() == ("hello", "")
    return reader


def move_once(table) -> None:
    device = table.devices[0]
    screen = read_screen(page(device, reverse("games:device")))
    response = post_move(
        device, table.game, DRAW, version=screen.version, move_id=screen.client_move_id
    )
    assert response.status_code == 200


def test_a_move_here_wakes_the_streams_another_process_serves(server, table, teacher_client):
    other_phone = open_stream(server, table.devices[1], page(table.devices[1], "/play/"))
    grid_html = page(teacher_client, reverse("games:projector_grid", args=[table.session.pk]))
    grid = open_stream(server, teacher_client, grid_html)
    projector_html = page(teacher_client, reverse("games:projector", args=[table.game.pk]))
    projector = open_stream(server, teacher_client, projector_html)

    move_once(table)

    seen: list = []
    for reader in (other_phone, grid, projector):
        reader.wait_for("changed", seen)
    # No content in any event: the screens fetch their regions through the checked redraw.
    assert all(data == "" for _, data in seen)
    for reader in (other_phone, grid, projector):
        reader.close()


def test_a_change_made_before_the_stream_opened_is_sent_at_once(server, table):
    html = page(table.devices[1], "/play/")
    move_once(table)
    reader = EventReader(server.port, stream_path(html), cookie_header(table.devices[1]))
    assert reader.next_event() == ("hello", "")
    assert reader.next_event() == ("changed", "")
    reader.close()


def test_a_device_the_teacher_frees_loses_its_stream(server, table, teacher):
    device = table.devices[1]
    html = page(device, "/play/")
    reader = open_stream(server, device, html)

    classroom_services.device_unbind(binding=device.binding, by=teacher)

    assert reader.wait_for("gone") == ("gone", "")
    assert reader.next_event() is None  # the server ended the stream
    again = EventReader(server.port, stream_path(html), cookie_header(device))
    assert again.status == 204  # a reconnect is refused: the browser stops trying
    again.close()


def test_closing_the_session_ends_every_device_stream_and_a_move_keeps_them(server, table, teacher):
    readers = [open_stream(server, device, page(device, "/play/")) for device in table.devices[1:3]]
    move_once(table)
    for reader in readers:  # a move is news for them, not a reason to recheck who they are
        assert reader.wait_for("changed") == ("changed", "")

    classroom_services.session_close(session=table.session, by=teacher)

    for reader in readers:
        assert reader.wait_for("gone", pings=1) == ("gone", "")
        assert reader.next_event() is None


def test_streams_refuse_viewers_the_page_was_not_drawn_for(
    server, table, teacher_client, other_teacher_client, device_client, students
):
    device_html = page(table.devices[1], "/play/")
    projector_html = page(teacher_client, reverse("games:projector", args=[table.game.pk]))
    refused = [
        (table.devices[0], device_html),  # another team's phone
        (Client(), device_html),  # no device at all
        (other_teacher_client, projector_html),  # another school's teacher
        (table.devices[1], projector_html),  # a phone holding the teacher's token
    ]
    for client, html in refused:
        reader = EventReader(server.port, stream_path(html), cookie_header(client))
        assert reader.status == 204, html[:80]
        reader.close()
    forged = re.sub(r"t=[^&]+", "t=forged", stream_path(device_html))
    reader = EventReader(server.port, forged, cookie_header(table.devices[1]))
    assert reader.status == 204
    reader.close()


def test_a_lobby_stream_hears_a_device_join_and_a_freed_device_loses_its_own(
    server, teacher_client, other_teacher_client, teacher, open_session, students, device_client
):
    lobby_html = page(teacher_client, reverse("classroom:session_lobby", args=[open_session.pk]))
    refused = EventReader(server.port, stream_path(lobby_html), cookie_header(other_teacher_client))
    assert refused.status == 204
    refused.close()
    lobby = open_stream(server, teacher_client, lobby_html)
    device = device_client(open_session, students[0])
    assert lobby.wait_for("changed") == ("changed", "")
    phone = open_stream(server, device, page(device, reverse("classroom:device_home")))

    classroom_services.device_unbind(binding=device.binding, by=teacher)

    assert phone.wait_for("gone") == ("gone", "")
    assert lobby.wait_for("changed") == ("changed", "")
    for reader in (lobby, phone):
        reader.close()


def test_under_wsgi_the_stream_declines_and_pages_keep_polling(table):
    html = page(table.devices[1], "/play/")
    # In a thread of its own, as a WSGI server runs it: after the browser tests, this thread
    # holds Playwright's event loop, where Django refuses to run an async view synchronously.
    answers = []
    worker = threading.Thread(
        target=lambda: answers.append(table.devices[1].get(stream_path(html)))
    )
    worker.start()
    worker.join(60)
    assert answers[0].status_code == 503
    # The page still carries its poll, which the fallback drives.
    assert re.search(r'data-hx-get="[^"]+/poll/', html)
    assert "every 10s" in unescape(html)


def test_nasty_stream_parameters_are_refused_never_a_server_error(server, table):
    """The fuzz table (tests/fuzz) drives the WSGI test client, where a stream declines with 503
    by design; here each nasty value goes to a real ASGI server, as the token and as the
    fingerprint beside a good token."""
    good = stream_path(page(table.devices[1], "/play/"))
    token = re.search(r"t=([^&]+)", good).group(1)
    cookies = cookie_header(table.devices[1])
    for name, value in NASTY.items():
        quoted = quote(value.encode("utf-8", "surrogatepass"), safe="")
        for query in (f"t={quoted}", f"t={token}&v={quoted}"):
            reader = EventReader(server.port, f"{reverse('games:stream')}?{query}", cookies)
            assert reader.status < 500, (name, query[:40], reader.status)
            reader.close()


def test_through_the_compose_proxy_a_stream_opens_and_a_move_reaches_it(server, table):
    """docker/nginx.conf in a real nginx, in front of the stream server (both of its upstreams):
    the stream and the pages keep their Host (Django refuses a request without one it allows),
    the stream comes through unbuffered, and a move made here reaches it."""
    if shutil.which("nginx") is None:
        skip_or_fail("nginx is not installed (apt-get install nginx-light)")
    conf = ROOT / "docker" / "nginx.conf"
    with harness.proxy(conf, web=server.port, stream=server.port) as nginx:
        phone = table.devices[1]
        reader = open_stream(nginx, phone, page(phone, "/play/"))
        move_once(table)
        assert reader.wait_for("changed") == ("changed", "")
        reader.close()

        # Pages go through the other location, several on the connections nginx keeps.
        fetched = [web_get(nginx.port, "/play/", cookie_header(phone)) for _ in range(5)]
        assert [status for status, _ in fetched] == [200] * 5
        assert all('id="live"' in html for _, html in fetched)


def web_get(port: int, path: str, cookies: str) -> tuple[int, str]:
    http_connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        http_connection.request("GET", path, headers={"Cookie": cookies})
        response = http_connection.getresponse()
        return response.status, response.read().decode()
    finally:
        http_connection.close()


def test_a_table_screens_stream_is_checked_in_one_query(table):
    """A district's stream tier takes every screen's reconnect at once when a stream process
    dies: a device's stream open checks its binding and seat in the seat check's one statement,
    not again through the ORM."""
    phone = table.devices[1]
    path = stream_path(page(phone, "/play/"))
    request = RequestFactory().get(path, HTTP_COOKIE=cookie_header(phone))
    with CaptureQueriesContext(connection) as queries:
        subject = stream_views._subject(request)
    assert subject is not None and subject.holders
    assert len(queries) == 1, [query["sql"][:80] for query in queries]

    # Another device's token is still refused.
    other = stream_path(page(table.devices[0], "/play/"))
    request = RequestFactory().get(other, HTTP_COOKIE=cookie_header(phone))
    assert stream_views._subject(request) is None
