"""The skip link: the first Tab on a page shows it on a line of its own above the header, not
over the brand link (a target it would hide), at a phone's, a Chromebook's and a projector's
size, in English and Spanish; axe checks each state (WCAG 2.4.1, 2.4.11, 2.5.8)."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import CHROMEBOOK, PHONE, PROJECTOR, login_cookie

pytestmark = pytest.mark.browser

SIZES = {"phone": PHONE, "chromebook": CHROMEBOOK, "projector": PROJECTOR}
SKIP = {"en": "Skip to content", "es": "Saltar al contenido"}


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_focused_skip_link_sits_above_the_header(
    live_server, teacher, classroom, language, new_context, screenshot, console_errors
):
    teacher.language = language
    teacher.save(update_fields=["language"])
    for size, viewport in SIZES.items():
        context = new_context(viewport)
        context.add_cookies([{**login_cookie(teacher), "url": live_server.url}])
        page = console_errors(context.new_page())
        page.goto(f"{live_server.url}/classes/")
        page.keyboard.press("Tab")
        skip = page.get_by_role("link", name=SKIP[language])
        expect(skip).to_be_focused()
        link, brand = skip.bounding_box(), page.locator(".brand").bounding_box()
        assert link["height"] >= 24 and link["width"] >= 24, link
        assert link["y"] + link["height"] <= brand["y"], (link, brand)  # above, not over it
        screenshot(page, f"skip-link-{size}-{language}")
        page.keyboard.press("Enter")
        expect(page).to_have_url(f"{live_server.url}/classes/#main")
    assert console_errors.errors == []
