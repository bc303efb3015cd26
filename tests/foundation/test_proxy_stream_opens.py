"""Compose's proxy answers a loop of stream opens from one caller with 429 itself, before the
stream tier, with the site's own budget (games/streams.py OpenRate): a burst of
STREAM_OPEN_BURST opens, then one every STREAM_REOPEN_SECONDS, per device cookie, else session
cookie, else address. Run through the very file compose mounts (docker/nginx.conf), in front of
an upstream that only counts what reaches it: what is measured is the proxy's refusal."""

from __future__ import annotations

import re
import shutil
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.conf import settings

from classroom.devices import DEVICE_COOKIE
from tests.conftest import skip_or_fail
from tests.support.streams import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import harness  # noqa: E402  -- the benchmarks' nginx, run from docker/nginx.conf

CONF = ROOT / "docker" / "nginx.conf"
STREAM = "/play/stream/?watch=anything"
# Well past the burst, and sent in well under the STREAM_REOPEN_SECONDS that refill one open:
# a slow machine would let one or two more through, never the loop.
LOOP = 30


class CountingUpstream(BaseHTTPRequestHandler):
    """Both tiers at once: answers every GET 200 and counts the streams' opens that reached it."""

    reached: list[str]

    def do_GET(self) -> None:
        if self.path.startswith("/play/stream/"):
            self.reached.append(self.headers.get("Cookie", ""))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def proxy() -> Iterator[tuple[int, list[str]]]:
    """(the proxy's port, the Cookie header of each stream open that reached the upstream)."""
    if shutil.which("nginx") is None:
        skip_or_fail("nginx is not installed (apt-get install nginx-light)")
    reached: list[str] = []
    handler = type("Upstream", (CountingUpstream,), {"reached": reached})
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    port = upstream.server_address[1]
    try:
        with harness.proxy(CONF, web=port, stream=port) as nginx:
            yield nginx.port, reached
    finally:
        upstream.shutdown()
        upstream.server_close()


def open_stream(port: int, cookie: str) -> tuple[int, dict[str, str]]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{STREAM}", headers={"Cookie": cookie})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers)


def test_a_loop_of_opens_from_one_device_is_refused_before_the_stream_tier(proxy):
    port, reached = proxy
    answers = [open_stream(port, f"{DEVICE_COOKIE}=looping") for _ in range(LOOP)]

    statuses = [status for status, _ in answers]
    assert statuses[: settings.STREAM_OPEN_BURST] == [200] * settings.STREAM_OPEN_BURST
    assert set(statuses) == {200, 429}
    assert statuses.count(429) >= LOOP - settings.STREAM_OPEN_BURST - 2
    assert len(reached) == statuses.count(200)
    refusal = next(headers for status, headers in answers if status == 429)
    assert refusal["Retry-After"] == str(settings.STREAM_REOPEN_SECONDS)
    assert refusal["Cache-Control"] == "no-store"


def test_other_devices_and_signed_in_screens_each_have_their_own_budget(proxy):
    port, reached = proxy
    for _ in range(LOOP):
        open_stream(port, f"{DEVICE_COOKIE}=looping")
    # A class's phones and a teacher's screens open theirs while one phone loops.
    others = [f"{DEVICE_COOKIE}=phone-{n}" for n in range(LOOP)]
    others += [f"{settings.SESSION_COOKIE_NAME}=teacher-{n}" for n in range(LOOP)]

    assert [open_stream(port, cookie)[0] for cookie in others] == [200] * len(others)
    assert reached[-len(others) :] == others


def test_a_signed_in_browser_looping_is_refused_too(proxy):
    port, _ = proxy
    statuses = [
        open_stream(port, f"{settings.SESSION_COOKIE_NAME}=looping")[0] for _ in range(LOOP)
    ]
    assert statuses.count(429) >= LOOP - settings.STREAM_OPEN_BURST - 2


def test_the_proxys_budget_and_cookies_are_the_sites():
    """One budget: nginx cannot read the settings, so the file's numbers are held to them."""
    text = CONF.read_text()
    [rate] = re.findall(r"zone=stream_opens:\S+ rate=(\d+)r/m;", text)
    [burst] = re.findall(r"limit_req zone=stream_opens burst=(\d+) nodelay;", text)
    assert int(rate) == 60 // settings.STREAM_REOPEN_SECONDS
    assert int(burst) == settings.STREAM_OPEN_BURST
    assert f"map $cookie_{DEVICE_COOKIE} $stream_opener " in text
    assert f"map $cookie_{settings.SESSION_COOKIE_NAME} $stream_opener_without_device " in text
    assert re.search(r"Retry-After (\d+) always", text).group(1) == str(
        settings.STREAM_REOPEN_SECONDS
    )
