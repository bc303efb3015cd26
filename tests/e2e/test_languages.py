"""English and Spanish in the browser: a phone switches to Spanish on the join page (at 320 px,
where the longest Spanish words must still fit), an English phone of the same class stays in
English, and the lobby switches the projector to both languages. axe and the Nu checker run on
every page state reached (the `lang` of the page and of each language's name included)."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from classroom import services
from classroom.models import GameKind, ProjectorLanguage, Session
from tests.e2e.conftest import PHONE, PROJECTOR, login_cookie

pytestmark = pytest.mark.browser

NARROW_PHONE = {"width": 320, "height": 640}


def _no_sideways_scroll(page, viewport: dict) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page scrolls sideways ({width}px)"


@pytest.fixture
def lesson(teacher, classroom, students):
    session = Session.objects.create(
        classroom=classroom, date=datetime.date(2026, 12, 1), game=GameKind.BOT_BUILDERS
    )
    services.session_set_present(
        session=session, student_ids=[s.pk for s in students[:4]], by=teacher
    )
    services.team_autopair(session=session, by=teacher)
    return services.session_open(session=session, by=teacher)


def test_a_phone_plays_in_spanish_next_to_an_english_phone(
    live_server, lesson, students, new_context, screenshot, console_errors
):
    base = live_server.url
    spanish = console_errors(new_context(NARROW_PHONE).new_page())
    spanish.goto(f"{base}/join")
    expect(spanish.locator("html")).to_have_attribute("lang", "en")
    spanish.get_by_role("button", name="Español").click()
    expect(spanish.get_by_role("heading", name="Unirse a un juego")).to_be_visible()
    expect(spanish.locator("html")).to_have_attribute("lang", "es")
    expect(spanish.get_by_role("button", name="Español")).to_have_attribute("aria-pressed", "true")
    _no_sideways_scroll(spanish, NARROW_PHONE)
    screenshot(spanish, "languages-join-es-320")

    spanish.get_by_label("Código de sala").fill(lesson.room_code)
    spanish.get_by_role("button", name="Siguiente").click()
    expect(spanish.get_by_role("heading", name="¿Quién eres?")).to_be_visible()
    _no_sideways_scroll(spanish, NARROW_PHONE)
    screenshot(spanish, "languages-join-names-es-320")
    spanish.get_by_role("button", name=students[0].name, exact=True).click()
    spanish.wait_for_url(f"{base}/me")
    expect(spanish.get_by_text("Esperando a que tu docente empiece el juego…")).to_be_visible()
    _no_sideways_scroll(spanish, NARROW_PHONE)
    screenshot(spanish, "languages-device-es-320")

    english = console_errors(new_context(PHONE).new_page())
    english.goto(f"{base}/join?code={lesson.room_code}")
    expect(english.get_by_role("heading", name="Who are you?")).to_be_visible()
    english.get_by_role("button", name=students[1].name, exact=True).click()
    english.wait_for_url(f"{base}/me")
    expect(english.get_by_text("Waiting for your teacher to start the game…")).to_be_visible()
    expect(english.locator("html")).to_have_attribute("lang", "en")

    # The Spanish phone switches back from its own device bar, and stays on its page.
    spanish.reload()
    expect(spanish.locator("html")).to_have_attribute("lang", "es")
    spanish.get_by_role("button", name="English").click()
    expect(spanish.get_by_text("Waiting for your teacher to start the game…")).to_be_visible()
    assert spanish.url == f"{base}/me"
    assert console_errors.errors == []


def test_the_lobby_switches_the_projector_to_both_languages(
    live_server, lesson, teacher, new_context, screenshot, console_errors
):
    context = new_context(PROJECTOR)
    context.add_cookies([{**login_cookie(teacher), "url": live_server.url}])
    lobby = console_errors(context.new_page())
    lobby.goto(f"{live_server.url}/sessions/{lesson.pk}/lobby/")
    expect(lobby.get_by_role("heading", name="Join the game")).to_be_visible()
    lobby.get_by_label("Projector language").select_option("both")
    lobby.get_by_role("button", name="Use on the projector").click()
    expect(lobby.locator('.bilingual-line[lang="es"]', has_text="Únete al juego")).to_be_visible()
    expect(lobby.locator('.bilingual-line[lang="en"]', has_text="Join the game")).to_be_visible()
    lesson.refresh_from_db()
    assert lesson.projector_language == ProjectorLanguage.BOTH
    screenshot(lobby, "languages-lobby-both-projector")

    lobby.get_by_label("Projector language").select_option("es")
    lobby.get_by_role("button", name=re.compile("projector|proyector", re.IGNORECASE)).click()
    expect(lobby.get_by_role("heading", name="Únete al juego")).to_be_visible()
    expect(lobby.get_by_text("El proyector ahora muestra: Español.")).to_be_visible()
    screenshot(lobby, "languages-lobby-es-projector")
    assert console_errors.errors == []
