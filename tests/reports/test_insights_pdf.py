"""The insights in the session and class PDFs (WeasyPrint, read back with pypdf): the planted
counts, both rubric versions, the 3 Laws calls, in English and in Spanish."""

import io
import re

import pytest
from django.utils import translation
from pypdf import PdfReader

from reports.documents import render_pdf
from reports.models import Export, ExportKind
from tests.reports.insights_world import plant_class


@pytest.fixture
def planted(classroom):
    return plant_class(classroom)


def pdf_text(kind: str, parameters: dict, language: str = "en") -> str:
    with translation.override(language):
        data = render_pdf(Export(kind=kind, parameters=parameters))
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    return re.sub(r"\s+", " ", text)


def test_session_pdf_holds_the_insights_with_the_planted_counts(planted):
    text = pdf_text(ExportKind.SESSION, {"session": planted.first.pk})
    of = planted.first_count
    assert "Teach next" in text
    assert f"6 of {of} teams named an Act part where a Sense part belongs" in text
    assert "Drive wheels ×4, Propeller ×2" in text
    assert f"2 of {of} teams wrote a “because” that names neither the Mission nor a purpose" in text
    assert f"2 of {of} teams named a part that is not on their own bench" in text
    assert "Ruedas motrices" in text and "Show Team" not in text


def test_class_pdf_holds_both_rubric_versions_and_the_calls(planted):
    text = pdf_text(ExportKind.CLASS, {"classroom": planted.classroom.pk})
    of = planted.first_count + planted.second_count
    assert f"7 of {of} teams named an Act part where a Sense part belongs" in text
    # Column headings are printed in capitals.
    assert "link to the mission (max 3, rubric v2)" in text.lower()
    assert "mission link (max 3, rubric v1)" in text.lower()
    assert re.search(r"Error calls 4 Right 2 Wrong 2 Counters 2", text, re.IGNORECASE)


def test_spanish_class_pdf_says_it_in_spanish(planted):
    text = pdf_text(ExportKind.CLASS, {"classroom": planted.classroom.pk}, "es")
    of = planted.first_count + planted.second_count
    assert f"7 de {of} equipos nombraron una pieza de Actuar donde va una pieza de Percibir" in text
    assert "Ruedas motrices ×5, Hélice ×2" in text and "Teach next" not in text


def test_spanish_session_pdf_prints_the_same_scores(planted):
    """The heat map in Spanish holds the scores (its columns once missed every one)."""
    english = pdf_text(ExportKind.SESSION, {"session": planted.first.pk})
    text = pdf_text(ExportKind.SESSION, {"session": planted.first.pk}, "es")
    assert "sin puntaje" not in text
    assert text.count("1/3") == english.count("1/3") >= 6
    assert text.count("3/3") == english.count("3/3") >= planted.first_count
