"""Exports through a real Celery worker on the configured broker (Redis when REDIS_URL is set,
the embedded SQLite broker otherwise): queued -> ready with the PDF's text checked, a failing
render ending failed with its reason, and the whole-school ZIP fanned out over the worker."""

import io
import zipfile

import pytest
from django.db import transaction
from pypdf import PdfReader

from classroom.models import Classroom, Team
from games.models import TeachBack
from reports import services
from reports.demo import seed_class
from reports.models import ExportStatus
from tests.reports.conftest import make_session
from tests.support.workers import wait_for, worker

pytestmark = [pytest.mark.worker, pytest.mark.pgbouncer, pytest.mark.django_db(transaction=True)]


def pdf_text(path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_session_export_goes_from_queued_to_ready_with_every_team_and_teachback(classroom, teacher):
    session = make_session(classroom, seed=3)
    with worker():
        export, _ = services.export_request(target=session, by=teacher)
        assert export.status == ExportStatus.QUEUED
        wait_for(export, {ExportStatus.READY, ExportStatus.FAILED})
    assert export.status == ExportStatus.READY, export.error
    assert export.started_at and export.finished_at and export.attempts == 1
    text = " ".join(pdf_text(export.file.path).split())
    assert "Room 12 Robotics" in text
    for team in Team.objects.filter(session=session):
        assert team.name in text
    for tb in TeachBack.objects.filter(team__session=session):
        sentence = " ".join(f"it needs them for {tb.because.split(' for ', 1)[1]}".split())
        assert tb.senses_with in text and sentence in text


def test_a_failing_render_ends_failed_with_its_reason(classroom, teacher):
    session = make_session(classroom, seed=4, assess=False)
    with worker():
        with transaction.atomic():
            export, _ = services.export_request(target=session, by=teacher)
            session.delete()  # before the task is even sent (it goes on commit)
        wait_for(export, {ExportStatus.READY, ExportStatus.FAILED})
    assert export.status == ExportStatus.FAILED
    assert "The session no longer exists" in export.error and not export.file


def test_school_export_renders_every_class_and_delivers_one_zip(school, teacher, school_admin):
    for i in range(3):
        room = Classroom.objects.create(school=school, teacher=teacher, name=f"Room {i + 1}")
        seed_class(room, students=6, sessions=2, seed=i, assess=False)
    with worker():
        export, _ = services.export_request(target=school, by=school_admin)
        wait_for(export, {ExportStatus.READY, ExportStatus.FAILED}, timeout=180)
    assert export.status == ExportStatus.READY, export.error
    assert export.parts_done == 3 and export.parts_failed == 0
    with zipfile.ZipFile(export.file.path) as archive:
        assert sorted(archive.namelist()) == [
            "index.html",
            "room-1.pdf",
            "room-2.pdf",
            "room-3.pdf",
            "school-overview.pdf",
        ]
        for name in ("room-1.pdf", "room-2.pdf", "room-3.pdf"):
            text = pdf_text(io.BytesIO(archive.read(name)))
            assert f"Room {name[5]}" in text and "Class progress report" in text
        assert "school-overview.pdf" in archive.read("index.html").decode()
