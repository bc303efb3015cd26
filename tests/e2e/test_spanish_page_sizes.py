"""The pages issue 40 changed, in English and in Spanish, at a phone's, a laptop's and a
projector's size: the login page and the printables (their links now 24 px targets), the class
list (its class names too), the roster upload (Spanish headers named) and the projector grid
(its slot letters and their key). Screenshots are taken to be looked at; axe checks every state
with the WCAG 2.2 AA rules (tests/e2e/a11y.py)."""

from __future__ import annotations

import pytest

from classroom.models import ProjectorLanguage
from tests.e2e.conftest import CHROMEBOOK, PHONE, PROJECTOR, login_cookie
from tests.games.conftest import start_live_table

pytestmark = [
    pytest.mark.browser,
    pytest.mark.layout,
    pytest.mark.django_db(transaction=True),
]

SIZES = {"phone": PHONE, "laptop": {"width": 1366, "height": 768}, "projector": PROJECTOR}
assert SIZES["laptop"] == CHROMEBOOK


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_changed_pages_at_every_size(
    live_server,
    new_context,
    screenshot,
    teacher,
    classroom,
    students,
    open_session,
    device_client,
    language,
):
    open_session.projector_language = language
    open_session.save(update_fields=["projector_language"])
    start_live_table(open_session, teacher, students, device_client)
    assert open_session.projector_language in ProjectorLanguage.values
    base = live_server.url
    pages = {
        "login": ("/accounts/login/", False),
        "printables": ("/play/printables/", False),
        "class-list": ("/classes/", True),
        "roster-upload": (f"/classes/{classroom.pk}/roster/upload/", True),
        "projector-grid": (f"/play/sessions/{open_session.pk}/projector/", True),
    }
    for size_name, size in SIZES.items():
        context = new_context(size)
        context.set_extra_http_headers({"Accept-Language": language})
        page = context.new_page()
        signed_in_yet = False
        for name, (path, signed_in) in pages.items():
            if signed_in and not signed_in_yet:
                context.add_cookies([{**login_cookie(teacher), "url": base}])
                signed_in_yet = True
            response = page.goto(base + path)
            assert response.status == 200, f"{name}: {response.status}"
            screenshot(page, f"i40-{name}-{language}-{size_name}")
