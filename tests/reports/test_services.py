"""Export jobs: the row is saved before its task is sent, a second click finds the live job, a
task run twice does nothing the second time, failures keep their reason, the sweeper fails
stuck jobs, and the whole-school fan-out counts its parts and zips them once."""

import datetime
import io
import os
import zipfile
from pathlib import Path

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from classroom.models import Classroom, Session
from classroom.services import ServiceError
from reports import services
from reports.models import Export, ExportKind, ExportStatus
from reports.services import exports_sweep_stuck, parameters_hash
from tests.reports.conftest import make_session

# Also run through a real PgBouncer in transaction pooling (scripts/pgbouncer-run in .ci/run).
pytestmark = pytest.mark.pgbouncer


def tasks(callbacks: list) -> list:
    """The on-commit callbacks that queue tasks (not the live screens' push notices)."""
    return [callback for callback in callbacks if not getattr(callback, "push", False)]


def test_request_saves_a_queued_row_and_sends_its_task_on_commit(
    seeded_class, teacher, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        export, created = services.export_request(target=seeded_class, by=teacher)
    assert created and len(callbacks) == 1
    export.refresh_from_db()
    assert export.status == ExportStatus.QUEUED
    assert export.kind == ExportKind.CLASS and export.classroom == seeded_class
    assert export.parameters == {"classroom": seeded_class.pk}
    assert export.requested_by == teacher and export.school == seeded_class.school


def test_a_second_click_while_queued_returns_the_same_export(
    seeded_class, teacher, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        first, _ = services.export_request(target=seeded_class, by=teacher)
        second, created = services.export_request(target=seeded_class, by=teacher)
    assert second.pk == first.pk and created is False
    assert len(callbacks) == 1
    assert Export.objects.count() == 1


def test_the_database_refuses_a_second_live_job_for_the_same_request(seeded_class, teacher):
    services.export_request(target=seeded_class, by=teacher)
    with pytest.raises(IntegrityError), transaction.atomic():
        Export.objects.create(
            kind=ExportKind.CLASS,
            parameters={"classroom": seeded_class.pk},
            parameters_hash=parameters_hash(ExportKind.CLASS, {"classroom": seeded_class.pk}),
            requested_by=teacher,
            school=seeded_class.school,
            status=ExportStatus.RENDERING,
        )


def test_once_ready_a_new_click_makes_a_new_export(seeded_class, teacher):
    first, _ = services.export_request(target=seeded_class, by=teacher)
    services.export_render(export_id=first.pk)
    second, created = services.export_request(target=seeded_class, by=teacher)
    assert created and second.pk != first.pk


def test_render_makes_one_pdf_and_a_second_run_changes_nothing(seeded_class, teacher):
    export, _ = services.export_request(target=seeded_class, by=teacher)
    services.export_render(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == ExportStatus.READY and export.attempts == 1
    assert export.started_at <= export.finished_at
    path = export.file.path
    with open(path, "rb") as f:
        assert f.read(5) == b"%PDF-"
    mtime = os.stat(path).st_mtime_ns
    services.export_render(export_id=export.pk)
    export.refresh_from_db()
    assert export.attempts == 1 and export.file.path == path
    assert os.stat(path).st_mtime_ns == mtime


def test_a_repeated_attempt_of_a_rendering_export_writes_the_same_single_file(
    seeded_class, teacher
):
    export, _ = services.export_request(target=seeded_class, by=teacher)
    # The worker that marked it rendering died (its heartbeats stopped a minute ago): the
    # redelivered task renders it again.
    Export.objects.filter(pk=export.pk).update(
        status=ExportStatus.RENDERING,
        attempts=1,
        updated_at=timezone.now() - datetime.timedelta(minutes=1),
    )
    services.export_render(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == ExportStatus.READY and export.attempts == 2
    folder = Path(export.file.path).parent
    mine = [p for p in folder.iterdir() if p.name.startswith(f"{export.pk:07d}-")]
    assert mine == [Path(export.file.path)]
    assert not [p for p in folder.iterdir() if p.name.startswith(".tmp-")]


def test_a_task_for_an_export_a_live_worker_is_rendering_does_nothing(seeded_class, teacher):
    export, _ = services.export_request(target=seeded_class, by=teacher)
    # Another worker started it a moment ago and its heartbeat is fresh: a second copy of the
    # task (sent again by the sweeper, or redelivered) must not render it a second time.
    Export.objects.filter(pk=export.pk).update(
        status=ExportStatus.RENDERING, attempts=1, updated_at=timezone.now()
    )
    services.export_render(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == ExportStatus.RENDERING and export.attempts == 1 and not export.file


def test_a_render_that_fails_ends_failed_with_its_reason(classroom, teacher):
    session = Session.objects.create(
        classroom=classroom, date=datetime.date(2026, 10, 1), game="bot_builders"
    )
    export, _ = services.export_request(target=session, by=teacher)
    session.delete()
    services.export_render(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == ExportStatus.FAILED
    assert "no longer exists" in export.error and not export.file


def test_retry_queues_a_failed_export_again_and_only_a_failed_one(
    seeded_class, teacher, django_capture_on_commit_callbacks
):
    export, _ = services.export_request(target=seeded_class, by=teacher)
    with pytest.raises(ServiceError):
        services.export_retry(export=export, by=teacher)
    Export.objects.filter(pk=export.pk).update(status=ExportStatus.FAILED, error="boom")
    with django_capture_on_commit_callbacks() as callbacks:
        services.export_retry(export=export, by=teacher)
    export.refresh_from_db()
    assert export.status == ExportStatus.QUEUED and export.error == ""
    assert len(tasks(callbacks)) == 1


def test_delete_file_removes_it_and_keeps_the_row(
    seeded_class, teacher, django_capture_on_commit_callbacks
):
    export, _ = services.export_request(target=seeded_class, by=teacher)
    services.export_render(export_id=export.pk)
    export.refresh_from_db()
    path = export.file.path
    with django_capture_on_commit_callbacks(execute=True):
        services.export_delete_file(export=export, by=teacher)
    export.refresh_from_db()
    assert not export.file and export.file_deleted_at is not None
    assert export.status == ExportStatus.READY and not export.has_file
    assert not os.path.exists(path)
    with pytest.raises(ServiceError):
        services.export_delete_file(export=export, by=teacher)


def test_a_live_export_cannot_lose_its_file(seeded_class, teacher):
    export, _ = services.export_request(target=seeded_class, by=teacher)
    with pytest.raises(ServiceError, match="still being made"):
        services.export_delete_file(export=export, by=teacher)


def _rendering_since(export, *, beat_ago: datetime.timedelta, attempts: int = 1, started=None):
    now = timezone.now()
    Export.objects.filter(pk=export.pk).update(
        status=ExportStatus.RENDERING,
        attempts=attempts,
        updated_at=now - beat_ago,
        started_at=started or now - beat_ago,
    )


def test_the_sweeper_requeues_only_exports_whose_worker_stopped_beating(
    seeded_class, teacher, settings, django_capture_on_commit_callbacks
):
    settings.REPORTS_HEARTBEAT_SECONDS = 10  # abandoned after 30 s without a beat
    stuck, _ = services.export_request(target=seeded_class, by=teacher)
    fresh, _ = services.export_request(target=seeded_class.students.first(), by=teacher)
    _rendering_since(stuck, beat_ago=datetime.timedelta(seconds=31))
    _rendering_since(fresh, beat_ago=datetime.timedelta(seconds=5))
    with django_capture_on_commit_callbacks() as sends:
        swept = exports_sweep_stuck()
    assert (swept.requeued, swept.failed) == (1, 0)
    assert len(tasks(sends)) == 1  # the task of the stuck export, sent again
    stuck.refresh_from_db()
    fresh.refresh_from_db()
    assert stuck.status == ExportStatus.QUEUED and stuck.retry_attempt == 2
    assert fresh.status == ExportStatus.RENDERING


def test_the_sweeper_fails_an_export_out_of_attempts_with_the_reason(
    seeded_class, teacher, settings
):
    settings.REPORTS_MAX_ATTEMPTS = 3
    export, _ = services.export_request(target=seeded_class, by=teacher)
    _rendering_since(export, beat_ago=datetime.timedelta(minutes=5), attempts=3)
    assert exports_sweep_stuck().failed == 1
    export.refresh_from_db()
    assert export.status == ExportStatus.FAILED and "worker stopped" in export.error
    assert "3 times" in export.error


def test_the_sweeper_fails_an_export_rendering_too_long_even_with_a_heartbeat(
    seeded_class, teacher, settings
):
    settings.REPORTS_STUCK_MINUTES = 15
    export, _ = services.export_request(target=seeded_class, by=teacher)
    _rendering_since(
        export,
        beat_ago=datetime.timedelta(seconds=1),
        started=timezone.now() - datetime.timedelta(minutes=16),
    )
    assert exports_sweep_stuck().failed == 1
    export.refresh_from_db()
    assert export.status == ExportStatus.FAILED and "15 minutes" in export.error


def test_the_sweeper_sends_again_a_queued_export_no_worker_started(
    seeded_class, teacher, settings, django_capture_on_commit_callbacks
):
    settings.REPORTS_RESEND_SECONDS = 120
    lost, _ = services.export_request(target=seeded_class, by=teacher)
    waiting, _ = services.export_request(target=seeded_class.students.first(), by=teacher)
    Export.objects.filter(pk=lost.pk).update(
        updated_at=timezone.now() - datetime.timedelta(minutes=3)
    )
    with django_capture_on_commit_callbacks() as sends:
        assert exports_sweep_stuck().resent == 1
    assert len(sends) == 1
    lost.refresh_from_db()
    # Sent again, and not again before another REPORTS_RESEND_SECONDS.
    assert lost.status == ExportStatus.QUEUED
    assert lost.updated_at > timezone.now() - datetime.timedelta(minutes=1)
    assert exports_sweep_stuck().resent == 0


def test_sweep_exports_command_reports_what_it_did(seeded_class, teacher, settings):
    from django.core.management import call_command

    export, _ = services.export_request(target=seeded_class, by=teacher)
    _rendering_since(export, beat_ago=datetime.timedelta(minutes=5))
    out = io.StringIO()
    call_command("sweep_exports", stdout=out)
    assert "1 requeued (worker stopped)" in out.getvalue()


# -- the whole-school fan-out ----------------------------------------------------------------


@pytest.fixture
def school_classes(seeded_class, school, teacher):
    from reports.demo import seed_class

    other = Classroom.objects.create(school=school, teacher=teacher, name="Room 14 Makers")
    seed_class(other, students=6, sessions=2, seed=4, assess=False)
    return [seeded_class, other]


def run_parts(parent: Export) -> None:
    for part in parent.parts.order_by("pk"):
        services.export_render(export_id=part.pk)


def test_school_export_fans_out_one_part_per_class_and_zips_when_the_last_is_in(
    school_classes, school_admin, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as sent:
        parent, created = services.export_request(target=school_admin.school, by=school_admin)
    assert created and parent.parts.count() == 2 and len(sent) == 2
    assert parent.parts_total == 2
    with django_capture_on_commit_callbacks() as zip_sent:
        run_parts(parent)
    parent.refresh_from_db()
    assert parent.parts_done == 2 and parent.status == ExportStatus.RENDERING
    assert len(tasks(zip_sent)) == 1  # only the part completing the set queues the ZIP
    services.export_zip(export_id=parent.pk)
    parent.refresh_from_db()
    assert parent.status == ExportStatus.READY
    with zipfile.ZipFile(parent.file.path) as archive:
        names = set(archive.namelist())
        assert names == {
            "index.html",
            "school-overview.pdf",
            "room-12-robotics.pdf",
            "room-14-makers.pdf",
        }
        index = archive.read("index.html").decode()
        assert 'href="room-14-makers.pdf"' in index and "Room 12 Robotics" in index
        assert archive.read("room-12-robotics.pdf").startswith(b"%PDF-")


def test_a_part_counted_twice_is_impossible(school_classes, school_admin):
    parent, _ = services.export_request(target=school_admin.school, by=school_admin)
    part = parent.parts.first()
    services.export_render(export_id=part.pk)
    services.export_render(export_id=part.pk)
    parent.refresh_from_db()
    assert parent.parts_done == 1


def test_a_failed_part_fails_the_school_export_with_the_class_named(school_classes, school_admin):
    parent, _ = services.export_request(target=school_admin.school, by=school_admin)
    bad = parent.parts.get(classroom=school_classes[1])
    Export.objects.filter(pk=bad.pk).update(parameters={"classroom": 999999})
    run_parts(parent)
    parent.refresh_from_db()
    assert parent.status == ExportStatus.FAILED
    assert "1 of 2 class reports failed (Room 14 Makers)" in parent.error
    # Retry runs only the failed part again, then the ZIP.
    Export.objects.filter(pk=bad.pk).update(parameters={"classroom": school_classes[1].pk})
    services.export_retry(export=parent, by=school_admin)
    parent.refresh_from_db()
    assert parent.parts_done == 1 and parent.parts_failed == 0
    services.export_render(export_id=bad.pk)
    services.export_zip(export_id=parent.pk)
    parent.refresh_from_db()
    assert parent.status == ExportStatus.READY


def test_a_teacher_cannot_export_another_school(school_classes, other_teacher):
    with pytest.raises(ServiceError):
        services.export_request(target=school_classes[0].school, by=other_teacher)


def test_calling_the_task_twice_renders_once(classroom, teacher):
    # The task function itself, called twice as a redelivery would (no broker involved: the
    # task sent on commit never leaves this test's transaction).
    from reports.tasks import render_export

    session = make_session(classroom, seed=7, assess=False)
    export, _ = services.export_request(target=session, by=teacher)
    render_export(export.pk)
    export.refresh_from_db()
    first_file, finished = export.file.name, export.finished_at
    render_export(export.pk)
    export.refresh_from_db()
    assert export.status == ExportStatus.READY and export.attempts == 1
    assert (export.file.name, export.finished_at) == (first_file, finished)


def test_every_change_of_an_export_wakes_its_status_box(
    classroom, teacher, django_capture_on_commit_callbacks
):
    """The status box's stream watches the export's topic: starting, failing and retrying each
    store a new stamp there (a box left unchanged would wait for its slow fallback poll)."""
    from django.core.cache import cache

    from classroom import push

    session = Session.objects.create(
        classroom=classroom, date=datetime.date(2026, 10, 1), game="bot_builders"
    )
    export, _ = services.export_request(target=session, by=teacher)
    key = push.topic_key(push.export_topic(export.pk))
    stamps = [cache.get(key)]
    session.delete()
    with django_capture_on_commit_callbacks(execute=True):
        services.export_render(export_id=export.pk)  # starts, then fails: the session is gone
    stamps.append(cache.get(key))
    export.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        services.export_retry(export=export, by=teacher)
    stamps.append(cache.get(key))
    assert None not in stamps[1:] and len(set(stamps)) == 3
