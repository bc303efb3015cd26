"""Real Chromium through Playwright, against pytest-django's live server.

Debian's /usr/bin/chromium is used (no browser download is possible here). Screenshots go to
test-output/screenshots/, to be looked at."""

import dataclasses
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.test import Client
from playwright.sync_api import expect

from classroom import services as classroom_services
from classroom.devices import DEVICE_COOKIE, set_device_cookie
from games import engine_registry, services
from games.engine_registry import get_engine
from games.models import TableGame
from tests.conftest import skip_or_fail
from tests.e2e.a11y import Auditor, audited_contexts, settle
from tests.games.conftest import fixed_deck, seat_teams

# Playwright's sync API runs an event loop in this thread; the ORM calls made by fixtures and
# assertions here are ordinary synchronous code, so Django's async guard does not apply.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("BOTBENCH_CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-quic",
    "--no-first-run",
    "--disable-sync",
]

PHONE = {"width": 390, "height": 844}
CHROMEBOOK = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}

# How long a screen may take to show what happened elsewhere. Generous on purpose: these tests
# check that the update arrives, and a busy CPU must not fail them; how fast it arrives is
# measured in benchmarks/.
LIVE_UPDATE = 30_000
# Every other wait (a click's target, an assertion) gets the same allowance for the same reason,
# and loading a whole page (its scripts and styles too) twice that: on a machine running other
# suites beside this one, a page load alone was seen to take over 20 s.
expect.set_options(timeout=LIVE_UPDATE)
PAGE_LOAD = 2 * LIVE_UPDATE


class AsgiLiveServer:
    """pytest-django's `live_server`, served the way production serves it: by uvicorn (ASGI), so
    the pages' event streams work. Runs in a thread of this process (the test database and
    settings are this process's). `restart()` stops and starts it on the same port."""

    def __init__(self, host: str = "localhost"):
        from django.test.utils import modify_settings

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.host = host
        self.url = f"http://{host}:{self.port}"
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": host})
        self.server = None
        self.thread = None

    def start(self) -> None:
        import uvicorn
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        # The site's own ASGI application: its streams are served as in production.
        from config.asgi import application

        config = uvicorn.Config(
            ASGIStaticFilesHandler(application),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="off",
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True
            self.thread.join(15)
            self.server = None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture(scope="session")
def live_server():
    server = AsgiLiveServer()
    server.start()
    yield server
    server.stop()


def drawn_version(page) -> str:
    """Note what the live region shows before a click (its poll URL, which names the versions
    shown), and start watching for the answer of the click's POST."""
    page.evaluate(
        """() => {
          window.postAnswered = false;
          if (window.watchingPosts) return;
          window.watchingPosts = true;
          const answered = (event) => {
            const config = event.detail && event.detail.requestConfig;
            if (config && config.verb === "post") window.postAnswered = true;
          };
          document.addEventListener("htmx:afterSettle", answered);
          document.addEventListener("htmx:responseError", answered);
        }"""
    )
    return page.locator("#live").get_attribute("data-hx-get")


IN_FLIGHT = ".htmx-request, [data-disabled-by-htmx]"


def settled(page, version: int, game_id: int | None = None) -> None:
    """Wait until the page's move buttons are drawn from table `version` and no request of the
    page is in flight. A redraw still on its way (the stream's refetch after the last move) may
    replace the button a test is about to tap, or fold its group away, so choose after this.
    With `game_id`, only that table's forms count (a teacher's screen may show several)."""
    forms = f'form[action*="/tables/{game_id}/"]' if game_id else "form.move-form"
    page.wait_for_function(
        """([inFlight, selector, version]) => {
          if (document.querySelector(inFlight)) return false;
          const shown = document.querySelectorAll(selector);
          return shown.length > 0 && Array.from(shown).every((i) => i.value === String(version));
        }""",
        arg=[IN_FLIGHT, f"{forms} input[name=version]", version],
        timeout=LIVE_UPDATE,
    )


def wait_for_redraw(page, before: str) -> None:
    """Wait until the POST sent since `drawn_version` has been answered and swapped (an answer
    may show the same versions, e.g. an error), or the live region shows a newer drawing than
    `before`; and until nothing of the page is in flight any more, so that the next choice is
    made on a quiet screen. Swaps morph the region in place, so the element itself stays."""
    page.wait_for_function(
        """([before, inFlight]) => {
          const live = document.querySelector('#live');
          const newer = live && live.getAttribute('data-hx-get') !== before;
          return (window.postAnswered || newer) && !document.querySelector(inFlight);
        }""",
        arg=[before, IN_FLIGHT],
        timeout=LIVE_UPDATE,
    )


def click_and_wait(page, button, game=None) -> None:
    """Click a move button and wait for the answer to be morphed into the live region. With
    `game`, first wait until the screen shows the table's latest version with nothing in flight
    (a click on an older drawing is refused as stale; one on a button that a request in flight
    has disabled is lost); without, until nothing is in flight."""
    expect(button).to_be_visible(timeout=LIVE_UPDATE)
    if game is None:
        page.wait_for_function(
            "(inFlight) => !document.querySelector(inFlight)", arg=IN_FLIGHT, timeout=LIVE_UPDATE
        )
    else:
        game.refresh_from_db()
        settled(page, game.version, game.pk)
    drawn = drawn_version(page)
    button.click()
    wait_for_redraw(page, drawn)
    alerts = page.locator("#live .alert-error")
    assert alerts.count() == 0, alerts.first.inner_text()


@pytest.fixture(scope="session")
def browser():
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        skip_or_fail(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def auditor():
    """axe-core in every page, and the Nu HTML checker over every page state at the end."""
    auditor = Auditor()
    if not auditor.available():
        skip_or_fail("axe-core is not installed (make install, or npm ci)")
    yield auditor
    errors = auditor.validate_html()
    if errors:
        pytest.fail(
            f"The Nu HTML checker found {len(errors)} error(s) in the {len(auditor.html_files)} "
            "page states the browser tests reached:\n" + "\n".join(errors),
            pytrace=False,
        )


@pytest.fixture
def new_context(browser, auditor):
    """Open a separate browser context (its own cookies: one device) at a given viewport.
    Every page state its pages reach is checked with axe; a violation fails the test."""

    def open_one(_, viewport: dict | None = None):
        return browser.new_context(viewport=viewport or CHROMEBOOK)

    with audited_contexts(
        auditor, open_one, timeout=LIVE_UPDATE, navigation_timeout=PAGE_LOAD
    ) as open_context:
        yield open_context


@pytest.fixture
def page(new_context):
    return new_context().new_page()


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        settle(page)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def console_errors():
    """Collect console errors (CSP violations included) from the pages passed to `watch`."""
    errors: list[str] = []

    def watch(page):
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    watch.errors = errors
    return watch


def device_cookie(session, student) -> dict:
    """The cookie the join page leaves on a student's device, for `context.add_cookies`
    (add the "url" key)."""
    return binding_cookie(classroom_services.device_join(session=session, student=student))


def binding_cookie(binding) -> dict:
    response = HttpResponse()
    set_device_cookie(response, binding, secure=False)
    return {"name": DEVICE_COOKIE, "value": response.cookies[DEVICE_COOKIE].value}


def login_cookie(user) -> dict:
    """A signed-in session cookie for `user` (a teacher or an administrator)."""
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value}


@pytest.fixture
def fixed_deal(monkeypatch):
    """Tables start from the fixed deck with Team 1 first, so the game is short and known."""
    engine = get_engine("bot_builders")

    def options_for(variant, skip_first_round, seats, birth_months):
        options = engine.options_for(variant, skip_first_round, seats, birth_months)
        return {**options, "deck": fixed_deck(seats), "start_seat": seats[0]}

    patched = dataclasses.replace(engine, options_for=options_for)
    monkeypatch.setitem(engine_registry.ENGINES, "bot_builders", patched)


@pytest.fixture
def room(live_server, new_context, console_errors, teacher, open_session, students, fixed_deal):
    """Three phones at table 1 (Team 1 first), the teacher's projector and tables dashboard."""
    session = open_session
    table, _ = seat_teams(session, students, teams=3, per_team=1)
    services.session_start_tables(session=session, by=teacher)
    base = live_server.url

    def open_page(viewport, cookie, path):
        context = new_context(viewport)
        context.add_cookies([{**cookie, "url": base}])
        page = console_errors(context.new_page())
        page.goto(f"{base}{path}")
        return page

    phones = [open_page(PHONE, device_cookie(session, students[i]), "/play/") for i in range(3)]
    game = TableGame.objects.get(table=table)
    projector = open_page(PROJECTOR, login_cookie(teacher), f"/play/tables/{game.pk}/projector/")
    desk = open_page(CHROMEBOOK, login_cookie(teacher), f"/play/sessions/{session.pk}/tables/")
    return {"phones": phones, "projector": projector, "desk": desk, "game": game, "base": base}
