"""A school's retention setting: the students' data of classes archived longer than it is
counted (a dry run), then deleted by the administrator's button or `manage.py purge_archived`;
everything else stays."""

import datetime
import io

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from classroom.models import Classroom, DeviceBinding, Session, Student
from games.models import TableGame, TeachBack
from reports.models import Export, ExportKind
from reports.retention import archived_data_count, months_before
from tests.games.conftest import GOOD_SENTENCE, make_table

NOW = timezone.now()


@pytest.fixture
def expired(classroom, teacher, students, school, device_client):
    """Room 12, archived 13 months ago, with a device, a teach-back and an export with a file;
    the school keeps archived data 12 months."""
    from classroom import services
    from games.teachback import services as teachback_services

    session = services.session_open(
        session=Session.objects.create(
            classroom=classroom, date=datetime.date(2025, 9, 1), game="bot_builders"
        ),
        by=teacher,
    )
    finished = make_table(session, students, teams=2, per_team=2)
    device = device_client(session, finished.members[0])
    teachback_services.teachback_submit(
        team=finished.teams[0], fields=GOOD_SENTENCE, by_device=device.binding
    )
    export = Export.objects.create(
        kind=ExportKind.CLASS,
        parameters={"classroom": classroom.pk},
        parameters_hash="x",
        requested_by=teacher,
        school=school,
        classroom=classroom,
        title="Room 12",
        status="ready",
    )
    export.file.save("room12.pdf", ContentFile(b"%PDF-1.4"), save=True)
    classroom.archived_at = months_before(NOW, 13)
    classroom.save(update_fields=["archived_at"])
    school.retention_months = 12
    school.save(update_fields=["retention_months"])
    return classroom


@pytest.fixture
def recent(school, teacher):
    """A class archived a month ago: within the setting, untouched."""
    classroom = Classroom.objects.create(
        school=school, teacher=teacher, name="Room 14", archived_at=months_before(NOW, 1)
    )
    Student.objects.create(classroom=classroom, name="Kept")
    return classroom


@pytest.fixture(autouse=True)
def _media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def test_months_before_keeps_the_day_or_takes_the_months_last():
    moment = datetime.datetime(2026, 3, 31, 12, tzinfo=datetime.UTC)
    assert months_before(moment, 1) == datetime.datetime(2026, 2, 28, 12, tzinfo=datetime.UTC)
    assert months_before(moment, 15).date() == datetime.date(2024, 12, 31)


def test_the_dry_run_counts_only_classes_archived_longer_than_the_setting(expired, recent):
    counts = archived_data_count(school=expired.school)
    assert (counts.classes, counts.students, counts.devices) == (1, 8, 1)
    assert (counts.teachbacks, counts.exports) == (1, 1)
    assert Student.objects.filter(classroom=expired).count() == 8  # nothing deleted


def test_no_setting_deletes_nothing(expired):
    expired.school.retention_months = None
    expired.school.save()
    assert archived_data_count(school=expired.school).nothing


def test_the_command_counts_by_default_and_deletes_with_commit(expired, recent):
    out = io.StringIO()
    call_command("purge_archived", stdout=out)
    assert "Dry run, nothing deleted: 1 archived class(es): 8 student(s), 1 device(s)" in (
        out.getvalue()
    )
    assert Student.objects.filter(classroom=expired).count() == 8

    out = io.StringIO()
    call_command("purge_archived", "--commit", stdout=out)
    assert "Deleted: 1 archived class(es): 8 student(s)" in out.getvalue()
    assert not Student.objects.filter(classroom=expired).exists()
    assert not DeviceBinding.objects.filter(session__classroom=expired).exists()
    assert not TeachBack.objects.filter(team__session__classroom=expired).exists()
    assert not Export.objects.filter(classroom=expired).exists()
    # The class, its sessions and games stay; the recent class is untouched.
    assert Classroom.objects.filter(pk=expired.pk).exists()
    assert TableGame.objects.filter(session__classroom=expired).exists()
    assert Student.objects.filter(classroom=recent).count() == 1


def test_the_export_file_is_removed_after_the_commit(expired, django_capture_on_commit_callbacks):
    from reports.retention import archived_data_purge

    stored = Export.objects.get(classroom=expired).file.name
    assert default_storage.exists(stored)
    with django_capture_on_commit_callbacks(execute=True):
        archived_data_purge(school=expired.school)
    assert not default_storage.exists(stored)


def test_the_administrator_sees_the_counts_and_must_confirm(expired, school_admin_client):
    url = reverse("reports:retention")
    page = school_admin_client.get(url).content.decode()
    assert "8 students on the rosters of 1 archived class" in page
    assert "1 device that joined" in page
    assert "Delete this data now" in page

    response = school_admin_client.post(url, {"action": "purge"})
    assert response.status_code == 400
    assert "Tick the box to confirm the deletion." in response.content.decode()
    assert Student.objects.filter(classroom=expired).count() == 8

    response = school_admin_client.post(url, {"action": "purge", "confirm": "on"}, follow=True)
    assert "Deleted 8 student(s), 1 device(s), 1 teach-back(s) and 1 export(s)" in (
        response.content.decode()
    )
    assert not Student.objects.filter(classroom=expired).exists()


def test_the_administrator_sets_the_months_and_a_bad_value_is_refused(school, school_admin_client):
    url = reverse("reports:retention")
    response = school_admin_client.post(url, {"action": "save", "months": "0"})
    assert response.status_code == 400
    school.refresh_from_db()
    assert school.retention_months is None
    school_admin_client.post(url, {"action": "save", "months": "18"})
    school.refresh_from_db()
    assert school.retention_months == 18
    assert (
        "Kept for 18 months"
        in school_admin_client.get(reverse("classroom:school")).content.decode()
    )


def test_a_teacher_cannot_see_or_use_the_retention_page(expired, teacher_client):
    url = reverse("reports:retention")
    assert teacher_client.get(url).status_code == 403
    assert teacher_client.post(url, {"action": "purge", "confirm": "on"}).status_code == 403
    assert Student.objects.filter(classroom=expired).count() == 8
