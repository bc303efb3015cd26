"""The session page leads the teacher to everything about the lesson."""

from django.urls import reverse

from classroom import services


def test_a_playing_session_links_its_tables_projector_teachbacks_report_and_printables(
    teacher_client, open_session, teacher
):
    services.session_mark_playing(session=open_session, by=teacher)
    html = teacher_client.get(reverse("classroom:session_detail", args=[open_session.pk])).content
    for url in (
        reverse("games:teacher_tables", args=[open_session.pk]),
        reverse("games:projector_grid", args=[open_session.pk]),
        reverse("games:assessments", args=[open_session.pk]),
        reverse("reports:session", args=[open_session.pk]),
        reverse("games:printables"),
    ):
        assert f'href="{url}"'.encode() in html, url


def test_a_draft_session_links_only_the_printables(teacher_client, bb_session):
    html = teacher_client.get(reverse("classroom:session_detail", args=[bb_session.pk])).content
    assert f'href="{reverse("games:printables")}"'.encode() in html
    assert reverse("games:teacher_tables", args=[bb_session.pk]).encode() not in html
    assert reverse("reports:session", args=[bb_session.pk]).encode() not in html


def test_the_administrator_gets_the_report_but_not_the_teacher_controls(
    school_admin_client, open_session, teacher
):
    services.session_mark_playing(session=open_session, by=teacher)
    html = school_admin_client.get(
        reverse("classroom:session_detail", args=[open_session.pk])
    ).content
    assert reverse("reports:session", args=[open_session.pk]).encode() in html
    assert reverse("games:teacher_tables", args=[open_session.pk]).encode() not in html
