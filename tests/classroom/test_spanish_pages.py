"""Every classroom and registration page, drawn for a Spanish reader, says nothing in English:
the catalogue check proves each marked string is translated; this proves the strings are marked.
Each page's visible text and its labels (aria-label, placeholder, title, alt) are searched for
common English words, after removing the data the test itself typed (names, e-mails)."""

import datetime
import html
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom import services
from classroom.models import Invitation

# Words that a Spanish page never contains but almost every English sentence does.
ENGLISH = re.compile(
    r"\b(the|and|you|your|yet|with|for|of|to|is|are|not|on|at|this|that|here|add|save|"
    r"edit|cancel|delete|remove|back|join|log|sign|create|plan|open|close|start|teams?|"
    r"tables?|students?|sessions?|class(es)?|present|joined|room|code|name|password|e-mail|"
    r"account|school|teacher|dashboard|reports?|printables|archived?|grade|year|date|title|"
    r"game|variant|optional|language|browser)\b",
    re.IGNORECASE,
)
# The data the pages show as typed (names of people, the school, the class, teams).
DATA = [
    "Room 12 Robotics",
    "Maple Street Elementary",
    "Hilltop Academy",
    "Alice Rivera",
    "Carol Okafor",
    "Dana Cole",
    "Bob Stone",
    "BotBench",
    "Bot-Builders",
    "Grade 4",
    "English",
    "English + Español",
    "Team 1 · Sparks",
    "Team 2 · Bolt",
    "Robot · Axle",
    "BOTBENCH_SITE_URL",
    "README",
    "Running it in a classroom",
    "CSV UTF-8",
    "name",  # the CSV column names stay as typed in a file
    "birth_month",
]
ATTRIBUTES = re.compile(r'(?:aria-label|placeholder|title|alt)="([^"]*)"')


def visible_words(page: str) -> str:
    page = re.sub(r"(?s)<(script|style|svg)\b.*?</\1>", " ", page)
    labels = " ".join(ATTRIBUTES.findall(page))
    text = html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + labels)
    text = re.sub(r"\S+@\S+", " ", text)  # e-mail addresses
    text = re.sub(r"https?://\S+|/join\?code=\S*", " ", text)  # addresses
    for data in sorted(DATA, key=len, reverse=True):
        text = text.replace(data, " ")
    return text


@pytest.fixture
def pages(teacher, school_admin, classroom, students, open_session, device_client):
    services.session_set_present(
        session=open_session, student_ids=[s.pk for s in students[:4]], by=teacher
    )
    services.team_autopair(session=open_session, by=teacher)
    services.tables_autosplit(session=open_session, by=teacher)
    services.team_add_robot(session=open_session, by=teacher)
    device = device_client(open_session, students[0])
    invitation = Invitation.objects.create(
        school=teacher.school,
        email="newbie@maple.test",
        invited_by=school_admin,
        expires_at=timezone.now() + datetime.timedelta(days=3),
    )
    student = students[5]
    session_pk = open_session.pk
    teacher_pages = [
        reverse("classroom:dashboard"),
        reverse("classroom:class_list"),
        reverse("classroom:class_create"),
        reverse("classroom:class_detail", args=[classroom.pk]),
        reverse("classroom:class_edit", args=[classroom.pk]),
        reverse("classroom:class_delete", args=[classroom.pk]),
        reverse("classroom:roster_paste", args=[classroom.pk]),
        reverse("classroom:roster_upload", args=[classroom.pk]),
        reverse("classroom:student_edit", args=[student.pk]),
        reverse("classroom:student_delete", args=[student.pk]),
        reverse("classroom:session_create", args=[classroom.pk]),
        reverse("classroom:session_detail", args=[session_pk]),
        reverse("classroom:session_edit", args=[session_pk]),
        reverse("classroom:account"),
    ]
    admin_pages = [
        reverse("classroom:school"),
        reverse("classroom:teacher_invite"),
        reverse("classroom:class_detail", args=[classroom.pk]),
        reverse("classroom:class_edit", args=[classroom.pk]),  # 403: an administrator reads
    ]
    public_pages = [
        reverse("login"),
        reverse("classroom:signup"),
        reverse("password_reset"),
        reverse("password_reset_done"),
        reverse("password_reset_complete"),
        reverse("password_reset_confirm", args=["MQ", "bad-token"]),
        reverse("classroom:join"),
        reverse("classroom:join") + f"?code={open_session.room_code}",
        reverse("classroom:join") + "?code=ZZZZZZ",
        reverse("classroom:invitation_accept", args=[invitation.token]),
        reverse("classroom:invitation_accept", args=["no-such-token"]),
        "/no-such-page/",
    ]
    return {
        "teacher": teacher_pages,
        "school_admin": admin_pages,
        "public": public_pages,
        "device": [reverse("classroom:device_home")],
        "device_client": device,
    }


def _spanish(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    return client


def _check(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code in (200, 400, 403, 404), (url, response.status_code)
    page = response.content.decode()
    assert '<html lang="es">' in page, url
    leftovers = sorted({m.group(0) for m in ENGLISH.finditer(visible_words(page))})
    assert not leftovers, f"{url} still says {leftovers}"


def test_every_teachers_page_is_spanish(pages, teacher_client):
    for url in pages["teacher"]:
        _check(_spanish(teacher_client), url)


def test_every_administrators_page_is_spanish(pages, school_admin_client):
    for url in pages["school_admin"]:
        _check(_spanish(school_admin_client), url)


def test_every_public_page_is_spanish(pages):
    for url in pages["public"]:
        _check(_spanish(Client()), url)


def test_the_devices_page_and_the_lobby_are_spanish(pages, teacher_client, open_session):
    _check(_spanish(pages["device_client"]), reverse("classroom:device_home"))
    services.session_set_projector_language(
        session=open_session, language="es", by=open_session.classroom.teacher
    )
    _check(teacher_client, reverse("classroom:session_lobby", args=[open_session.pk]))


def test_form_errors_are_spanish(teacher_client, classroom):
    response = _spanish(teacher_client).post(
        reverse("classroom:roster_paste", args=[classroom.pk]), {"names": "Ava\n\x00x\n"}
    )
    page = html.unescape(response.content.decode())
    assert "No se agregó nada." in page
    assert "Los caracteres nulos no están permitidos." in page  # Django's own catalogue
    response = _spanish(teacher_client).post(
        reverse("classroom:roster_paste", args=[classroom.pk]), {"names": "Ava\nZoe, 2015-13\n"}
    )
    page = html.unescape(response.content.decode())
    assert "Línea 1: Ava ya está en esta clase." in page or "Línea 2: el mes de nacimiento" in page
