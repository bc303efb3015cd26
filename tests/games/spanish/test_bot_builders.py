"""Bot-Builders in Spanish: a Spanish device (cookie django_language=es) sees the cards, the
buttons, the narration and the engine's refusals in Spanish, with the same ids in every form;
an English device at the same table is unchanged. The engine itself still speaks English."""

import pytest
from django.urls import reverse
from django.utils import translation

from games.display import bot_builders as display
from games.engines import IllegalAction
from games.engines import bot_builders as bb
from games.engines.i18n import Reason, say
from games.models import Move
from tests.games.conftest import post_move, read_screen, start_live_table

DRAW = {"type": "draw", "source": "deck"}
NAMES = {"team-1": "Rojo", "team-2": "Azul"}


@pytest.fixture(autouse=True)
def _english_afterwards():
    """A Spanish request leaves Spanish active in this thread: later tests start in English."""
    yield
    translation.deactivate()


def spanish(client):
    client.cookies["django_language"] = "es"
    return client


@pytest.fixture
def live(open_session, teacher, students, device_client):
    table = start_live_table(open_session, teacher, students, device_client)
    spanish(table.devices[0])
    return table


def page(client) -> str:
    response = client.get(reverse("games:device"))
    assert response.status_code == 200
    return response.content.decode()


def test_card_names_texts_and_categories_are_spanish_and_ids_unchanged():
    card = display.card("camera")
    with translation.override("es"):
        assert (str(card["name"]), str(card["label"]), str(card["text"])) == (
            "Cámara",
            "Percibir",
            "Ve caras, colores y obstáculos.",
        )
        mission = display.card("rescue_rover")
        assert [str(p) for p in mission["prefers"]] == ["Percibir", "Actuar"]
        assert str(display.card("flat_tire")["label"]) == "Falla"
    assert (card["id"], card["kind"], card["slot"]) == ("camera", "sense", "sense")
    # The same dict speaks English in English: words are translated when drawn.
    with translation.override("en"):
        assert (card["name"], card["label"]) == ("Camera", "Sense")


def test_every_card_has_a_spanish_name_and_text():
    with translation.override("es"):
        for card in bb.CARDS.values():
            assert translation.gettext(card.name) != card.name or card.name in {"Supercapacitor"}
            assert translation.gettext(card.text) != card.text


def test_narration_is_spanish_with_team_names_and_translated_cards():
    glitched = {
        "type": "glitched",
        "seat": "team-1",
        "card": "flat_tire",
        "target": "team-2",
        "slot": "act",
        "effect": "fizzled",
        "part": None,
    }
    line = display.narrate(glitched, NAMES)
    assert line == "Rojo played Flat tire on Azul: it fizzled, the Act slot was empty."
    with translation.override("es"):
        assert str(line) == (
            "Rojo jugó Llanta desinflada contra Azul: no tuvo efecto, el espacio de Actuar "
            "estaba vacío."
        )
        took = display.narrate(
            {"type": "drew", "seat": "team-2", "source": "discard", "card": "camera"}, NAMES
        )
        assert str(took) == "Azul tomó Cámara de la pila de descarte."


def test_move_labels_are_spanish():
    game = bb.new_game(["team-1", "team-2"], seed=4, start_seat="team-1")
    game.apply("team-1", DRAW)
    view = game.view("team-1")
    sections = display.move_sections(view, game.legal_actions("team-1"), NAMES)
    labels = [b.label for s in sections for g in s.groups for b in g.buttons]
    with translation.override("es"):
        spanish_labels = [str(label) for label in labels]
        headings = [str(s.heading) for s in sections]
    assert any(label.startswith("Instala ") for label in spanish_labels)
    assert any(label.startswith("Descarta ") for label in spanish_labels)
    assert "Descarta una carta" in headings
    # The English labels are unchanged (the existing tests read them).
    assert any(label.startswith("Install ") for label in labels)


def test_engine_refusals_are_reasons_with_unchanged_english():
    game = bb.new_game(["team-1", "team-2"], seed=4, start_seat="team-1")
    with pytest.raises(IllegalAction) as refused:
        game.apply("team-2", DRAW)
    reason = refused.value.args[0]
    assert isinstance(reason, Reason)
    assert reason == "It is team-1's turn, not yours."
    assert say(reason, translation.gettext) == "It is team-1's turn, not yours."
    with translation.override("es"):
        assert say(reason, translation.gettext) == "Es el turno de team-1, no el tuyo."
    game.apply("team-1", DRAW)
    with pytest.raises(IllegalAction) as refused:
        game.apply("team-1", {"type": "install", "card": "supercapacitor"})
    reason = refused.value.args[0]
    assert reason == "The Supercapacitor card is not in your hand."
    with translation.override("es"):
        assert say(reason, translation.gettext) == "La carta Supercapacitor no está en tu mano."


def test_spanish_device_shows_its_hand_buttons_and_piles_in_spanish(live):
    html = page(live.devices[0])
    assert "¡Tu turno!" in html
    for name in ("Cámara", "Placa Si/Entonces", "Ruedas motrices", "Batería"):
        assert name in html
    assert "Roba del mazo para robar (quedan 35)" in html
    assert "Toma Sensor de luz de la pila de descarte" in html
    assert "Your turn!" not in html and "Camera" not in html
    # The moves posted back are the same ids.
    assert read_screen(html).actions == [DRAW, {"type": "draw", "source": "discard"}]


def test_an_english_device_at_the_same_table_stays_english(live):
    html = page(live.devices[1])
    assert "Team 1&#x27;s turn" in html or "Team 1's turn" in html
    assert "Turno de" not in html


def test_a_spanish_device_plays_a_turn_and_reads_the_narration_in_spanish(live):
    device = live.devices[0]
    screen = read_screen(page(device))
    html = post_move(
        device, live.game, DRAW, version=screen.version, move_id=screen.client_move_id
    ).content.decode()
    screen = read_screen(html)
    install = {"type": "install", "card": "camera"}
    assert install in screen.actions
    html = post_move(
        device, live.game, install, version=screen.version, move_id=screen.client_move_id
    ).content.decode()
    assert "Team 1 instaló Cámara." in html
    assert "Lo que acaba de pasar" in html
    assert Move.objects.filter(game=live.game, action=install).exists()
    english = page(live.devices[1])
    assert "Team 1 installed Camera." in english


def test_a_refused_move_is_explained_in_the_devices_language(live):
    device = spanish(live.devices[1])
    screen = read_screen(page(live.devices[0]))
    html = post_move(
        device, live.game, DRAW, version=screen.version, move_id="not-my-turn-1"
    ).content.decode()
    assert "Es el turno de Team 1, no el tuyo." in html
    english = live.devices[2]
    html = post_move(
        english, live.game, DRAW, version=screen.version, move_id="not-my-turn-2"
    ).content.decode()
    assert "It is Team 1&#x27;s turn, not yours." in html
    assert not Move.objects.filter(game=live.game).exists()


def test_a_stale_screen_is_explained_in_spanish(live):
    device = live.devices[0]
    screen = read_screen(page(device))
    html = post_move(
        device, live.game, DRAW, version=screen.version + 5, move_id=screen.client_move_id
    ).content.decode()
    assert "La mesa avanzó desde que se dibujó tu pantalla" in html
