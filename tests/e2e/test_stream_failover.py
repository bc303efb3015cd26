"""Many processes behind one address, and one of them dying mid-lesson: real Chromium pages of a
table (three phones, the projector, the teacher's dashboard) through nginx run from
docker/nginx.conf in front of 2 web nodes (granian) and 2 stream nodes (the ASGI tier as compose
runs it), on PostgreSQL and Redis, started by the benchmarks' launcher (benchmarks/topology.py).

- Every stream node hears every change: a move made through either web node reaches, by an
  event on its stream, every page, whichever stream node holds it (Redis pub/sub).
- A stream node killed with SIGKILL leaves no screen behind: each page it held opens a stream
  again (on the other node) within 3 s of losing its own, and shows the move made while it was
  cut off (its stream URL carries the version the page was drawn with, so the new stream says
  `changed` at once when the table moved since) and every move after.

Waits are on conditions; the one fixed figure is the 3 s a page may take to reconnect, measured
by the page's own clock between its stream's error and its next open."""

from __future__ import annotations

import os
import re
import sys
import time
from urllib.parse import unquote

import pytest
from django.conf import settings
from django.core.cache import cache

from games import services
from games.models import TableGame
from tests.conftest import skip_or_fail, skip_without_server
from tests.e2e.conftest import (
    CHROMEBOOK,
    LIVE_UPDATE,
    PAGE_LOAD,
    PHONE,
    PROJECTOR,
    device_cookie,
    drawn_version,
    login_cookie,
    wait_for_redraw,
)
from tests.games.conftest import seat_teams
from tests.support.moves import MOVE_BUTTONS, choose
from tests.support.streams import ROOT, database_url

sys.path.insert(0, str(ROOT / "benchmarks"))
import topology  # noqa: E402  -- the one launcher of compose's topology, the benchmark's too

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECONNECT_MS = 3000
# Every page counts its streams' opens, errors and change events, by its own clock.
COUNT_STREAMS = """
window.streamLog = {opens: [], errors: [], changes: []};
document.addEventListener("htmx:sseOpen", () => window.streamLog.opens.push(Date.now()));
document.addEventListener("htmx:sseError", () => window.streamLog.errors.push(Date.now()));
document.addEventListener("htmx:sseMessage", () => window.streamLog.changes.push(Date.now()));
"""


@pytest.fixture
def nodes():
    """2 web + 2 stream nodes behind nginx, on this test's database, Redis db and cache prefix."""
    if not settings.REDIS_URL or "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        skip_without_server("stream nodes hear each change through Redis, on PostgreSQL")
    import shutil

    if shutil.which("nginx") is None:
        skip_or_fail("nginx is not installed (apt-get install nginx-light)")
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url(),
        REDIS_URL=settings.REDIS_URL,
        BOTBENCH_CACHE_PREFIX=cache.key_prefix,
        DJANGO_SECRET_KEY=settings.SECRET_KEY,
        # Static files from the finders (no collectstatic for a test); the tiers otherwise serve
        # as in production.
        DJANGO_DEBUG="1",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_LOG_LEVEL="WARNING",
    )
    # One worker a node, so killing a node kills every process that held its streams.
    with topology.topology(env, web=2, streams=2, web_workers=1, stream_workers=1) as running:
        yield running


@pytest.fixture
def table(teacher, open_session, students):
    session = open_session
    seated, _ = seat_teams(session, students, teams=3, per_team=1)
    services.session_start_tables(session=session, by=teacher)
    return TableGame.objects.get(table=seated)


def shown_version(page, game_id: int) -> int:
    """The table's version the page shows, read from its live region's poll URL (`v`: the
    fingerprint of what it shows, "<game>.<version>" for each table)."""
    url = page.locator("#live").get_attribute("data-hx-get") or ""
    found = re.search(r"[?&]v=([^&]+)", url)
    shown = re.search(rf"(?:^|-){game_id}\.(\d+)", unquote(found[1])) if found else None
    return int(shown[1]) if shown else -1


def wait_until_shown(pages, game_id: int, version: int) -> None:
    """Every page shows the table at `version` or later."""
    for page in pages:
        page.wait_for_function(
            """([gameId, version]) => {
              const url = document.querySelector('#live')?.getAttribute('data-hx-get') || '';
              const v = new URLSearchParams(url.split('?')[1] || '').get('v') || '';
              const part = v.split(/[-~]/).find((p) => p.startsWith(gameId + '.'));
              return part !== undefined && Number(part.split('.')[1]) >= version;
            }""",
            arg=[game_id, version],
            timeout=LIVE_UPDATE,
        )


def play(phones, game) -> int:
    """Whichever phone holds the turn taps a move (once every page is quiet); returns the
    table's version after it."""
    game.refresh_from_db()
    mover = next((i, p) for i, p in enumerate(phones) if p.locator(MOVE_BUTTONS).count())
    index, page = mover
    button, _ = choose(page, index + 1, set())
    drawn = drawn_version(page)
    button.click()
    wait_for_redraw(page, drawn)
    alerts = page.locator("#live .alert-error")
    assert alerts.count() == 0, alerts.first.inner_text()
    game.refresh_from_db()
    return game.version


def streams_held(node) -> int:
    """Connections open to a stream node (nginx's to it, one for each stream it serves)."""
    count = 0
    for process in node.processes():
        try:
            connections = process.net_connections(kind="tcp")
        except Exception:  # noqa: BLE001, S112 - a process that went away
            continue
        count += sum(
            1 for c in connections if c.status == "ESTABLISHED" and c.laddr.port == node.port
        )
    return count


def test_a_killed_stream_node_leaves_no_screen_behind(
    browser, nodes, table, teacher, open_session, students
):
    base = nodes.url
    pages = []

    def open_page(viewport, cookie, path):
        context = browser.new_context(viewport=viewport)
        context.set_default_timeout(LIVE_UPDATE)
        context.set_default_navigation_timeout(PAGE_LOAD)
        context.add_cookies([{**cookie, "url": base}])
        context.add_init_script(COUNT_STREAMS)
        page = context.new_page()
        page.goto(f"{base}{path}")
        pages.append(page)
        return page

    try:
        phones = [
            open_page(PHONE, device_cookie(open_session, students[i]), "/play/") for i in range(3)
        ]
        open_page(PROJECTOR, login_cookie(teacher), f"/play/tables/{table.pk}/projector/")
        open_page(CHROMEBOOK, login_cookie(teacher), f"/play/sessions/{open_session.pk}/tables/")
        for page in pages:
            page.wait_for_function("() => window.streamLog.opens.length >= 1")
        # Both stream nodes hold screens (nginx takes turns), or killing one proves little.
        held = [streams_held(node) for node in nodes.streams]
        assert all(held), f"streams held by each node: {held}"

        # Every node hears every change: each page's stream tells it of each move.
        for _ in range(2):
            changes = [page.evaluate("() => window.streamLog.changes.length") for page in pages]
            version = play(phones, table)
            wait_until_shown(pages, table.pk, version)
            for page, before in zip(pages, changes, strict=True):
                page.wait_for_function(
                    "(before) => window.streamLog.changes.length > before", arg=before
                )

        # The node holding more streams dies; a move is made while its screens are cut off.
        victim = max(nodes.streams, key=streams_held)
        errors_before = [len(page.evaluate("() => window.streamLog.errors")) for page in pages]
        killed_at = time.time() * 1000
        victim.kill()
        version = play(phones, table)
        wait_until_shown(pages, table.pk, version)

        # Which pages lost their stream: each opens one again within 3 s of the error.
        cut_off = 0
        for page, before in zip(pages, errors_before, strict=True):
            log = page.evaluate("() => window.streamLog")
            if len(log["errors"]) == before:
                continue
            cut_off += 1
            lost = log["errors"][before]
            assert lost >= killed_at - 1000, "a stream failed before the node was killed"
            page.wait_for_function(
                "(lost) => window.streamLog.opens.some((t) => t > lost)", arg=lost
            )
            opened = min(t for t in page.evaluate("() => window.streamLog.opens") if t > lost)
            assert opened - lost <= RECONNECT_MS, (
                f"{page.url} opened its stream again {opened - lost:.0f} ms after losing it"
            )
            # The new stream knows the page was drawn before the table moved: it says `changed`
            # at once, so the move made meanwhile is fetched even with no poll.
            page.wait_for_function(
                "(opened) => window.streamLog.changes.some((t) => t >= opened)", arg=opened
            )
            print(f"{page.url}: stream open again {opened - lost:.0f} ms after its error")
        assert cut_off >= 1, "no page was on the killed stream node"

        # Play goes on with one stream node: every page shows every move, by its stream.
        for _ in range(2):
            changes = [page.evaluate("() => window.streamLog.changes.length") for page in pages]
            version = play(phones, table)
            wait_until_shown(pages, table.pk, version)
            for page, before in zip(pages, changes, strict=True):
                page.wait_for_function(
                    "(before) => window.streamLog.changes.length > before", arg=before
                )
        for page in pages:
            assert shown_version(page, table.pk) == version
    finally:
        for page in pages:
            page.context.close()
