"""The projector's pages looked at on a phone (an administrator looking in, a teacher walking the
room): made to fill a wide screen, they scale their type with it, which at 390 px wide would be
6 px. Below 768 px they are read up close instead (static/css/projector.css)."""

from __future__ import annotations

import pytest

from classroom.models import ProjectorLanguage
from tests.e2e.conftest import PHONE, PROJECTOR, login_cookie
from tests.support.projector import LAYOUT, READING_PX, measure

pytestmark = [
    pytest.mark.browser,
    pytest.mark.layout,
    pytest.mark.django_db(transaction=True),
]


def projector_pages(room) -> dict[str, str]:  # noqa: F811
    game = room["game"]
    return {
        "table": f"/play/tables/{game.pk}/projector/",
        "grid": f"/play/sessions/{game.session_id}/projector/",
    }


@pytest.mark.parametrize("language", [ProjectorLanguage.ENGLISH, ProjectorLanguage.BOTH])
@pytest.mark.parametrize("name", ["table", "grid"])
def test_a_phone_reads_the_projector_at_reading_size(
    room,  # noqa: F811
    name,
    language,
    new_context,
    console_errors,
    teacher,
    screenshot,
):
    session = room["game"].session
    session.projector_language = language
    session.save(update_fields=["projector_language"])
    context = new_context(PHONE)
    context.add_cookies([{**login_cookie(teacher), "url": room["base"]}])
    page = console_errors(context.new_page())
    page.goto(room["base"] + projector_pages(room)[name])

    assert measure(page)["smallest"]["size"] >= READING_PX
    layout = page.evaluate(LAYOUT)
    assert layout["scrollW"] <= layout["w"]
    # Up close the page scrolls: it does not stretch its rows over the screen's height.
    live = page.locator("#live").bounding_box()
    content = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('#live > *')]"
        ".map(e => e.getBoundingClientRect().bottom))"
    )
    assert live["y"] + live["height"] <= content + 24
    screenshot(page, f"projector-{name}-{language}-on-a-phone")


@pytest.mark.parametrize("name", ["table", "grid"])
def test_the_projector_itself_still_scales_its_type_with_the_screen(
    room,  # noqa: F811
    name,
    new_context,
    teacher,
):
    """The phone layout stops at 768 px: a projector keeps the type that the back row reads."""
    context = new_context(PROJECTOR)
    context.add_cookies([{**login_cookie(teacher), "url": room["base"]}])
    page = context.new_page()
    page.goto(room["base"] + projector_pages(room)[name])

    root = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert root == pytest.approx(28, abs=0.5)
