"""Issue 40: a Spanish class meets no English. The pages it met English on, drawn for Spanish
readers (a teacher whose browser is Spanish, a device switched to Spanish) and the session PDF,
searched for the English words in `ENGLISH` (kept here: add a word when a leftover is found).

The words were chosen from what a Spanish-speaking class reported: the lobby's texts, the card
categories, the rubric's criteria and common English words of any sentence."""

from __future__ import annotations

import datetime
import html
import io
import re

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from classroom import services as classroom_services
from classroom.models import ProjectorLanguage, Session, SessionStatus
from games.models import TeachBack
from games.teachback.services import assessment_save
from reports import services as report_services
from reports.documents import render_pdf
from tests.games.conftest import GOOD_SENTENCE, make_table
from tests.reports.conftest import make_session
from tests.support.spanish import DATA, english_in

# A team's sentence is framed in the language it was written in: the seeded ones in English.
SENTENCE = re.compile(r"(?is)My bot senses with .*?, because [^.]*\.")
ATTRIBUTES = re.compile(r'(?:aria-label|placeholder|title|alt)="([^"]*)"')


@pytest.fixture(autouse=True)
def _english_after():
    yield
    translation.deactivate()


def spanish(client):
    client.cookies["django_language"] = "es"
    return client


def words_of(page: str) -> str:
    """The text a person reads or hears: visible text and labels, without data."""
    page = re.sub(r"(?s)<(script|style|svg|head)\b.*?</\1>", " ", page)
    labels = " ".join(ATTRIBUTES.findall(page))
    text = html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + labels)
    text = re.sub(r"\S+@\S+|https?://\S+|/\S+", " ", text)
    for data in sorted(filter(None, DATA), key=len, reverse=True):
        text = text.replace(data, " ")
    return re.sub(r"\s+", " ", text)


def assert_spanish(what: str, text: str) -> None:
    found = english_in(text)
    where = [
        text[max(0, m.start() - 80) : m.end() + 80]
        for word in found
        for m in re.finditer(rf"\b{re.escape(word)}\b", text)
    ]
    assert not found, f"{what} shows English: {found}\n" + "\n".join(where)


def test_the_word_list_finds_english():
    assert english_in("Prefers Think + Act") == ["Act", "Prefers", "Think"]
    assert english_in("Prefiere Pensar + Actuar · Completo") == []


def test_a_spanish_teachers_new_session_opens_a_spanish_lobby(teacher_client, classroom):
    client = spanish(teacher_client)
    response = client.post(
        reverse("classroom:session_create", args=[classroom.pk]),
        {"date": "2026-12-07", "game": "bot_builders", "variant": "standard", "team_size": "2"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    session = Session.objects.get(classroom=classroom, date=datetime.date(2026, 12, 7))
    assert session.projector_language == ProjectorLanguage.SPANISH
    client.post(reverse("classroom:session_open", args=[session.pk]))
    lobby = client.get(reverse("classroom:session_lobby", args=[session.pk]))
    assert lobby.status_code == 200
    page = lobby.content.decode()
    assert "Únete" in page or "Unirse" in page or "únete" in page, words_of(page)[:1500]
    assert_spanish("the lobby", words_of(page))
    assert re.search(r"<title>[^<]*</title>", page)


def test_an_english_teachers_new_session_keeps_an_english_projector(teacher_client, classroom):
    teacher_client.post(
        reverse("classroom:session_create", args=[classroom.pk]),
        {"date": "2026-12-08", "game": "bot_builders", "variant": "standard", "team_size": "2"},
    )
    session = Session.objects.get(classroom=classroom, date=datetime.date(2026, 12, 8))
    assert session.projector_language == ProjectorLanguage.ENGLISH


def test_the_teachers_own_language_wins_over_the_browser(teacher, teacher_client, classroom):
    teacher.language = "es"
    teacher.save(update_fields=["language"])
    teacher_client.post(
        reverse("classroom:session_create", args=[classroom.pk]),
        {"date": "2026-12-09", "game": "bot_builders", "variant": "standard", "team_size": "2"},
        headers={"Accept-Language": "en"},
    )
    session = Session.objects.get(classroom=classroom, date=datetime.date(2026, 12, 9))
    assert session.projector_language == ProjectorLanguage.SPANISH


@pytest.fixture
def finished(classroom, teacher, students, device_client):
    session = Session.objects.create(
        classroom=classroom,
        date=datetime.date(2026, 12, 3),
        game="bot_builders",
    )
    session = classroom_services.session_open(session=session, by=teacher)
    table = make_table(session, students, teams=2, per_team=2)
    device = device_client(session, table.members[0])
    Session.objects.filter(pk=session.pk).update(status=SessionStatus.PLAYING)
    return table, device


def test_the_teachback_page_names_the_categories_in_spanish(finished):
    table, device = finished
    page = (
        spanish(device)
        .get(reverse("games:teachback", args=[table.table.session.pk]))
        .content.decode()
    )
    text = words_of(page)
    if "Prefiere" in text:
        assert re.search(r"Prefiere (Percibir|Pensar|Actuar|Energía|Misión)", text), text
    assert_spanish("the teach-back page", text)


def test_the_assessment_page_names_the_slots_in_spanish(finished, teacher_client):
    from games.teachback import services as teachback_services

    table, device = finished
    teachback_services.teachback_submit(
        team=table.teams[0], fields=GOOD_SENTENCE, by_device=device.binding
    )
    page = (
        spanish(teacher_client)
        .get(reverse("games:assessments", args=[table.table.session.pk]))
        .content.decode()
    )
    text = words_of(page)
    for slot in ("Percibir", "Pensar", "Actuar", "Energía", "Misión"):
        assert slot in text
    assert_spanish("the assessment page", SENTENCE.sub(" ", text))


@pytest.fixture
def assessed_session(classroom):

    session = make_session(classroom, seed=3)
    teachback = TeachBack.objects.filter(team__session=session).order_by("team__number").first()
    teachback.because = "it rescues kittens from tall trees"
    teachback.save(update_fields=["because"])
    assessment_save(
        teachback=teachback,
        scores={"complete": 3, "right_jobs": 2, "mission_link": 3, "said_clearly": None},
        comment="Lovely link to the Mission.",
        by=classroom.teacher,
    )
    return session


def _criteria_in_spanish(text: str) -> None:
    from django.utils.translation import gettext

    with translation.override("es"):
        titles = [gettext(t) for t in ("Complete", "Right jobs", "Mission link", "Said clearly")]
    for title in titles:
        assert title in text, title


def test_the_session_report_shows_the_rubric_in_spanish(teacher_client, assessed_session):
    page = (
        spanish(teacher_client)
        .get(reverse("reports:session", args=[assessed_session.pk]))
        .content.decode()
    )
    text = words_of(page)
    _criteria_in_spanish(text)
    assert_spanish("the session report", SENTENCE.sub(" ", text))


def test_the_session_pdf_shows_the_rubric_in_spanish(classroom, teacher, assessed_session):
    export, _ = report_services.export_request(target=assessed_session, by=teacher, language="es")
    with translation.override("es"):
        data = render_pdf(export)
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    text = re.sub(r"\s+", " ", text)
    _criteria_in_spanish(text)
    text = SENTENCE.sub(" ", text)
    # What the teams wrote after "because" is theirs, in their words (the insights group it).
    written = TeachBack.objects.filter(team__session=assessed_session).values_list(
        "because", flat=True
    )
    for data_text in sorted(filter(None, [*DATA, *written]), key=len, reverse=True):
        text = re.sub(re.escape(data_text), " ", text, flags=re.IGNORECASE)
    assert_spanish("the session PDF", text)
