"""Reports in Spanish: the pages in the viewer's language, with Spanish dates and decimal commas;
an export keeps the language of the person who asked, and a real Celery worker renders its PDF
(and any reason it failed) in that language, whatever language the worker itself runs in. The
teach-back blanks are printed as the team wrote them. English stays as it was."""

import csv
import io
import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from pypdf import PdfReader

from classroom.models import Classroom
from reports import services
from reports.demo import seed_class
from reports.models import Export, ExportStatus
from reports.templatetags.report_format import day, num, ordinal, pct, signed
from tests.reports.conftest import make_session
from tests.support.workers import wait_for, worker


@pytest.fixture(autouse=True)
def _english_after(request):
    """A Spanish request leaves Spanish active in this thread: switch back after each test, so
    no later test (or the in-process worker) inherits it."""
    yield
    translation.deactivate()


def spanish(client):
    client.cookies["django_language"] = "es"
    return client


def pdf_text(path) -> str:
    text = "\n".join(page.extract_text() for page in PdfReader(path).pages)
    return re.sub(r"\s+", " ", text)


# -- formats ------------------------------------------------------------------------------------


def test_numbers_and_dates_follow_the_language():
    import datetime

    date = datetime.date(2026, 10, 1)
    with translation.override("en"):
        assert (num(6.25), pct(0.5), signed(-0.7), ordinal(1), ordinal(12)) == (
            "6.2",
            "50%",
            "−0.7",
            "1st",
            "12th",
        )
        assert (day(date), day(date, "short_day"), day(date, "long_day")) == (
            "Oct 1, 2026",
            "Oct 1",
            "Thursday, October 1, 2026",
        )
    with translation.override("es"):
        assert (num(6.25), pct(0.5), signed(1.5), ordinal(1), ordinal(12)) == (
            "6,2",
            "50%",
            "+1,5",
            "1.º",
            "12.º",
        )
        assert (day(date), day(date, "short_day"), day(date, "long_day")) == (
            "1 oct 2026",
            "1 oct",
            "jueves 1 de octubre de 2026",
        )


# -- pages --------------------------------------------------------------------------------------


def test_class_page_is_in_spanish_for_a_spanish_viewer(teacher_client, seeded_class):
    html = (
        spanish(teacher_client)
        .get(reverse("reports:class_progress", args=[seeded_class.pk]))
        .content.decode()
    )
    for words in (
        "progreso de la clase",
        "Puntaje promedio",
        "Tasa de Bot completo",
        "Promedios de la rúbrica por criterio",
        "Participación",
        "Exportar PDF",
        "Descargar como CSV:",
    ):
        assert words in html, words
    for words in ("Average score", "Export PDF", "Download as CSV:", "class progress"):
        assert words not in html, words
    # Chart titles are drawn in Spanish too (inside the SVG images).
    import base64

    svgs = [
        base64.b64decode(uri).decode()
        for uri in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', html)
    ]
    assert any("Puntaje de Bot-Builders por sesión" in svg for svg in svgs)


def test_session_page_in_spanish_keeps_the_teachback_as_the_team_wrote_it(
    teacher_client, bb_report_session
):
    html = (
        spanish(teacher_client)
        .get(reverse("reports:session", args=[bb_report_session.pk]))
        .content.decode()
    )
    assert "Mesas, lugares y bancos finales" in html and "Explicaciones" in html
    # The team's own words, untouched, in the frame of the language they were written in: this
    # team wrote in English, so its sentence reads in the English frame on the Spanish page.
    assert "My bot senses with <strong>" in html
    assert "because <strong>it rescues kittens from tall trees</strong>" in html
    assert "Lovely link to the Mission." in html
    assert "de octubre de 2026" in html  # the long date


def test_english_pages_are_unchanged(teacher_client, seeded_class, bb_report_session):
    html = teacher_client.get(
        reverse("reports:class_progress", args=[seeded_class.pk])
    ).content.decode()
    assert "Room 12 Robotics: class progress" in html and "Average score" in html
    session = teacher_client.get(
        reverse("reports:session", args=[bb_report_session.pk])
    ).content.decode()
    assert "My bot senses with <strong>" in session


def test_csv_headers_follow_the_language_and_slugs_stay(teacher_client, seeded_class):
    url = reverse("reports:class_csv", args=[seeded_class.pk, "sessions"])
    body = spanish(teacher_client).get(url).content.decode("utf-8")[1:]
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][:3] == ["Fecha", "Juego", "Presentes"]
    teacher_client.cookies.pop("django_language")
    english = list(csv.reader(io.StringIO(teacher_client.get(url).content.decode()[1:])))
    assert english[0][:3] == ["Date", "Game", "Present"]


def test_export_asked_on_a_spanish_page_keeps_spanish(teacher_client, seeded_class):
    response = spanish(teacher_client).post(
        reverse("reports:export_create"),
        {"kind": "class", "target": seeded_class.pk},
        headers={"HX-Request": "true"},
    )
    export = Export.objects.get()
    assert export.language == "es"
    assert export.title == "Room 12 Robotics: progreso de la clase"
    assert "En cola" in response.content.decode()


def test_export_asked_in_english_keeps_english(classroom, teacher):
    with translation.override("en"):
        export, _ = services.export_request(target=classroom, by=teacher)
    assert export.language == "en" and export.title == "Room 12 Robotics: class progress"


# -- the worker ---------------------------------------------------------------------------------


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_spanish_teachers_session_export_renders_in_spanish_on_the_worker(classroom, teacher):
    session = make_session(classroom, seed=3)
    from games.models import TeachBack

    teachback = TeachBack.objects.filter(team__session=session).order_by("team__number").first()
    teachback.because = "ayuda a niños en la montaña"
    teachback.language = "es"  # written on a Spanish device: the Spanish frame
    teachback.save(update_fields=["because", "language"])
    with worker():
        with translation.override("en"):  # the worker's own language plays no part
            export, _ = services.export_request(target=session, by=teacher, language="es")
        wait_for(export, {ExportStatus.READY, ExportStatus.FAILED})
    assert export.status == ExportStatus.READY, export.error
    # casefold: table heads and the kicker print in capitals (CSS text-transform).
    text = pdf_text(export.file.path).casefold()
    for words in (
        "Informe de la sesión",
        "Mesas, lugares y bancos finales",
        "Explicaciones",
        "Lugar",
        "Puntaje",
        "Mi robot percibe con",
        "de octubre de 2026",
        "Hecho por BotBench el",
        "Página 1 de",
    ):
        assert words.casefold() in text, words
    for words in ("Session report", "Tables, places and final benches", "Page 1 of"):
        assert words.casefold() not in text, words
    # The team's words as written, accents and ñ included.
    assert "ayuda a niños en la montaña" in text


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_english_export_on_the_same_worker_stays_english(classroom, teacher):
    with worker():
        export, _ = services.export_request(target=classroom, by=teacher, language="en")
        wait_for(export, {ExportStatus.READY, ExportStatus.FAILED})
    assert export.status == ExportStatus.READY, export.error
    text = pdf_text(export.file.path)
    assert "Class progress report" in text and "Page 1 of" in text
    assert "Informe" not in text


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_failed_spanish_export_gives_its_reason_in_spanish(classroom, teacher):
    from django.db import transaction

    session = make_session(classroom, seed=4, assess=False)
    with worker():
        with transaction.atomic():
            export, _ = services.export_request(target=session, by=teacher, language="es")
            session.delete()
        wait_for(export, {ExportStatus.READY, ExportStatus.FAILED})
    assert export.status == ExportStatus.FAILED
    assert "La sesión ya no existe" in export.error


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_spanish_school_export_renders_every_class_and_the_index_in_spanish(
    school, teacher, school_admin
):
    import zipfile

    for i in range(2):
        room = Classroom.objects.create(school=school, teacher=teacher, name=f"Aula {i + 1}")
        seed_class(room, students=6, sessions=2, seed=i, assess=False)
    with worker():
        export, _ = services.export_request(target=school, by=school_admin, language="es")
        wait_for(export, {ExportStatus.READY, ExportStatus.FAILED}, timeout=180)
    assert export.status == ExportStatus.READY, export.error
    assert set(export.parts.values_list("language", flat=True)) == {"es"}
    with zipfile.ZipFile(export.file.path) as archive:
        index = archive.read("index.html").decode()
        assert '<html lang="es">' in index and "Resumen de la escuela (PDF)" in index
        overview = pdf_text(io.BytesIO(archive.read("school-overview.pdf")))
        assert "Resumen de la escuela" in overview
        room = pdf_text(io.BytesIO(archive.read("aula-1.pdf")))
        assert "Informe de progreso de la clase" in room


def test_catalogue_says_the_status_words_in_spanish():
    with translation.override("es"):
        assert str(ExportStatus.READY.label) == "Listo"
        assert gettext("Export PDF") == "Exportar PDF"
