"""Compose's proxy holds a district school's screens: 2,000 idle event streams, each from its
own device and address, through the very file compose mounts as nginx's main configuration
(docker/nginx.conf), in front of a real stream server, all open at once and none refused.

nginx's image keeps 1,024 connections a worker when the site's file is only a conf.d part; each
stream takes two (the screen's and the one to the stream tier), so that proxy opened 960 of
1,500. Compose's topology has Redis (the stream tier's hub listens on one pub/sub connection),
so this runs in the PostgreSQL and Redis run."""

from __future__ import annotations

import asyncio
import resource
import shutil
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connections
from django.http import HttpResponse
from django.test import Client

from classroom import services
from classroom.devices import DEVICE_COOKIE, set_device_cookie
from classroom.models import Student
from tests.conftest import skip_or_fail, skip_without_server
from tests.support.streams import ROOT, StreamServer, run_alone, stream_path

sys.path.insert(0, str(ROOT / "benchmarks"))
import harness  # noqa: E402  -- the benchmarks' nginx, run from docker/nginx.conf

pytestmark = pytest.mark.django_db(transaction=True)

STREAMS = 2000
# Screens arrive together, but not all in one instant: the stream tier checks each (a few
# queries) on a pool of ten database connections.
OPENING_AT_ONCE = 50
# Everything waits on conditions; this only bounds a run on a machine busy with other work.
DEADLINE_SECONDS = 400


@pytest.fixture
def compose_stack():
    """Checked before anything is set up: PostgreSQL, Redis and nginx, as compose has them."""
    if not settings.REDIS_URL or "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        skip_without_server("compose's stream tier runs on PostgreSQL and Redis")
    if shutil.which("nginx") is None:
        skip_or_fail("nginx is not installed (apt-get install nginx-light)")


@pytest.fixture
def arrive(compose_stack, open_session, classroom) -> Callable[[int], tuple[str, str]]:
    """`arrive(n)`: the n-th of STREAMS devices joins the open session as a student of its own
    and loads its waiting page, as a phone does; returns its (stream path, Cookie header)."""
    students = Student.objects.bulk_create(
        Student(classroom=classroom, name=f"Screen {n:04}") for n in range(STREAMS)
    )

    def join(n: int) -> tuple[str, str]:
        binding = services.device_join(session=open_session, student=students[n])
        response = HttpResponse()
        set_device_cookie(response, binding, secure=False)
        cookie = response.cookies[DEVICE_COOKIE].value
        client = Client()
        client.cookies[DEVICE_COOKIE] = cookie
        page = client.get("/play/")
        assert page.status_code == 200
        return stream_path(page.content.decode()), f"{DEVICE_COOKIE}={cookie}"

    return join


@pytest.fixture
def server(monkeypatch):
    # Every screen is its own address, as behind the TLS proxy compose sits behind (one hop).
    monkeypatch.setenv("BOTBENCH_PROXY_HOPS", "1")
    running = StreamServer().start()
    yield running
    running.stop()


@pytest.fixture
def enough_open_files():
    """This process holds every screen's socket (and the stream server it starts inherits the
    limit): three files a stream, within the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 3 * STREAMS + 1000
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.fail(f"the open-file limit allows {hard} files; this test needs {wanted}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_compose_proxy_holds_two_thousand_idle_streams(enough_open_files, arrive, server):
    conf = ROOT / "docker" / "nginx.conf"
    with harness.proxy(conf, web=server.port, stream=server.port) as nginx:
        opened, refused = run_alone(hold_streams(nginx.port, arrive))
    assert refused == [], f"{len(refused)} of {STREAMS} refused, the first: {refused[:3]}"
    assert opened == STREAMS


async def hold_streams(
    port: int, arrive: Callable[[int], tuple[str, str]]
) -> tuple[int, list[str]]:
    """Each screen arrives (joins, loads its page: in a thread of this process, while the
    stream server answers the screens before it), opens its stream and waits for `hello`; once
    the last is open, counts those still open. Returns (open at once, why each refused one
    was)."""
    import aiohttp

    loop = asyncio.get_running_loop()
    deadline = time.monotonic() + DEADLINE_SECONDS
    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    refused: list[str] = []
    responses: list[aiohttp.ClientResponse] = []

    async def open_one(http: aiohttp.ClientSession, n: int, pages: ThreadPoolExecutor) -> None:
        path, cookie = await loop.run_in_executor(pages, arrive, n)
        headers = {
            "Cookie": cookie,
            "Accept": "text/event-stream",
            "X-Forwarded-For": f"10.{n // 250}.{n % 250}.1",
            "X-Forwarded-Proto": "https",
        }
        async with gate:
            try:
                async with asyncio.timeout(max(1.0, deadline - time.monotonic())):
                    response = await http.get(f"http://127.0.0.1:{port}{path}", headers=headers)
                    if response.status != 200:
                        refused.append(f"status {response.status}")
                        response.release()
                        return
                    responses.append(response)
                    async for line in response.content:
                        if line.startswith(b"event: hello"):
                            return
                    refused.append("ended before hello")
            except (TimeoutError, aiohttp.ClientError) as exc:
                refused.append(f"{type(exc).__name__}: {exc}")

    connector = aiohttp.TCPConnector(limit=0, force_close=True)
    # One thread draws the pages, one after another; its database connection is closed below.
    pages = ThreadPoolExecutor(max_workers=1)
    try:
        async with aiohttp.ClientSession(
            connector=connector,
            cookie_jar=aiohttp.DummyCookieJar(),
            timeout=aiohttp.ClientTimeout(),
        ) as http:
            await asyncio.gather(*(open_one(http, n, pages) for n in range(STREAMS)))
            # Still open once the last one is: neither nginx nor the stream tier let one go.
            opened = sum(1 for response in responses if not response.content.at_eof())
            for response in responses:
                response.close()
    finally:
        pages.submit(connections.close_all).result()
        pages.shutdown()
    return opened, refused
