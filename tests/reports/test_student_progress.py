"""A student's progress: each criterion's level session by session and the misconceptions that
went away, on the student report and in its PDF."""

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from games.models import TeachBack
from reports.documents import render_pdf
from reports.insights_screens import student_progress_screen
from reports.models import Export, ExportKind
from tests.reports.insights_world import plant_class


@pytest.fixture
def planted(classroom):
    return plant_class(classroom)


def _student_who_stopped(planted):
    """A student whose team put drive wheels in "senses with" on Oct 1 and not on Oct 8."""
    for student in planted.classroom.students.order_by("pk"):
        written = {
            tb.team.session_id: tb.senses_with
            for tb in TeachBack.objects.filter(team__memberships__student=student).select_related(
                "team"
            )
        }
        first, second = written.get(planted.first.pk), written.get(planted.second.pk)
        if first and first.lower() == "drive wheels" and second == "camera":
            return student
    raise AssertionError("the planted class has no such student")


def test_a_misconception_that_went_away_is_named_with_its_sessions(planted):
    progress = student_progress_screen(_student_who_stopped(planted))
    (trend,) = progress["misconception_trends"]
    assert trend["text"] == "Named an Act part where a Sense part belongs (“senses with”)"
    assert trend["shown_in"] == "Oct 1" and trend["gone_since"] == "Oct 8"
    heat = progress["criteria_over_time"]
    assert heat.columns == ["Oct 1", "Oct 8"]
    rows = {label: [c.text for c in cells] for label, _, cells in heat.rows}
    assert rows["Right jobs (max 3, rubric v1, v2)"] == ["1/3", "3/3"]
    assert rows["Mission link (max 3, rubric v1)"] == ["2/3", ""]
    assert rows["Link to the Mission (max 3, rubric v2)"] == ["", "3/3"]


def test_student_page_and_pdf_show_the_progress(teacher_client, planted):
    student = _student_who_stopped(planted)
    html = teacher_client.get(reverse("reports:student_progress", args=[student.pk])).content
    html = html.decode()
    assert "Went away:" in html and "Not on Oct 8." in html
    data = render_pdf(Export(kind=ExportKind.STUDENT, parameters={"student": student.pk}))
    text = re.sub(
        r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
    )
    assert "Went away: Named an Act part where a Sense part belongs" in text
    assert "Shown on Oct 1. Not on Oct 8." in text
