"""A form posted with a CSRF token that is no longer the person's (the page was opened before
they last signed in) or with no CSRF cookie at all is refused with BotBench's own page
(templates/403_csrf.html), in the person's language, and saves nothing."""

import re

from django.conf import settings
from django.test import Client
from django.urls import reverse

from classroom.models import Classroom
from tests.conftest import PASSWORD

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def sign_in_again(client: Client, teacher) -> None:
    """Log out and in again, as another tab of the same browser would."""
    page = client.get(reverse("classroom:dashboard")).content.decode()
    client.post(reverse("logout"), {"csrfmiddlewaretoken": TOKEN.search(page).group(1)})
    page = client.get(reverse("login")).content.decode()
    signed_in = client.post(
        reverse("login"),
        {
            "username": teacher.email,
            "password": PASSWORD,
            "csrfmiddlewaretoken": TOKEN.search(page).group(1),
        },
    )
    assert signed_in.status_code == 302


def test_a_form_from_before_the_last_sign_in_is_refused_with_a_page_that_says_so(teacher):
    client = Client(enforce_csrf_checks=True)
    client.force_login(teacher)
    page = client.get(reverse("classroom:class_create")).content.decode()
    old_token = TOKEN.search(page).group(1)
    sign_in_again(client, teacher)

    response = client.post(
        reverse("classroom:class_create"),
        {"name": "Robotics Club", "grade": "Grade 5", "csrfmiddlewaretoken": old_token},
    )

    assert response.status_code == 403
    text = response.content.decode()
    assert "This page was out of date" in text
    assert "Nothing was saved" in text
    assert f'href="{reverse("classroom:dashboard")}"' in text
    assert "CSRF verification failed" not in text  # not Django's page for developers
    assert not Classroom.objects.filter(name="Robotics Club").exists()


def test_a_spanish_device_without_its_csrf_cookie_reads_it_in_spanish(open_session, students):
    client = Client(enforce_csrf_checks=True)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    response = client.post(reverse("classroom:join"), {"code": open_session.room_code})
    assert response.status_code == 403
    text = response.content.decode()
    assert '<html lang="es">' in text
    assert "Esta página estaba desactualizada" in text
    assert "No se guardó nada" in text
    assert f'href="{reverse("games:device")}">Volver al juego</a>' in text
