"""Report pages in Chromium at the three sizes, and the export flow: click Export, watch the
status change by itself (htmx polling) while a real worker renders, then download."""

import pytest
from celery.contrib.testing.worker import start_worker
from playwright.sync_api import expect

from classroom.models import Classroom
from config.celery import app as celery_app
from reports.demo import seed_class
from tests.e2e.conftest import CHROMEBOOK, PHONE, PROJECTOR
from tests.reports.conftest import make_session
from tests.support.pages import no_horizontal_overflow, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.mark.layout
def test_report_pages_read_well_on_every_screen(
    new_context, live_server, teacher, school_admin, classroom, screenshot, console_errors
):
    seed_class(classroom, students=24, sessions=10, seed=3)
    session = classroom.sessions.order_by("date").first()
    tl_session = classroom.sessions.filter(game="three_laws").first()
    student = classroom.students.order_by("pk").first()
    pages = [
        ("class", f"/reports/classes/{classroom.pk}/", "Room 12 Robotics: class progress"),
        ("session", f"/reports/sessions/{session.pk}/", "Tables, places and final benches"),
        ("session-3laws", f"/reports/sessions/{tl_session.pk}/", "Winner:"),
        ("student", f"/reports/students/{student.pk}/", f"{student.name}: student progress"),
    ]
    for label, viewport in (("chromebook", CHROMEBOOK), ("phone", PHONE), ("projector", PROJECTOR)):
        page = console_errors(signed_in(new_context, live_server, teacher, viewport).new_page())
        for name, path, text in pages:
            page.goto(live_server.url + path)
            expect(page.get_by_text(text).first).to_be_visible()
            screenshot(page, f"reports-{name}-{label}")
            no_horizontal_overflow(page)
    admin = console_errors(signed_in(new_context, live_server, school_admin, CHROMEBOOK).new_page())
    admin.goto(f"{live_server.url}/reports/school/")
    expect(admin.get_by_role("heading", name="Classes", exact=True)).to_be_visible()
    screenshot(admin, "reports-school-chromebook")
    admin.goto(f"{live_server.url}/reports/")
    screenshot(admin, "reports-index-admin-chromebook")
    assert console_errors.errors == []


def test_export_button_shows_progress_then_the_download(
    new_context, live_server, teacher, school_admin, school, classroom, screenshot, console_errors
):
    session = make_session(classroom, seed=3)
    page = console_errors(signed_in(new_context, live_server, teacher, CHROMEBOOK).new_page())
    page.goto(f"{live_server.url}/reports/sessions/{session.pk}/")
    page.get_by_role("button", name="Export PDF").click()
    expect(page.get_by_text("Waiting for a worker")).to_be_visible()
    screenshot(page, "reports-export-queued")
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=20):
        link = page.get_by_role("link", name="Download the PDF")
        expect(link).to_be_visible(timeout=60_000)
        screenshot(page, "reports-export-ready")
        with page.expect_download() as download:
            link.click()
        assert download.value.suggested_filename.endswith(".pdf")
        # The whole school, as its administrator: progress by class, then the ZIP.
        Classroom.objects.create(school=school, teacher=teacher, name="Room 14 Makers")
        admin = console_errors(
            signed_in(new_context, live_server, school_admin, CHROMEBOOK).new_page()
        )
        admin.goto(f"{live_server.url}/reports/school/")
        admin.get_by_role("button", name="Export every class (ZIP)").click()
        expect(admin.get_by_role("link", name="Download the ZIP")).to_be_visible(timeout=90_000)
        screenshot(admin, "reports-school-export-ready")
    admin.goto(f"{live_server.url}/reports/exports/")
    expect(admin.get_by_text("Maple Street Elementary: all classes")).to_be_visible()
    screenshot(admin, "reports-exports-list")
    assert console_errors.errors == []


def test_an_export_being_tried_again_says_so_on_every_screen(
    new_context, live_server, teacher, classroom, screenshot
):
    from reports import services
    from reports.models import Export, ExportStatus

    session = make_session(classroom, seed=5)
    export, _ = services.export_request(target=session, by=teacher)
    # Its first worker died and the sweeper handed it on: the second attempt is rendering.
    Export.objects.filter(pk=export.pk).update(status=ExportStatus.RENDERING, attempts=2)
    for name, viewport in [("phone", PHONE), ("laptop", CHROMEBOOK), ("projector", PROJECTOR)]:
        page = signed_in(new_context, live_server, teacher, viewport).new_page()
        page.goto(f"{live_server.url}{export.get_absolute_url()}")
        expect(page.locator("#export-status")).to_contain_text("Trying again: attempt 2.")
        no_horizontal_overflow(page)
        screenshot(page, f"export-retrying-{name}")


def test_a_refused_export_says_why_in_its_box(
    new_context, live_server, school_admin, school, screenshot, console_errors
):
    # A school with no classes yet: the ZIP cannot be made, and the box under the button says
    # so (htmx swaps the region only when it is answered 200: a 400 showed nothing of it).
    for name, viewport in [("phone", PHONE), ("laptop", CHROMEBOOK)]:
        page = console_errors(
            signed_in(new_context, live_server, school_admin, viewport).new_page()
        )
        page.goto(f"{live_server.url}/reports/school/")
        page.get_by_role("button", name="Export every class (ZIP)").click()
        expect(page.locator("#export-status")).to_contain_text(
            "This school has no classes to export yet."
        )
        expect(page.locator("#request-failed")).to_be_empty()
        no_horizontal_overflow(page)
        screenshot(page, f"export-refused-{name}")
    assert console_errors.errors == []
