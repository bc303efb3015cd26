"""3 Laws in Spanish: a device whose `django_language` cookie says "es" reads the laws, the
factions, the phases, the narration and every refusal in Spanish, while the ids in its forms and
the English devices at the same table stay exactly as they were; the projector's partials draw
each line in English then in Spanish when the context is bilingual."""

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import strip_tags

from games.display import three_laws as display
from games.engines import IllegalAction, three_laws
from games.engines.i18n import Reason, say
from games.engines.three_laws.components import A_MEMBER, EXAMPLE_QUESTIONS, FACTION_NAMES
from games.services.errors import refusal_text
from tests.games.conftest import (
    SEATS,
    advance,
    facilitate,
    options,
    start_table,
    submit,
    three_laws_session,
)

LANGUAGE_COOKIE = "django_language"
# English words that only an unmarked string would leave on a Spanish screen (team names are
# "Team N" in these tests, so "Team" is not one of them).
ENGLISH = re.compile(
    r"\b(the|and|you|your|key|keys|token|tokens|round|law|laws|ask|asks|asked|turn|with|"
    r"of|to|cards?|none|place|wins|point|points|called|offers|kept|accepted|rejected)\b",
    re.IGNORECASE,
)


@pytest.fixture
def session(classroom, teacher):
    # Round 2 first: one law in force, so the laws and Error calls show at once.
    return three_laws_session(classroom, teacher, skip_first_round=True)


@pytest.fixture
def table(session, teacher, students, device_client):
    table = start_table(session, teacher, students, device_client)
    # Team 1 (the start player) plays in Spanish, every other device in English.
    table.devices[0].cookies[LANGUAGE_COOKIE] = "es"
    return table


def page(table, index: int) -> str:
    return table.devices[index].get(reverse("games:device")).content.decode()


def live_text(html: str) -> str:
    """The words of the live region (the game's own screen), tags and team names removed."""
    region = html.split('id="live"', 1)[1].split('id="announcer"', 1)[0]
    region = re.sub(r"<(script|style)\b.*?</\1>", "", region, flags=re.S)
    text = strip_tags(region).replace("&nbsp;", " ")
    return re.sub(r"Team \d+", "", text)


def ask(table, index: int, target: str, question: str = "", *, move_id: str = "q"):
    table.game.refresh_from_db()
    return table.devices[index].post(
        reverse("games:three_laws_ask", args=[table.game.pk]),
        {
            "target": target,
            "question": question,
            "version": table.game.version,
            "client_move_id": move_id,
        },
        headers={"HX-Request": "true"},
    )


def call(table, index: int, **fields):
    return table.devices[index].post(
        reverse("games:three_laws_call", args=[table.game.pk]),
        {"client_move_id": fields.pop("move_id", "c"), **fields},
        headers={"HX-Request": "true"},
    )


# -- the device pages -------------------------------------------------------------------------


def test_a_spanish_device_reads_the_laws_phases_and_buttons_in_spanish_with_the_same_ids(
    table, teacher
):
    advance(table.game, teacher, 2)  # Wake up, then the questions: Team 1 asks first
    html = page(table, 0)
    assert "Ronda 2 de 4 · <strong>Preguntas</strong>" in html
    assert "¡Tu turno!" in html and "Hazle una pregunta a un equipo, en voz alta." in html
    assert "Leyes vigentes" in html
    assert 'Los robots no dicen "yo". Llámate a ti mismo "esta unidad".' in html.replace(
        "&quot;", '"'
    )
    assert ">Preguntar a Team 2</button>" in html
    assert "¡Marcar Error!" in html
    # The faction cards it sees: Team 2 and 3 are Androids, 4 and 5 Cyborgs.
    assert html.count('tl-faction">Androides<') == 2 and html.count('tl-faction">Cíborgs<') == 2
    # Ids never change with the language.
    assert 'name="target" value="team-2"' in html and 'value="law_01"' in html
    assert 'data-seat="team-1"' in html and "tl-androids" in html
    assert not ENGLISH.findall(live_text(html)), ENGLISH.findall(live_text(html))


def test_the_english_devices_at_the_same_table_stay_in_english(table, teacher):
    advance(table.game, teacher, 2)
    html = page(table, 1)
    assert "Round 2 of 4 · <strong>Questions</strong>" in html
    assert "Team 1 asks a question" in html
    assert "Laws in force" in html and "Call Error!" in html
    assert html.count('tl-faction">Androids<') == 1 and html.count('tl-faction">Drones<') == 1
    assert "Leyes" not in html and "Ronda" not in html


def test_the_example_questions_are_offered_in_the_devices_language(table, teacher):
    advance(table.game, teacher, 2)
    spanish, english = page(table, 0), page(table, 1)
    assert "¿Estoy en la misma facción que Team 2?" in spanish
    assert "¿Soy un androide como tú?" in spanish and "¿Soy un cíborg como tú?" in spanish
    assert "Preguntas de ejemplo" in spanish
    assert "Am I in the same faction as Team 2?" not in spanish
    assert "Example questions" not in english, "only the asker gets them"
    submit(table.game, "team-1", {"type": "query", "target": "team-2"})
    english = page(table, 1)
    assert "Am I an Android like you are?" in english and "Example questions" in english
    assert "¿Soy" not in english


def test_a_question_asked_in_spanish_is_narrated_to_each_device_in_its_language(table, teacher):
    advance(table.game, teacher, 2)
    response = ask(table, 0, "team-2", "¿Soy el rango más alto que ves?")
    assert response.status_code == 200
    spanish = response.content.decode()
    assert "Team 1 le preguntó a Team 2: “¿Soy el rango más alto que ves?”" in spanish
    english = page(table, 1)
    # The words are the example question, so the English device reads it in English.
    assert "Team 1 asked Team 2: “Am I the highest rank you see?”" in english
    table.game.refresh_from_db()
    assert table.game.state["queries"][-1]["question"] == "¿Soy el rango más alto que ves?"


def test_a_teams_own_words_are_shown_as_they_were_said(table, teacher):
    advance(table.game, teacher, 2)
    ask(table, 0, "team-2", "¿Eres de mi equipo, robot?")
    assert "Team 1 asked Team 2: “¿Eres de mi equipo, robot?”" in page(table, 1)


def test_key_offers_and_answers_are_in_spanish_with_plurals(table, teacher):
    advance(table.game, teacher, 2)
    for i, seat in enumerate(SEATS):
        submit(table.game, seat, {"type": "query", "target": SEATS[(i + 1) % len(SEATS)]})
    submit(table.game, "team-1", {"type": "give", "to": "team-2"})
    submit(table.game, "team-2", {"type": "accept"})
    submit(table.game, "team-2", {"type": "give", "to": "team-1"})
    html = page(table, 0)
    assert "¡Llaves para ti!" in html
    assert "Team 2 te ofrece 2 llaves. ¿Las aceptas o las rechazas?" in html
    assert ">Aceptar las llaves</button>" in html and ">Rechazar las llaves</button>" in html
    assert "Team 2 le ofrece 2 llaves a Team 1." in html
    assert "Team 2 aceptó las llaves de Team 1." in html
    assert "Team 1 le ofrece 1 llave a Team 2." in html
    assert "0 llaves" in html and "2 llaves" in html and "1 ficha" not in html
    assert not ENGLISH.findall(live_text(html)), ENGLISH.findall(live_text(html))


def test_error_calls_and_counters_are_told_in_spanish(table, teacher):
    advance(table.game, teacher)  # Wake up: the law is enforced
    call(table, 1, kind="error", offender="team-3", law="law_01", move_id="e1")
    html = call(table, 0, kind="counter", call="c1", move_id="e2").content.decode()
    assert "Errores marcados en esta ronda" in html
    assert "Team 2 le marcó Error a Team 3" in html and "rebatido" in html
    assert "Team 1 le marcó Error a quien acusó, Team 2" in html and "sigue en pie" in html
    assert "¡Error de quien acusó! Team 1 dice que Team 2 se equivocó." in html
    assert "1 ficha" in html
    english = page(table, 2)
    assert "Team 1 called Error on the caller, Team 2" in english and "countered" in english


def test_the_reveal_banner_and_the_final_scoreboard_are_in_spanish(table, teacher):
    for _ in range(3):
        advance(table.game, teacher, 2)
        for i, seat in enumerate(SEATS):
            submit(table.game, seat, {"type": "query", "target": SEATS[(i + 1) % len(SEATS)]})
        for seat in SEATS:
            submit(table.game, seat, {"type": "keep"})
        advance(table.game, teacher)  # Reveal: only the lone Drone leads alone with a key
        if table.game.state["round_index"] == 0:
            html = page(table, 0)
            assert "¡Puntos para Drones en esta ronda!" in html
            assert "Puntos para Drones en esta ronda." in html  # the narration's line
        advance(table.game, teacher)
    html = page(table, 0)
    assert "Puntos de victoria finales" in html
    assert "¡Team 1 gana con 9 puntos!" in html
    assert "Tú: puesto 1 con 9 Puntos de victoria" in html
    assert "Team 1 wins with 9 points!" in page(table, 1)


# -- refusals ---------------------------------------------------------------------------------


def test_an_engine_refusal_reaches_a_spanish_device_in_spanish_in_team_names(table, teacher):
    advance(table.game, teacher, 2)
    before = table.game.state
    table.devices[1].cookies[LANGUAGE_COOKIE] = "es"
    html = ask(table, 1, "team-3").content.decode()  # Team 2 asks on Team 1's turn
    assert "Es el turno de Team 1 para hacer una pregunta." in html
    table.game.refresh_from_db()
    assert table.game.state == before


def test_an_english_device_gets_the_engines_words_unchanged(table, teacher):
    advance(table.game, teacher, 2)
    html = ask(table, 1, "team-3").content.decode()
    assert "It is Team 1&#x27;s turn to ask a question." in html


@pytest.mark.parametrize(
    ("fields", "spanish"),
    [
        ({"kind": "error", "law": "law_01"}, "Elige el equipo que rompió una ley."),
        ({"kind": "error", "offender": "team-2"}, "Elige la ley que se rompió."),
        ({"kind": "counter"}, "Elige el Error que estuvo mal."),
        ({"kind": "error", "offender": "team-1", "law": "law_01"}, "No puedes marcarte Error"),
        ({"kind": "error", "offender": "team-2", "law": "law_09"}, "no es una de las leyes"),
    ],
)
def test_a_bad_call_is_refused_in_spanish(table, teacher, fields, spanish):
    advance(table.game, teacher)
    html = call(table, 0, **fields).content.decode()
    assert spanish in html


def test_a_bad_question_is_refused_in_spanish(table, teacher):
    advance(table.game, teacher, 2)
    assert "Elige un equipo para preguntarle." in ask(table, 0, "").content.decode()
    html = ask(table, 0, "team-2", "x" * 281).content.decode()
    assert "Esa pregunta es demasiado larga: usa como máximo 280 letras." in html


def test_calls_before_wake_up_are_refused_in_spanish(table):
    html = call(table, 0, kind="error", offender="team-2", law="law_01").content.decode()
    assert "Las leyes solo se aplican desde Despertar hasta la Revelación." in html


def test_the_teacher_reads_the_facilitators_refusal_and_buttons_in_spanish(
    table, teacher, teacher_client
):
    teacher_client.cookies[LANGUAGE_COOKIE] = "es"
    advance(table.game, teacher, 2)
    html = facilitate(teacher_client, table.game, {"type": "advance"}, move_id="a").content
    html = html.decode()
    assert (
        "Mesa 1: Primero todos tienen que hacer su pregunta: es el turno de Team 1 para "
        "preguntar." in html
    )
    dashboard = teacher_client.get(reverse("games:teacher_tables", args=[table.session.pk]))
    assert "Ronda 2 de 4 · Preguntas" in dashboard.content.decode()


# -- the engine's words -----------------------------------------------------------------------


def refusals() -> list[IllegalAction]:
    """Every kind of refusal a game gives, from setup to the end."""
    found: list[IllegalAction] = []

    def refused(call) -> None:
        try:
            call()
        except (IllegalAction, ValueError) as exc:
            found.append(exc)
        else:
            raise AssertionError("not refused")

    seats = list(SEATS)
    for bad in (
        lambda: three_laws.new_game(seats[:3], seed=1),
        lambda: three_laws.new_game([*seats[:3], "facilitator"], seed=1),
        lambda: three_laws.new_game(seats, seed=1, start_seat="nobody"),
        lambda: three_laws.new_game(seats[:4], seed=1, factions=["androids"]),
        lambda: three_laws.new_game(seats[:4], seed=1, factions=["robots", "drones"]),
        lambda: three_laws.new_game(seats, seed=1, law_order=["law_01"]),
        lambda: three_laws.new_game(seats, seed=1, vp_deck=[4]),
        lambda: three_laws.new_game(seats, seed=1, deals=[{}]),
        lambda: three_laws.Game.from_dict({"version": 0}),
    ):
        refused(bad)
    game = three_laws.new_game(seats, seed=1, skip_first_round=True, **options(3))
    fac = three_laws.FACILITATOR
    refused(lambda: game.apply("team-1", {"type": "advance"}))
    refused(lambda: game.apply("team-1", {"type": "query", "target": "team-2"}))
    refused(lambda: game.apply(fac, {"type": "query", "target": "team-2"}))
    refused(lambda: game.apply("team-1", {"type": "fly"}))
    refused(lambda: game.apply("team-1", {"type": "keep", "extra": 1}))
    refused(lambda: game.apply("team-1", {"type": "give"}))
    refused(lambda: game.apply("team-1", "keep"))
    refused(lambda: game.apply("team-1", {"type": "error", "offender": "team-2", "law": "law_01"}))
    game.apply(fac, {"type": "advance"})
    refused(lambda: game.apply(fac, {"type": "error", "offender": "team-2", "law": "law_01"}))
    refused(lambda: game.apply("team-1", {"type": "error", "offender": "team-1", "law": "law_01"}))
    refused(lambda: game.apply("team-1", {"type": "error", "offender": "team-9", "law": "law_01"}))
    refused(lambda: game.apply("team-1", {"type": "error", "offender": "team-2", "law": "law_09"}))
    game.apply("team-1", {"type": "error", "offender": "team-2", "law": "law_01"})
    refused(lambda: game.apply("team-1", {"type": "counter", "call": "c1"}))
    refused(lambda: game.apply(fac, {"type": "counter", "call": "c1"}))
    refused(lambda: game.apply("team-2", {"type": "counter", "call": "c9"}))
    refused(lambda: game.apply("team-2", {"type": "void", "call": "c1"}))
    game.apply("team-2", {"type": "counter", "call": "c1"})
    refused(lambda: game.apply("team-3", {"type": "counter", "call": "c1"}))
    refused(lambda: game.apply("team-3", {"type": "counter", "call": "c2"}))
    game.apply(fac, {"type": "void", "call": "c2"})
    refused(lambda: game.apply(fac, {"type": "void", "call": "c2"}))
    game.apply(fac, {"type": "advance"})
    refused(lambda: game.apply(fac, {"type": "advance"}))
    refused(lambda: game.apply("team-2", {"type": "query", "target": "team-3"}))
    refused(lambda: game.apply("team-1", {"type": "query", "target": "team-1"}))
    refused(lambda: game.apply("team-1", {"type": "query", "target": "team-2", "question": 3}))
    refused(
        lambda: game.apply("team-1", {"type": "query", "target": "team-2", "question": "x" * 300})
    )
    refused(lambda: game.apply("team-1", {"type": "keep"}))
    for i, seat in enumerate(game.order):
        game.apply(seat, {"type": "query", "target": game.order[(i + 1) % len(game.order)]})
    refused(lambda: game.apply("team-1", {"type": "give", "to": "team-1"}))
    refused(lambda: game.apply("team-1", {"type": "accept"}))
    refused(lambda: game.apply(fac, {"type": "keep"}))
    game.apply("team-1", {"type": "give", "to": "team-2"})
    refused(lambda: game.apply(fac, {"type": "advance"}))
    refused(lambda: game.apply("team-3", {"type": "keep"}))
    refused(lambda: game.apply("team-3", {"type": "reject"}))
    refused(lambda: three_laws.suggest(game, fac))
    game.apply("team-2", {"type": "accept"})
    refused(lambda: game.apply("team-1", {"type": "give", "to": "team-3"}))
    refused(lambda: game.apply(fac, {"type": "advance"}))
    refused(lambda: game.results())
    return found


def test_every_refusal_of_the_engine_is_a_reason_said_in_spanish():
    found = refusals()
    assert len(found) > 40
    for exc in found:
        reason = exc.args[0]
        assert isinstance(reason, Reason), f"not a Reason: {reason!r}"
        assert str(exc) == reason  # the English words are what they always were
        with translation.override("es"):
            spanish = say(reason, translation.gettext)
        assert spanish != str(reason), f"not translated: {reason.template!r}"
        with translation.override("en"):
            assert say(reason, translation.gettext) == str(reason)


def test_phase_names_inside_a_refusal_are_translated_too():
    game = three_laws.new_game(SEATS, seed=1, **options())
    game.apply(three_laws.FACILITATOR, {"type": "advance"})
    with pytest.raises(IllegalAction) as refused:
        game.apply("team-1", {"type": "query", "target": "team-2"})
    assert str(refused.value) == "Players ask a question in the Query phase; now it is Wake Up."
    with translation.override("es"):
        assert refusal_text(refused.value) == (
            "Los jugadores preguntan en la fase de Preguntas; ahora estamos en: Despertar."
        )


def test_every_law_faction_member_and_example_question_has_spanish_words():
    with translation.override("es"):
        for words in [
            *three_laws.LAWS.values(),
            *FACTION_NAMES.values(),
            *A_MEMBER.values(),
            *EXAMPLE_QUESTIONS,
        ]:
            if words != "Drones":  # the same word in both languages
                assert translation.gettext(words) != words, words
    assert list(three_laws.LAWS) == [f"law_{n:02d}" for n in range(1, 13)]


def test_the_robots_example_questions_are_told_in_the_viewers_language():
    event = {"type": "query", "asker": "team-1", "target": "team-2", "question": ""}
    names = {"team-1": "Team 1", "team-2": "Team 2"}
    asked = [
        ("Am I an Android like you are?", "¿Soy un androide como tú?"),
        ("Am I the same rank as Team 3?", "¿Tengo el mismo rango que Team 3?"),
        ("Is my rank either 3 or 4?", "¿Mi rango es 3 o 4?"),
    ]
    for english, spanish in asked:
        line = display.narrate({**event, "question": english}, names)
        with translation.override("es"):
            assert str(line) == f"Team 1 le preguntó a Team 2: “{spanish}”"
        with translation.override("en"):
            assert str(line) == f"Team 1 asked Team 2: “{english}”"
        # And the other way round: a Spanish device picked the example in Spanish.
        line = display.narrate({**event, "question": spanish}, names)
        with translation.override("en"):
            assert str(line) == f"Team 1 asked Team 2: “{english}”"


def test_display_words_follow_the_language_active_when_they_are_drawn():
    game = three_laws.new_game(SEATS, seed=1, skip_first_round=True, **options(3))
    names = {seat: seat.replace("team-", "Team ") for seat in SEATS}
    screen = display.public_context(game.view(None), names)
    with translation.override("en"):
        assert str(screen["round_label"]) == "Round 2 of 4"
        assert str(screen["laws"][0]["text"]) == 'Robots do not say "I". Call yourself "this unit".'
    with translation.override("es"):
        assert str(screen["round_label"]) == "Ronda 2 de 4"
        assert str(screen["phase_label"]) == "Preparación"
        assert str(screen["laws"][0]["text"]).startswith('Los robots no dicen "yo".')


# -- the projector ----------------------------------------------------------------------------


class Table:
    pk = 1
    number = 1
    version = 3
    is_over = False
    is_paused = False


def projector_partial(game, *, bilingual: bool) -> str:
    names = {seat: seat.replace("team-", "Team ") for seat in SEATS}
    view = game.view(None)
    context = {
        "table": Table(),
        "screen": display.public_context(view, names),
        "events": [display.narrate({"type": "phase", "phase": "wake_up"}, names)],
        "results": [],
        "show_results": False,
    }
    if bilingual:
        context["bilingual"] = True
    with translation.override("en"):
        return render_to_string("games/three_laws/_public.html", context)


def test_the_projector_partial_says_each_line_in_english_then_spanish_when_bilingual():
    game = three_laws.new_game(SEATS, seed=1, skip_first_round=True, **options(3))
    game.apply(three_laws.FACILITATOR, {"type": "advance"})
    html = projector_partial(game, bilingual=True)
    pairs = [
        ("Round 2 of 4", "Ronda 2 de 4"),
        ("Wake up", "Despertar"),
        ("Look at the other robots&#x27; cards.", "Mira las cartas de los otros robots."),
        ("Laws in force", "Leyes vigentes"),
        ("Robots do not say &quot;I&quot;.", "Los robots no dicen &quot;yo&quot;."),
        ("Face down", "Boca abajo"),
        ("1 key", "1 llave"),
        ("0 tokens", "0 fichas"),
        ("Start player", "Jugador inicial"),
        ("Tokens in the supply: <strong>7</strong>", "Fichas en la reserva: <strong>7</strong>"),
        ("Wake up! Every robot", "¡A despertar! Cada robot"),
    ]
    for english, spanish in pairs:
        found = re.search(
            rf'<span class="bilingual-line" lang="en">[^<]*{re.escape(english)}.*?</span>'
            rf'<span class="bilingual-line" lang="es">[^<]*{re.escape(spanish)}',
            html,
            re.S,
        )
        assert found, (english, spanish)
    assert html.count('lang="en"') == html.count('lang="es"') > 20


def test_the_projector_partial_draws_each_line_once_without_bilingual():
    game = three_laws.new_game(SEATS, seed=1, skip_first_round=True, **options(3))
    html = projector_partial(game, bilingual=False)
    assert "bilingual-line" not in html
    assert "Laws in force" in html and "Leyes vigentes" not in html
    with translation.override("es"):
        names = {seat: seat for seat in SEATS}
        spanish = render_to_string(
            "games/three_laws/_public.html",
            {
                "table": Table(),
                "screen": display.public_context(game.view(None), names),
                "events": [],
                "results": [],
                "show_results": False,
            },
        )
    assert "Leyes vigentes" in spanish and "bilingual-line" not in spanish
    assert "Laws in force" not in spanish


def test_the_bilingual_grid_cell_and_scoreboard():
    game = three_laws.new_game(SEATS, seed=1, skip_first_round=True, **options(3))
    names = {seat: seat.replace("team-", "Team ") for seat in SEATS}
    while not game.is_over:
        seat = game.current_seat or three_laws.FACILITATOR
        action = (
            {"type": "advance"}
            if seat == three_laws.FACILITATOR
            else three_laws.suggest(game, seat)
        )
        game.apply(seat, action)
    table = Table()
    table.is_over = True
    context = {
        "table": table,
        "screen": display.public_context(game.view(None), names),
        "events": [],
        "results": display.results_rows(game.results(), names),
        "show_results": True,
        "bilingual": True,
    }
    with translation.override("en"):
        html = render_to_string("games/three_laws/_public.html", context)
        cell = render_to_string("games/three_laws/_compact.html", context)
    assert re.search(
        r'lang="en">Final Victory Points</span><span class="bilingual-line" lang="es">'
        r"Puntos de victoria finales",
        html,
    )
    assert re.search(r'lang="en">Team \d wins with \d+ points!</span>', html)
    assert re.search(r'lang="es">¡Team \d gana con \d+ puntos!</span>', html)
    assert re.search(
        r'lang="en">Finished</span><span class="bilingual-line" lang="es">Terminada', cell
    )
    # The region's label is an attribute: one language, never a span inside a quote.
    assert 'aria-label="Table 1"' in cell
