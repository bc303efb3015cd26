"""The projector follows the session's projector language (chosen on the lobby), not the
teacher's: English, Spanish, or both lines for a bilingual classroom; its live redraws too."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from classroom.models import ProjectorLanguage
from tests.games.conftest import post_move, read_screen, start_live_table
from tests.support.polls import page_poll

DRAW = {"type": "draw", "source": "deck"}


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    translation.deactivate()


@pytest.fixture
def table(open_session, teacher, students, device_client):
    return start_live_table(open_session, teacher, students, device_client)


def speak(table, language: str) -> None:
    table.session.projector_language = language
    table.session.save(update_fields=["projector_language"])


def projector(client, table) -> str:
    response = client.get(reverse("games:projector", args=[table.game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def lines(html: str, lang: str) -> list[str]:
    return re.findall(rf'<span class="bilingual-line" lang="{lang}">(.*?)</span>', html, re.S)


def test_an_english_projector_is_unchanged(table, teacher_client):
    html = projector(teacher_client, table)
    assert "<h1>Table 1</h1>" in html
    assert "Light sensor" in html
    assert "bilingual-line" not in html


def test_a_spanish_projector_speaks_spanish_whatever_the_teachers_language(table, teacher_client):
    speak(table, ProjectorLanguage.SPANISH)
    teacher_client.cookies["django_language"] = "en"
    html = projector(teacher_client, table)
    assert "<h1>Mesa 1</h1>" in html
    assert "Sensor de luz" in html
    assert "en el mazo para robar" in html
    assert "Turno de <strong>Team 1</strong>" in html
    assert "bilingual-line" not in html
    # The teacher's own pages keep the teacher's language.
    tables = teacher_client.get(reverse("games:teacher_tables", args=[table.session.pk]))
    assert "<h1>Tables</h1>" in tables.content.decode()


def test_a_bilingual_projector_says_each_text_in_english_then_spanish(table, teacher_client):
    speak(table, ProjectorLanguage.BOTH)
    html = projector(teacher_client, table)
    assert html.count("<h1") == 1
    assert '<h1><span class="bilingual-line" lang="en">Table 1</span>' in html
    assert '<span class="bilingual-line" lang="es">Mesa 1</span></h1>' in html
    english, spanish = lines(html, "en"), lines(html, "es")
    assert len(english) == len(spanish) > 3
    assert "Light sensor" in english and "Sensor de luz" in spanish
    assert 'lang="en"><span class="pile-count">35</span> in the draw pile</span>' in html
    assert 'lang="es"><span class="pile-count">35</span> en el mazo para robar</span>' in html


def test_the_grid_follows_the_projector_language(table, teacher_client):
    speak(table, ProjectorLanguage.BOTH)
    html = teacher_client.get(
        reverse("games:projector_grid", args=[table.session.pk])
    ).content.decode()
    assert "Team 1&#x27;s turn" in html or "Team 1's turn" in html
    assert "Turno de Team 1" in html
    speak(table, ProjectorLanguage.SPANISH)
    html = teacher_client.get(
        reverse("games:projector_grid", args=[table.session.pk])
    ).content.decode()
    assert "todas las mesas" in html and "bilingual-line" not in html


def test_the_live_redraw_after_a_move_keeps_the_projector_language(table, teacher_client):
    speak(table, ProjectorLanguage.BOTH)
    url = page_poll(teacher_client, reverse("games:projector", args=[table.game.pk]))
    device = table.devices[0]
    screen = read_screen(device.get(reverse("games:device")).content.decode())
    post_move(device, table.game, DRAW, version=screen.version, move_id=screen.client_move_id)
    response = teacher_client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Team 1 drew from the draw pile." in lines(html, "en")
    assert "Team 1 robó del mazo para robar." in lines(html, "es")


def grid_letters(html: str) -> list[str]:
    """The slot letters of the grid's benches, in order of their slots' classes."""
    return re.findall(r'class="bb-(?:chip-cat|empty-letter)"[^>]*>([^<]*)<', html)


def test_the_grids_slot_letters_are_spanish(table, teacher_client):
    speak(table, ProjectorLanguage.SPANISH)
    html = teacher_client.get(
        reverse("games:projector_grid", args=[table.session.pk])
    ).content.decode()
    letters = set(grid_letters(html))
    # Percibir and Pensar would share a P: each has its own letters.
    assert letters == {"Pc", "Pn", "A", "E", "M"}


def test_the_grids_slot_letters_are_english_initials_in_english(table, teacher_client):
    speak(table, ProjectorLanguage.ENGLISH)
    html = teacher_client.get(
        reverse("games:projector_grid", args=[table.session.pk])
    ).content.decode()
    assert {"S", "T", "A", "P", "M"} == set(grid_letters(html))
