"""A Spanish phone and an English phone at one 3 Laws table (with two robot seats), in real
Chromium: the Spanish device asks its question, calls Error and offers its key in Spanish; the
English device and the projector see every one of those moves in English, and the robots'
questions reach each phone in its language. Screenshots of the Spanish phone at 390 px are
taken to be looked at (long Spanish words must fit).

Every change goes through the browser (the teacher's dashboard, the phones): the live server's
threads read the cache under their own prefix, so a move made from the test's thread would not
wake their screens."""

import dataclasses

import pytest
from playwright.sync_api import expect

from classroom import services as classroom_services
from classroom.models import ProjectorLanguage
from games import engine_registry, services
from games.engine_registry import get_engine
from games.models import TableGame
from tests.e2e.conftest import (
    CHROMEBOOK,
    LIVE_UPDATE,
    PHONE,
    PROJECTOR,
    click_and_wait,
    device_cookie,
    login_cookie,
)
from tests.games.conftest import LAW_ORDER, VP_DECK, seat_teams, three_laws_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Four seats play with two factions: Team 1 (Spanish) a Drone, Team 2 (English) an Android.
DEAL = {
    "team-1": ["drones", 1],
    "team-2": ["androids", 3],
    "team-3": ["androids", 2],
    "team-4": ["drones", 4],
}


@pytest.fixture
def fixed_cards(monkeypatch):
    engine = get_engine("three_laws")

    def options_for(variant, skip_first_round, seats, birth_months):
        fixed = {
            "start_seat": "team-1",
            "deals": [dict(DEAL) for _ in range(3 if skip_first_round else 4)],
            "law_order": LAW_ORDER,
            "vp_deck": VP_DECK,
        }
        return {**engine.options_for(variant, skip_first_round, seats, birth_months), **fixed}

    patched = dataclasses.replace(engine, options_for=options_for)
    monkeypatch.setitem(engine_registry.ENGINES, "three_laws", patched)


def test_a_spanish_and_an_english_device_play_a_round_each_in_its_language(
    live_server,
    new_context,
    screenshot,
    console_errors,
    teacher,
    classroom,
    students,
    fixed_cards,
):
    # Round 2 first: one law is in force from Wake up, so Error can be called.
    session = three_laws_session(classroom, teacher, skip_first_round=True)
    session.projector_language = ProjectorLanguage.BOTH
    session.save(update_fields=["projector_language"])
    table, _ = seat_teams(session, students, teams=2)
    for _ in range(2):
        classroom_services.team_add_robot(session=session, by=teacher, table=table)
    services.session_start_tables(session=session, by=teacher)
    game = TableGame.objects.get(table=table)
    base = live_server.url

    def open_page(viewport, cookies, path):
        context = new_context(viewport)
        context.add_cookies([{**cookie, "url": base} for cookie in cookies])
        page = console_errors(context.new_page())
        page.goto(f"{base}{path}")
        return page

    spanish = open_page(
        PHONE,
        [device_cookie(session, students[0]), {"name": "django_language", "value": "es"}],
        "/play/",
    )
    english = open_page(
        PHONE,
        [device_cookie(session, students[1]), {"name": "django_language", "value": "en"}],
        "/play/",
    )
    desk = open_page(CHROMEBOOK, [login_cookie(teacher)], f"/play/sessions/{session.pk}/tables/")
    wall = open_page(PROJECTOR, [login_cookie(teacher)], f"/play/tables/{game.pk}/projector/")

    expect(spanish.locator(".tl-round")).to_have_text("Ronda 2 de 4 · Preparación")
    expect(spanish.locator(".turn-other")).to_have_text(
        "Las cartas están repartidas boca abajo. El docente despierta a los robots."
    )
    expect(english.locator(".tl-round")).to_have_text("Round 2 of 4 · Setup")
    # The projector is set to both languages: each line in English, then in Spanish.
    expect(wall.locator(".tl-head-phase [lang=en]")).to_have_text("Setup")
    expect(wall.locator(".tl-head-phase [lang=es]")).to_have_text("Preparación")

    # The teacher wakes the robots and starts the questions: Team 1 (Spanish) asks first.
    click_and_wait(desk, desk.get_by_role("button", name="Wake up", exact=True), game)
    click_and_wait(desk, desk.get_by_role("button", name="Start questions", exact=True), game)
    expect(spanish.get_by_text("¡Tu turno!", exact=True)).to_be_visible(timeout=LIVE_UPDATE)
    expect(spanish.locator(".tl-round")).to_have_text("Ronda 2 de 4 · Preguntas")
    expect(spanish.locator(".tl-law-text").first).to_have_text(
        'Los robots no dicen "yo". Llámate a ti mismo "esta unidad".'
    )
    expect(english.get_by_text("Team 1 asks a question")).to_be_visible(timeout=LIVE_UPDATE)
    expect(wall.locator(".tl-head-turn [lang=en]")).to_have_text(
        "Team 1 asks a question", timeout=LIVE_UPDATE
    )

    spanish.get_by_text("Preguntas de ejemplo").click()
    expect(spanish.get_by_text("¿Crees que somos de la misma facción?")).to_be_visible()
    spanish.get_by_label("Tu pregunta").fill("¿Soy el rango más alto que ves?")
    screenshot(spanish, "3laws-es-phone-ask")
    click_and_wait(
        spanish, spanish.get_by_role("button", name="Preguntar a Team 2", exact=True), game
    )
    expect(
        spanish.locator("#live").get_by_text(
            "Team 1 le preguntó a Team 2: “¿Soy el rango más alto que ves?”"
        )
    ).to_be_visible()
    # The English phone and the projector read the same question in English: it is one of the
    # rulebook's examples, which each screen says in its own language.
    asked = "Team 1 asked Team 2: “Am I the highest rank you see?”"
    expect(english.locator("#live").get_by_text(asked)).to_be_visible(timeout=LIVE_UPDATE)
    expect(wall.locator("#live").get_by_text(asked)).to_be_visible(timeout=LIVE_UPDATE)
    expect(english.get_by_text("Your turn!", exact=True)).to_be_visible()
    screenshot(english, "3laws-en-phone-after-spanish-ask")

    # The Spanish phone calls Error on Team 2 for the first law; everyone sees the call.
    spanish.locator('input[name="law"][value="law_01"]').check()
    spanish.locator('input[name="offender"][value="team-2"]').check()
    screenshot(spanish, "3laws-es-phone-error-form")
    click_and_wait(spanish, spanish.get_by_role("button", name="¡Marcar Error!"))
    expect(spanish.locator("#live").get_by_text("Team 1 le marcó Error a Team 2")).to_be_visible()
    for page in (english, wall):
        expect(page.locator("#live").get_by_text("Team 1 called Error on Team 2")).to_be_visible(
            timeout=LIVE_UPDATE
        )
    # The English phone answers with Error on the caller, in English.
    click_and_wait(
        english,
        english.get_by_role("button", name="Error on the caller: Team 1 was wrong", exact=True),
    )
    expect(
        spanish.locator("#live").get_by_text("¡Error de quien acusó! Team 2 dice que Team 1")
    ).to_be_visible(timeout=LIVE_UPDATE)

    # Team 2 asks; the two robots ask in the same request, in words each phone reads in its own
    # language; then the key transfers start.
    click_and_wait(english, english.get_by_role("button", name="Ask Team 1", exact=True), game)
    give = spanish.get_by_role("button", name="Dar mi 1 llave a Team 2", exact=True)
    expect(give).to_be_visible(timeout=LIVE_UPDATE)
    expect(spanish.locator(".tl-round")).to_have_text("Ronda 2 de 4 · Entrega de llaves")
    robot_line = spanish.locator("#live .events-list li", has_text="Robot")
    expect(robot_line.first).to_contain_text("le preguntó a")
    assert "asked" not in spanish.locator("#live .events-list").inner_text()
    assert "le preguntó" not in english.locator("#live .events-list").inner_text()
    screenshot(spanish, "3laws-es-phone-transfer")

    # The Spanish phone offers its key; the English phone accepts it in English.
    click_and_wait(spanish, give, game)
    expect(english.get_by_text("Keys for you!")).to_be_visible(timeout=LIVE_UPDATE)
    expect(english.get_by_text("Team 1 offers you 1 key. Accept or reject?")).to_be_visible()
    expect(
        spanish.get_by_text("Team 1 le ofrece 1 llave a Team 2: ¿la acepta o la rechaza?")
    ).to_be_visible()
    screenshot(english, "3laws-en-phone-offer")
    click_and_wait(english, english.get_by_role("button", name="Accept the keys"), game)
    expect(
        spanish.locator("#live").get_by_text("Team 2 aceptó las llaves de Team 1.")
    ).to_be_visible(timeout=LIVE_UPDATE)
    expect(english.get_by_text("Your turn!", exact=True)).to_be_visible(timeout=LIVE_UPDATE)
    click_and_wait(english, english.get_by_role("button", name="Keep my keys"), game)

    # The robots take their transfer turns; one may offer its keys to Team 2, which rejects
    # them. Then the teacher reveals the cards.
    for _ in range(2):
        game.refresh_from_db()
        pending = game.state["pending"]
        if pending and pending["to"] == "team-2":
            reject = english.get_by_role("button", name="Reject the keys")
            click_and_wait(english, reject, game)
    click_and_wait(desk, desk.get_by_role("button", name="Reveal cards", exact=True), game)
    expect(spanish.locator(".tl-round")).to_have_text(
        "Ronda 2 de 4 · Revelación", timeout=LIVE_UPDATE
    )
    # Who scores depends on the robots' transfers; each phone says it in its language.
    expect(spanish.locator(".tl-scored-banner")).to_contain_text("en esta ronda")
    expect(english.locator(".tl-scored-banner")).to_contain_text("this round", timeout=LIVE_UPDATE)
    expect(spanish.locator('.tl-seat[data-seat="team-1"] .tl-faction')).to_have_text("Drones")
    expect(spanish.locator('.tl-seat[data-seat="team-2"] .tl-faction')).to_have_text("Androides")
    screenshot(spanish, "3laws-es-phone-reveal")

    # The projector, in both languages, follows the round to its reveal.
    expect(wall.locator(".tl-head-phase [lang=en]")).to_have_text("Reveal", timeout=LIVE_UPDATE)
    expect(wall.locator(".tl-head-phase [lang=es]")).to_have_text("Revelación")
    expect(wall.locator(".tl-scored-banner")).to_contain_text("this round")
    screenshot(wall, "3laws-projector-with-a-spanish-device")

    # Nothing on the Spanish phone is wider than the phone: long words wrap.
    for page in (spanish, english):
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
    assert console_errors.errors == []
