"""Who chooses the language (docs/i18n.md): an adult's account choice wins over the device's
cookie and the browser; a student's device keeps its own choice in the `django_language`
cookie (two devices of one class can differ); the lobby stores the projector's language."""

import datetime
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation

from classroom import services
from classroom.models import GameKind, ProjectorLanguage, Session

ROOT = Path(__file__).resolve().parents[2]
LANGUAGE_COOKIE = settings.LANGUAGE_COOKIE_NAME


def spanish_device() -> Client:
    client = Client()
    client.cookies[LANGUAGE_COOKIE] = "es"
    return client


def html_lang(response) -> str:
    page = response.content.decode()
    start = page.index("<html lang=") + len('<html lang="')
    return page[start : page.index('"', start)]


# Adults: the account's language wins ---------------------------------------------------------


def test_a_teachers_own_language_wins_over_the_cookie_and_the_browser(teacher, teacher_client):
    teacher.language = "es"
    teacher.save(update_fields=["language"])
    teacher_client.cookies[LANGUAGE_COOKIE] = "en"
    response = teacher_client.get(reverse("classroom:dashboard"), HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert html_lang(response) == "es"
    assert response["Content-Language"] == "es"
    assert "Mis clases" in page and "Hoy y próximas" in page
    assert "My classes" not in page


def test_a_teacher_without_a_choice_follows_the_browser(teacher_client):
    spanish = teacher_client.get(reverse("classroom:dashboard"), HTTP_ACCEPT_LANGUAGE="es-MX,es")
    english = teacher_client.get(reverse("classroom:dashboard"), HTTP_ACCEPT_LANGUAGE="en-US")
    assert html_lang(spanish) == "es" and "Mis clases" in spanish.content.decode()
    assert html_lang(english) == "en" and "My classes" in english.content.decode()


def test_the_account_page_saves_the_language_and_the_next_page_speaks_it(teacher, teacher_client):
    url = reverse("classroom:account")
    page = teacher_client.get(url).content.decode()
    assert "Browser&#x27;s language" in page
    assert '<option value="es" lang="es">Español</option>' in page
    response = teacher_client.post(url, {"language": "es"}, follow=True)
    teacher.refresh_from_db()
    assert teacher.language == "es"
    page = response.content.decode()
    assert "Tu idioma quedó guardado." in page and "Tu cuenta" in page
    # Back to following the browser.
    teacher_client.post(url, {"language": ""})
    teacher.refresh_from_db()
    assert teacher.language == ""


def test_the_account_page_refuses_a_language_it_does_not_offer(teacher, teacher_client):
    response = teacher_client.post(reverse("classroom:account"), {"language": "fr"})
    assert response.status_code == 400
    teacher.refresh_from_db()
    assert teacher.language == ""


def test_nobody_sets_another_adults_language(teacher, colleague):
    with pytest.raises(services.ServiceError):
        services.user_language_set(user=teacher, language="es", by=colleague)
    teacher.refresh_from_db()
    assert teacher.language == ""


def test_the_language_middleware_runs_after_authentication():
    middleware = settings.MIDDLEWARE
    assert middleware.index("classroom.language.UserLanguageMiddleware") > middleware.index(
        "django.contrib.auth.middleware.AuthenticationMiddleware"
    )
    assert middleware.index("django.middleware.locale.LocaleMiddleware") < middleware.index(
        "classroom.language.UserLanguageMiddleware"
    )


def test_the_reset_email_is_in_the_accounts_language(teacher):
    teacher.language = "es"
    teacher.save(update_fields=["language"])
    services.password_reset_mail_send(
        email=teacher.email, domain="testserver", use_https=False, language="en"
    )
    assert mail.outbox[-1].subject == "Restablece tu contraseña de BotBench"
    assert "Elige una contraseña nueva aquí:" in mail.outbox[-1].body


def test_the_reset_email_follows_the_page_when_the_account_chose_nothing(teacher):
    services.password_reset_mail_send(
        email=teacher.email, domain="testserver", use_https=False, language="es"
    )
    assert "Alguien pidió restablecer la contraseña" in mail.outbox[-1].body


# Students: a toggle on the device --------------------------------------------------------


def test_the_toggle_remembers_the_language_on_the_device_and_goes_back(open_session):
    client = Client()
    back = f"/join?code={open_session.room_code}"
    response = client.post(reverse("classroom:set_language"), {"language": "es", "next": back})
    assert response.status_code == 302
    assert response["Location"] == back
    cookie = response.cookies[LANGUAGE_COOKIE]
    assert cookie.value == "es"
    assert cookie["max-age"] == settings.LANGUAGE_COOKIE_AGE
    page = client.get(back)
    text = page.content.decode()
    assert html_lang(page) == "es"
    assert "¿Quién eres?" in text and "Toca tu nombre." in text
    assert "Who are you?" not in text


def test_the_toggle_never_sends_the_device_off_the_site():
    response = Client().post(
        reverse("classroom:set_language"), {"language": "es", "next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("classroom:join")
    response = Client().post(
        reverse("classroom:set_language"), {"language": "es", "next": "//evil.example/"}
    )
    assert response["Location"] == reverse("classroom:join")


def test_the_toggle_with_htmx_reloads_the_whole_page():
    response = Client().post(
        reverse("classroom:set_language"),
        {"language": "es", "next": "/me"},
        headers={"HX-Request": "true"},
    )
    assert response["HX-Redirect"] == "/me"
    assert response.cookies[LANGUAGE_COOKIE].value == "es"


def test_the_toggle_ignores_an_unknown_language_and_needs_a_post():
    client = Client()
    response = client.post(reverse("classroom:set_language"), {"language": "xx", "next": "/join"})
    assert response.status_code == 302
    assert LANGUAGE_COOKIE not in response.cookies
    assert client.get(reverse("classroom:set_language")).status_code == 405


def test_the_toggle_needs_the_csrf_token():
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("classroom:set_language"), {"language": "es", "next": "/join"})
    assert response.status_code == 403


def test_the_join_page_shows_the_toggle_each_language_in_its_own_language():
    page = Client().get(reverse("classroom:join")).content.decode()
    assert 'lang="en" class="lang-option is-current" aria-pressed="true">English</button>' in page
    assert 'lang="es" class="lang-option" aria-pressed="false">Español</button>' in page
    assert '<input type="hidden" name="next" value="/join">' in page
    spanish = spanish_device().get(reverse("classroom:join")).content.decode()
    assert (
        'lang="es" class="lang-option is-current" aria-pressed="true">Español</button>' in spanish
    )
    assert "Código de sala" in spanish and "Unirse a un juego" in spanish


def test_an_english_and_a_spanish_device_in_the_same_class(open_session, students, device_client):
    english = device_client(open_session, students[0])
    spanish = device_client(open_session, students[1])
    spanish.cookies[LANGUAGE_COOKIE] = "es"
    english_page = english.get(reverse("classroom:device_home"))
    spanish_page = spanish.get(reverse("classroom:device_home"))
    assert html_lang(english_page) == "en" and html_lang(spanish_page) == "es"
    assert "You're in!" in english_page.content.decode()
    text = spanish_page.content.decode()
    assert "¡Ya estás dentro!" in text
    assert "Tu docente está formando los equipos." in text
    assert f"¿No eres {students[1].name}? Salir" in text
    assert "You're in!" not in text


def test_a_spanish_device_sees_spanish_errors(open_session):
    response = spanish_device().get(reverse("classroom:join"), {"code": "ZZZZZZ"})
    assert "No hay ningún juego abierto con el código «ZZZZZZ»." in response.content.decode()


# The projector: chosen on the lobby ---------------------------------------------------------


def _projector_url(session: Session) -> str:
    return reverse("classroom:session_projector_language", args=[session.pk])


def test_the_teacher_chooses_the_projectors_language_on_the_lobby(open_session, teacher_client):
    lobby = teacher_client.get(reverse("classroom:session_lobby", args=[open_session.pk]))
    page = lobby.content.decode()
    assert '<option value="es" lang="es">Español</option>' in page
    assert '<option value="both">English + Español</option>' in page
    response = teacher_client.post(_projector_url(open_session), {"projector_language": "es"})
    assert response.status_code == 302
    open_session.refresh_from_db()
    assert open_session.projector_language == ProjectorLanguage.SPANISH
    # The lobby is a projector page: it now speaks Spanish.
    page = teacher_client.get(response["Location"]).content.decode()
    assert "Únete al juego" in page and "y escribe el código de sala" in page
    assert "El proyector ahora muestra: Español." in page


def test_a_bilingual_projector_says_each_line_in_both_languages(open_session, teacher_client):
    services.session_set_projector_language(
        session=open_session, language="both", by=open_session.classroom.teacher
    )
    page = teacher_client.get(reverse("classroom:session_lobby", args=[open_session.pk]))
    text = page.content.decode()
    assert '<span class="bilingual-line" lang="en">Join the game</span>' in text
    assert '<span class="bilingual-line" lang="es">Únete al juego</span>' in text


def test_htmx_reloads_the_lobby_after_a_change(open_session, teacher_client):
    response = teacher_client.post(
        _projector_url(open_session), {"projector_language": "both"}, headers={"HX-Request": "true"}
    )
    assert response["HX-Refresh"] == "true"
    open_session.refresh_from_db()
    assert open_session.projector_language == "both"


@pytest.mark.parametrize("value", ["fr", "", "ES", "english"])
def test_a_bad_projector_language_is_refused_with_a_message_and_changes_nothing(
    open_session, teacher_client, value
):
    response = teacher_client.post(_projector_url(open_session), {"projector_language": value})
    open_session.refresh_from_db()
    assert open_session.projector_language == ProjectorLanguage.ENGLISH
    page = teacher_client.get(response["Location"]).content.decode()
    assert "Choose English, Español or both for the projector; nothing was changed." in page
    htmx = teacher_client.post(
        _projector_url(open_session), {"projector_language": value}, headers={"HX-Request": "true"}
    )
    assert htmx.status_code == 200
    assert 'role="alert">Choose English, Español or both' in htmx.content.decode()


@pytest.mark.parametrize(
    ("who", "status"),
    [("other_teacher_client", 404), ("colleague_client", 404), ("school_admin_client", 403)],
)
def test_only_the_classs_teacher_chooses_the_projectors_language(
    request, open_session, who, status
):
    client = request.getfixturevalue(who)
    response = client.post(_projector_url(open_session), {"projector_language": "es"})
    assert response.status_code == status
    open_session.refresh_from_db()
    assert open_session.projector_language == ProjectorLanguage.ENGLISH


def test_the_service_refuses_anyone_but_the_classs_teacher(open_session, colleague):
    with pytest.raises(services.ServiceError, match="Only the class's teacher can choose"):
        services.session_set_projector_language(session=open_session, language="es", by=colleague)


# Dates and words made in Python ---------------------------------------------------------------


def test_a_session_without_a_title_is_named_in_the_active_language(classroom):
    session = Session(
        classroom=classroom, date=datetime.date(2026, 11, 30), game=GameKind.THREE_LAWS
    )
    with translation.override("es"):
        assert str(session) == "3 Leyes de la Robótica del 30 de noviembre de 2026"
    with translation.override("en"):
        assert str(session) == "3 Laws of Robotics on Nov. 30, 2026"


def test_plural_messages_agree_in_spanish():
    from classroom.tables import SeatLimits, split_sizes, table_problems

    with translation.override("es"):
        assert table_problems({1: 1}, SeatLimits(2, 6)) == [
            "La mesa 1 tiene 1 equipo; este juego necesita de 2 a 6 equipos por mesa."
        ]
        with pytest.raises(ValueError, match="Falta 1 puesto. Agrega un puesto robot"):
            split_sizes(3, SeatLimits(4, 8))


# The catalogue -------------------------------------------------------------------------------


def test_the_catalogue_is_complete_and_up_to_date():
    """What `make lint` runs: every marked string translated, none fuzzy, nothing stale."""
    result = subprocess.run(
        [str(ROOT / "scripts" / "messages"), "--check"],
        cwd=ROOT,
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "untranslated" not in result.stdout and "fuzzy" not in result.stdout


def test_a_date_input_keeps_iso_dates_in_spanish(bb_session, teacher_client):
    """<input type="date"> reads and sends 2026-11-30 whatever the page's language."""
    teacher_client.cookies[LANGUAGE_COOKIE] = "es"
    url = reverse("classroom:session_edit", args=[bb_session.pk])
    page = teacher_client.get(url).content.decode()
    assert 'type="date" name="date" value="2026-11-30"' in page
    response = teacher_client.post(
        url, {"date": "2026-12-02", "game": "bot_builders", "variant": "standard", "team_size": "2"}
    )
    assert response.status_code == 302
    bb_session.refresh_from_db()
    assert bb_session.date == datetime.date(2026, 12, 2)
