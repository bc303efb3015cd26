"""The report pages and the export flow over HTTP: what the pages show, the htmx partial that
polls itself while a job is live, the duplicate click, download, retry and delete."""

import re
from html import unescape

import pytest
from django.urls import reverse

from reports import services
from reports.models import Export, ExportStatus

HTMX = {"HX-Request": "true"}


def test_class_page_shows_figures_charts_and_every_session(teacher_client, seeded_class):
    response = teacher_client.get(reverse("reports:class_progress", args=[seeded_class.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count('src="data:image/svg+xml;base64,') == 5
    for session in seeded_class.sessions.all():
        assert reverse("reports:session", args=[session.pk]) in html
    assert "style=" not in html.split("<body", 1)[1]  # the CSP forbids inline styles


def test_session_page_draws_final_benches_as_cards_and_shows_teachbacks(
    teacher_client, bb_report_session
):
    html = teacher_client.get(
        reverse("reports:session", args=[bb_report_session.pk])
    ).content.decode()
    assert 'class="bb-card bb-' in html
    assert "it rescues kittens from tall trees" in html and "Lovely link to the Mission." in html


def test_three_laws_session_page_shows_victory_points_and_winner(teacher_client, tl_report_session):
    html = teacher_client.get(
        reverse("reports:session", args=[tl_report_session.pk])
    ).content.decode()
    assert "Victory Points" in html and "Winner:" in html


def test_student_page_names_no_other_child(teacher_client, seeded_class):
    student = seeded_class.students.order_by("pk").first()
    html = teacher_client.get(
        reverse("reports:student_progress", args=[student.pk])
    ).content.decode()
    others = seeded_class.students.exclude(pk=student.pk).values_list("name", flat=True)
    body = html.split("<main", 1)[1]
    assert student.name in body
    assert not [name for name in others if f">{name}<" in body or f" {name}," in body]


def test_export_click_returns_a_polling_partial_and_a_second_click_the_same_job(
    teacher_client, seeded_class
):
    data = {"kind": "class", "target": seeded_class.pk}
    first = teacher_client.post(reverse("reports:export_create"), data, headers=HTMX)
    html = first.content.decode()
    assert Export.objects.count() == 1
    assert first.status_code == 200 and "<html" not in html
    assert f'data-hx-get="{reverse("games:poll")}?t=' in html
    assert "every 10s" in html and "live:poll" in html and "Queued" in html
    second = teacher_client.post(reverse("reports:export_create"), data, headers=HTMX)
    assert Export.objects.count() == 1 and "Queued" in second.content.decode()


def test_the_status_region_is_drawn_again_by_the_poll_when_the_export_moves_on(
    teacher_client, other_teacher_client, seeded_class, teacher, django_capture_on_commit_callbacks
):
    export, _ = services.export_request(target=seeded_class, by=teacher)
    page = teacher_client.get(reverse("reports:export_status", args=[export.pk]))
    url = unescape(re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', page.content.decode())[1])
    assert teacher_client.get(url).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        services.export_render(export_id=export.pk)
    assert other_teacher_client.get(url).status_code == 404
    redrawn = teacher_client.get(url, headers=HTMX).content.decode()
    assert redrawn.lstrip().startswith('<div class="export-status export-ready"')
    assert reverse("reports:export_download", args=[export.pk]) in redrawn
    assert "data-hx-trigger" not in redrawn  # a finished export stops polling


def test_a_ready_export_stops_polling_and_offers_the_download(
    teacher_client, seeded_class, teacher
):
    export, _ = services.export_request(target=seeded_class, by=teacher)
    services.export_render(export_id=export.pk)
    response = teacher_client.get(reverse("reports:export_status", args=[export.pk]), headers=HTMX)
    html = response.content.decode()
    assert "data-hx-trigger" not in html
    assert reverse("reports:export_download", args=[export.pk]) in html
    download = teacher_client.get(reverse("reports:export_download", args=[export.pk]))
    assert download["Content-Type"] == "application/pdf"
    assert b"".join(download.streaming_content).startswith(b"%PDF-")
    assert 'filename="room-12-robotics-class-progress.pdf"' in download["Content-Disposition"]


@pytest.mark.parametrize(
    ("status", "attempts", "shown"),
    [
        (ExportStatus.QUEUED, 0, None),
        (ExportStatus.RENDERING, 1, None),
        # The sweeper queued it again after its worker died: the next attempt is the 2nd.
        (ExportStatus.QUEUED, 1, 2),
        (ExportStatus.RENDERING, 2, 2),
        (ExportStatus.RENDERING, 3, 3),
    ],
)
def test_the_status_box_says_when_an_export_is_being_tried_again(
    teacher_client, seeded_class, teacher, status, attempts, shown
):
    export, _ = services.export_request(target=seeded_class, by=teacher)
    Export.objects.filter(pk=export.pk).update(status=status, attempts=attempts)
    url = reverse("reports:export_status", args=[export.pk])
    html = teacher_client.get(url, headers=HTMX).content.decode()
    assert "every 10s" in html  # still live: the box updates itself when it is ready
    if shown is None:
        assert "Trying again" not in html
    else:
        assert f"Trying again: attempt {shown}." in html


def test_a_failed_export_shows_its_reason_and_retry_queues_it(
    teacher_client, seeded_class, teacher
):
    export, _ = services.export_request(target=seeded_class, by=teacher)
    Export.objects.filter(pk=export.pk).update(
        status=ExportStatus.FAILED, error="The printer ate it."
    )
    html = teacher_client.get(reverse("reports:export_status", args=[export.pk])).content.decode()
    assert (
        "The printer ate it." in html and reverse("reports:export_retry", args=[export.pk]) in html
    )
    retried = teacher_client.post(reverse("reports:export_retry", args=[export.pk]), headers=HTMX)
    export.refresh_from_db()
    assert export.status == ExportStatus.QUEUED and "live:poll" in retried.content.decode()
    # A refusal comes back as the region with its reason, 200: htmx swaps no 4xx answer, so
    # with 400 the teacher saw only the page's "That did not go through".
    again = teacher_client.post(reverse("reports:export_retry", args=[export.pk]), headers=HTMX)
    assert again.status_code == 200 and "Only a failed export" in again.content.decode()
    export.refresh_from_db()
    assert export.status == ExportStatus.QUEUED


def test_exports_list_per_class_and_delete_file(teacher_client, seeded_class, teacher):
    export, _ = services.export_request(target=seeded_class, by=teacher)
    services.export_render(export_id=export.pk)
    listing = teacher_client.get(reverse("reports:exports") + f"?class={seeded_class.pk}")
    assert export.title in listing.content.decode()
    response = teacher_client.post(reverse("reports:export_delete_file", args=[export.pk]))
    assert response.status_code == 302
    export.refresh_from_db()
    assert not export.has_file
    assert (
        teacher_client.get(reverse("reports:export_download", args=[export.pk])).status_code == 404
    )


@pytest.mark.parametrize("target", ["", "abc", "999999"])
def test_export_of_nothing_is_refused_and_creates_nothing(teacher_client, target):
    response = teacher_client.post(
        reverse("reports:export_create"), {"kind": "class", "target": target}
    )
    assert response.status_code == 404 and Export.objects.count() == 0


def test_an_unsafe_next_is_ignored(school_admin_client, school):
    # No classes: the request is refused with a message and the redirect stays on the site.
    response = school_admin_client.post(
        reverse("reports:export_create"), {"kind": "school_zip", "next": "https://evil.test/"}
    )
    assert response.status_code == 302 and response["Location"] == reverse("reports:index")
    assert Export.objects.count() == 0


def test_a_refused_export_shows_its_reason_in_the_region(school_admin_client, school):
    response = school_admin_client.post(
        reverse("reports:export_create"), {"kind": "school_zip"}, headers=HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200 and 'id="export-status"' in html
    assert "This school has no classes to export yet." in html
    assert Export.objects.count() == 0


def test_index_lists_the_teachers_classes_and_the_admins_school(
    teacher_client, school_admin_client, seeded_class
):
    html = teacher_client.get(reverse("reports:index")).content.decode()
    assert seeded_class.name in html and reverse("reports:school_overview") not in html
    html = school_admin_client.get(reverse("reports:index")).content.decode()
    assert reverse("reports:school_overview") in html
