"""A page left open while its teacher logged out and in again in another tab holds a CSRF
token that is no longer theirs (Django makes a new one at each sign-in). A button of it says
that the tap did not go through (static/js/requests.js) instead of doing nothing, changes
nothing, and works again once the page is reloaded."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games import services as game_services
from games.models import TableGame, TableStatus
from tests.conftest import PASSWORD
from tests.e2e.conftest import CHROMEBOOK, PHONE, PROJECTOR, login_cookie
from tests.games.conftest import seat_teams

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The words a teacher reads, by language: the alert, its link, the buttons pressed.
WORDS = {
    "en": {
        "not through": "That did not go through: this page may be out of date.",
        "reload": "Reload the page",
        "pause": "Pause",
        "resume": "Resume",
    },
    "es": {
        "not through": "Eso no se completó: puede que esta página esté desactualizada.",
        "reload": "Recargar la página",
        "pause": "Pausar",
        "resume": "Reanudar",
    },
}


def sign_in_again(context, base: str, email: str) -> None:
    """Log out and in again in another tab of the same browser (a shared classroom laptop), in
    whatever language the browser asks for."""
    other_tab = context.new_page()
    other_tab.goto(f"{base}/")
    other_tab.locator("form.inline-form button[type=submit]").click()
    other_tab.wait_for_load_state()
    other_tab.goto(f"{base}/accounts/login/")
    other_tab.locator("input[name=username]").fill(email)
    other_tab.locator("input[name=password]").fill(PASSWORD)
    other_tab.locator("main form button[type=submit]").click()
    other_tab.wait_for_url(f"{base}/")
    other_tab.close()


@pytest.mark.parametrize(
    ("viewport", "language"),
    [(PHONE, "en"), (CHROMEBOOK, "en"), (PROJECTOR, "en"), (PHONE, "es")],
    ids=["phone", "laptop", "projector", "phone-es"],
)
def test_a_control_from_a_page_older_than_the_last_sign_in_says_so_and_changes_nothing(
    live_server, new_context, screenshot, teacher, open_session, students, viewport, language
):
    base = live_server.url
    seat_teams(open_session, students, teams=2)
    game_services.session_start_tables(session=open_session, by=teacher)
    game = TableGame.objects.get(table__session=open_session)
    words = WORDS[language]
    context = new_context(viewport)
    context.add_cookies(
        [
            {**login_cookie(teacher), "url": base},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base},
        ]
    )
    page = context.new_page()
    page.goto(f"{base}/play/sessions/{open_session.pk}/tables/")
    alert = page.locator("#request-failed")
    expect(alert).to_be_empty()

    sign_in_again(context, base, teacher.email)
    page.get_by_role("button", name=words["pause"]).click()
    expect(alert).to_contain_text(words["not through"])
    expect(alert.get_by_role("link", name=words["reload"])).to_be_visible()
    screenshot(page, f"outdated-page-alert-{language}-{viewport['width']}")
    game.refresh_from_db()
    assert game.status != TableStatus.PAUSED

    alert.get_by_role("link", name=words["reload"]).click()
    page.get_by_role("button", name=words["pause"]).click()
    expect(page.get_by_role("button", name=words["resume"])).to_be_visible()
    expect(alert).to_be_empty()
    game.refresh_from_db()
    assert game.status == TableStatus.PAUSED


@pytest.mark.parametrize(
    ("viewport", "language", "heading"),
    [
        (PHONE, "en", "This page was out of date"),
        (CHROMEBOOK, "en", "This page was out of date"),
        (PHONE, "es", "Esta página estaba desactualizada"),
    ],
    ids=["phone-en", "laptop-en", "phone-es"],
)
def test_a_plain_form_from_such_a_page_gets_a_page_that_says_so(
    live_server, new_context, screenshot, teacher, viewport, language, heading
):
    base = live_server.url
    context = new_context(viewport)
    context.add_cookies(
        [
            {**login_cookie(teacher), "url": base},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base},
        ]
    )
    page = context.new_page()
    page.goto(f"{base}/classes/")
    sign_in_again(context, base, teacher.email)
    # The header's "Log out" is a plain form: its token is from before the sign-in.
    page.locator("form.inline-form button[type=submit]").click()
    expect(page.get_by_role("heading", name=heading)).to_be_visible()
    screenshot(page, f"outdated-form-{language}-{viewport['width']}")
