"""The printables page in real Chromium at phone, Chromebook and projector sizes."""

import pytest

from games.printables import PRINTABLES
from tests.conftest import PASSWORD
from tests.e2e.conftest import CHROMEBOOK, PHONE, PROJECTOR

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def log_in(page, live_server, user):
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("E-mail").fill(user.email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server.url}/")


@pytest.mark.parametrize(
    ("name", "viewport"), [("phone", PHONE), ("chromebook", CHROMEBOOK), ("projector", PROJECTOR)]
)
def test_teacher_reaches_printables_from_the_menu_at_every_size(
    live_server, new_context, screenshot, console_errors, teacher, name, viewport
):
    page = console_errors(new_context(viewport).new_page())
    log_in(page, live_server, teacher)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Printables").click()
    page.wait_for_url(f"{live_server.url}/play/printables/")
    assert page.get_by_role("heading", name="Printables", level=1).is_visible()
    for printable in PRINTABLES:
        assert page.get_by_role("heading", name=printable.title).is_visible()
    # Nothing wider than the screen: no sideways scrolling on a phone.
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= viewport["width"]
    screenshot(page, f"printables-index-{name}")
    assert console_errors.errors == []


def test_anonymous_visitor_downloads_a_deck(live_server, new_context):
    page = new_context(CHROMEBOOK).new_page()
    page.goto(f"{live_server.url}/play/printables/")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download Parts deck (PDF)").click()
    download = download_info.value
    assert download.suggested_filename == "botbench-bot-builders-parts.pdf"
    with open(download.path(), "rb") as pdf:
        assert pdf.read(5) == b"%PDF-"
