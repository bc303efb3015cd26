"""A Spanish lesson in real Chromium, from the teacher's first login to the 3 Laws scores
(issue 40): a teacher whose browser speaks Spanish logs in, adds students from a CSV with
Spanish headers, plans a 3 Laws session and opens it (the lobby, and so the projector, then
speak Spanish without a step), the tables play to the end with Error calls, and the projector
shows the scores. The text of every page the teacher and the projector show is checked against
the English word list of tests/reports/test_spanish_leftovers.py; screenshots are taken to be
looked at. axe checks every page state (tests/e2e/a11y.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from classroom import services as classroom_services
from classroom.models import ProjectorLanguage, Session
from games import services
from tests.conftest import PASSWORD
from tests.e2e.conftest import CHROMEBOOK, PROJECTOR
from tests.games.conftest import advance
from tests.support.spanish import DATA, english_in
from tests.support.three_laws import play_turns

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SPANISH = {"Accept-Language": "es-ES,es;q=0.9"}
ROSTER = "nombre,mes_de_nacimiento\nLucía,2015-04\nMateo,2015-09\n"


def check_spanish(page, what: str, typed: tuple[str, ...] = ()) -> None:
    # Addresses, and the README section the lobby points to (the README is in English).
    text = re.sub(r"https?://\S+", " ", page.inner_text("body"))
    text = text.replace("Running it in a classroom", " ")
    for data in sorted(filter(None, [*DATA, *typed]), key=len, reverse=True):
        text = text.replace(data, " ")
    found = english_in(text)
    assert not found, f"{what} shows English: {found}\n{text[:2000]}"


def test_a_spanish_lesson_from_the_first_login_to_the_3_laws_scores(
    live_server, new_context, screenshot, teacher, classroom, students
):
    base = live_server.url
    context = new_context(CHROMEBOOK)
    context.set_extra_http_headers(SPANISH)
    desk = context.new_page()
    names = tuple(s.name for s in students) + (teacher.display_name, classroom.name)

    desk.goto(f"{base}/accounts/login/")
    check_spanish(desk, "the login page")
    desk.locator("input[name=username]").fill(teacher.email)
    desk.locator("input[name=password]").fill(PASSWORD)
    desk.locator("main form button[type=submit]").click()
    expect(desk.locator("h1")).to_be_visible()
    check_spanish(desk, "the dashboard", names)
    screenshot(desk, "spanish-lesson-dashboard")

    desk.goto(f"{base}/classes/{classroom.pk}/roster/upload/")
    check_spanish(desk, "the roster upload page", names)
    desk.locator("input[type=file]").set_input_files(
        files=[{"name": "lista.csv", "mimeType": "text/csv", "buffer": ROSTER.encode()}]
    )
    desk.locator("main form button[type=submit]").first.click()
    expect(desk.get_by_text("Lucía").first).to_be_visible()
    check_spanish(desk, "the class page after the upload", (*names, "Lucía", "Mateo"))
    screenshot(desk, "spanish-lesson-class")

    desk.goto(f"{base}/classes/{classroom.pk}/sessions/new/")
    check_spanish(desk, "the session form", names)
    desk.locator("input[name=date]").fill("2026-12-10")
    desk.locator("select[name=game]").select_option("three_laws")
    desk.locator("main form button[type=submit]").first.click()
    expect(desk.locator("h1")).to_be_visible()
    session = Session.objects.get(classroom=classroom, game="three_laws")
    assert session.projector_language == ProjectorLanguage.SPANISH
    check_spanish(desk, "the session page", names)

    present = [s.pk for s in students]
    classroom_services.session_set_present(session=session, student_ids=present, by=teacher)
    classroom_services.team_autopair(session=session, by=teacher)
    classroom_services.tables_autosplit(session=session, by=teacher)
    desk.goto(f"{base}/sessions/{session.pk}/")
    desk.locator(f"form[action='/sessions/{session.pk}/open/'] button").click()
    expect(desk.locator(".room-code, [data-room-code]").first).to_be_visible()
    session.refresh_from_db()
    check_spanish(desk, "the lobby", (*names, session.room_code or ""))
    screenshot(desk, "spanish-lesson-lobby")

    (game,) = services.session_start_tables(session=session, by=teacher)
    team_names = tuple(t.name for t in session.teams.all())
    wall_context = new_context(PROJECTOR)
    wall_context.add_cookies(context.cookies())
    wall = wall_context.new_page()
    projector = f"{base}/play/tables/{game.pk}/projector/"

    advance(game, teacher, 2)
    wall.goto(projector)
    check_spanish(wall, "the projector at the questions", (*names, *team_names))
    screenshot(wall, "spanish-lesson-projector-questions")

    desk.goto(f"{base}/play/sessions/{session.pk}/tables/")
    check_spanish(desk, "the teacher's tables", (*names, *team_names))

    while True:
        play_turns(game, "reveal-ready")
        advance(game, teacher, 2)  # Reveal, then the next round's set-up or the end
        game.refresh_from_db()
        if game.state["phase"] == "over":
            break
        advance(game, teacher, 2)  # wake up, questions
    wall.goto(projector)
    expect(wall.locator(".tl-scoreboard")).to_be_visible()
    check_spanish(wall, "the projector's scores", (*names, *team_names))
    screenshot(wall, "spanish-lesson-projector-scores")
