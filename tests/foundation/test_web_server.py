"""The web tier as docker/compose.yaml starts it (granian, WSGI), serving a lesson for real: its
health check, a team's page, a move posted with the page's CSRF token, another phone's redraw
and its unchanged poll, and a static file. Only the address differs from compose's command."""

import http.client
import json
import re
import sys
from html import unescape
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
import yaml
from django.urls import reverse

from tests.games.conftest import read_screen, start_live_table
from tests.support.streams import ROOT, StreamServer, cookie_header

pytestmark = pytest.mark.django_db(transaction=True)

DRAW = {"type": "draw", "source": "deck"}
POLL = re.compile(r'data-hx-get="([^"]+/poll/[^"]+)"')


def compose_web_command(port: int) -> list[str]:
    """compose's `web` command, on loopback and `port`, with this interpreter's granian."""
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    command = list(compose["services"]["web"]["command"])
    command[0] = str(Path(sys.executable).with_name(command[0]))
    command[command.index("--host") + 1] = "127.0.0.1"
    command[command.index("--port") + 1] = str(port)
    return command


@pytest.fixture
def web():
    running = StreamServer(command=compose_web_command).start()
    yield running
    running.stop()


class Browser:
    """One device's cookies, kept across requests as a browser keeps them."""

    def __init__(self, port: int, cookies: str):
        self.port = port
        self.cookies = SimpleCookie(cookies)

    def request(self, method: str, path: str, body: str = "", headers: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sent = {"Cookie": "; ".join(f"{k}={m.value}" for k, m in self.cookies.items())}
        conn.request(method, path, body=body or None, headers={**sent, **(headers or {})})
        response = conn.getresponse()
        text = response.read().decode()
        for header in response.headers.get_all("Set-Cookie") or []:
            self.cookies.load(header)
        conn.close()
        return response, text


def test_the_web_tier_serves_a_lesson_as_compose_runs_it(
    web, open_session, teacher, students, device_client
):
    table = start_live_table(open_session, teacher, students, device_client)
    mover = Browser(web.port, cookie_header(table.devices[0]))
    other = Browser(web.port, cookie_header(table.devices[1]))

    health, said = mover.request("GET", "/healthz")
    assert health.status == 200 and json.loads(said)["checks"]["database"] == "ok"

    page, html = mover.request("GET", reverse("games:device"))
    assert page.status == 200
    screen = read_screen(html)
    assert DRAW in screen.actions
    _, other_html = other.request("GET", reverse("games:device"))
    other_poll = unescape(POLL.search(other_html)[1])
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)[1]

    body = (
        f"csrfmiddlewaretoken={token}&action={json.dumps(DRAW)}"
        f"&version={screen.version}&client_move_id={screen.client_move_id}"
    )
    moved, region = mover.request(
        "POST",
        reverse("games:move", args=[table.game.pk]),
        body,
        {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"},
    )
    assert moved.status == 200
    assert read_screen(region).version == screen.version + 1

    redraw, other_region = other.request("GET", other_poll, headers={"HX-Request": "true"})
    assert redraw.status == 200 and 'id="live"' in other_region
    current = unescape(POLL.search(other_region)[1])
    unchanged, empty = other.request("GET", current, headers={"HX-Request": "true"})
    assert unchanged.status == 204 and empty == ""

    static, script = mover.request("GET", "/static/js/live.js")
    assert static.status == 200 and "htmx:sseOpen" in script
