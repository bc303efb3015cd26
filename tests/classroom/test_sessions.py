"""Sessions: planning with the game's rules, attendance, open/close, playing, the lobby."""

import datetime
import re
from html import unescape

import pytest
from django.urls import reverse

from classroom import push, services
from classroom.models import DeviceBinding, GameKind, Session, SessionStatus

GOOD = {"date": "2026-12-01", "game": "bot_builders", "variant": "two_player", "team_size": "3"}


def test_teacher_plans_a_session(teacher_client, classroom):
    response = teacher_client.post(reverse("classroom:session_create", args=[classroom.pk]), GOOD)
    session = Session.objects.get()
    assert response.url == session.get_absolute_url()
    assert (session.date, session.variant, session.team_size, session.status) == (
        datetime.date(2026, 12, 1),
        "two_player",
        3,
        SessionStatus.DRAFT,
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "three_laws", "variant": "solo"}, "3 Laws of Robotics has no variants"),
        ({"skip_first_round": "on"}, "Skipping round 1 is for 3 Laws of Robotics only"),
        ({"team_size": "4"}, "Select a valid choice"),
        ({"date": "someday"}, "Enter a valid date"),
        ({"game": "poker"}, "Select a valid choice"),
    ],
)
def test_bad_session_input_is_refused_with_a_message(teacher_client, classroom, change, message):
    response = teacher_client.post(
        reverse("classroom:session_create", args=[classroom.pk]), {**GOOD, **change}
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Session.objects.exists()


def test_three_laws_may_skip_the_first_round(teacher, classroom):
    session = services.session_create(
        classroom=classroom,
        by=teacher,
        date=datetime.date(2026, 12, 1),
        game=GameKind.THREE_LAWS,
        skip_first_round=True,
    )
    session.refresh_from_db()
    assert session.skip_first_round


def test_changing_the_game_drops_tables_made_for_the_old_one(teacher, bb_session, students):
    services.session_set_present(
        session=bb_session, student_ids=[s.pk for s in students], by=teacher
    )
    services.team_autopair(session=bb_session, by=teacher)
    services.tables_autosplit(session=bb_session, by=teacher)
    services.session_update(
        session=bb_session,
        by=teacher,
        date=bb_session.date,
        game=GameKind.THREE_LAWS,
        variant="standard",
        team_size=2,
    )
    bb_session.refresh_from_db()
    assert bb_session.game == GameKind.THREE_LAWS
    assert not bb_session.tables.exists()
    assert bb_session.teams.count() == 4


def test_attendance_marks_exactly_the_ticked_students(teacher_client, bb_session, students):
    url = reverse("classroom:session_presence", args=[bb_session.pk])
    teacher_client.post(url, {"present": [students[0].pk, students[2].pk]})
    assert set(bb_session.present.all()) == {students[0], students[2]}
    teacher_client.post(url, {"all": "1"})
    assert bb_session.present.count() == 8


def test_attendance_with_a_foreign_student_changes_nothing(
    teacher_client, bb_session, students, other_teacher
):
    from classroom.models import Classroom, Student

    other = Student.objects.create(
        classroom=Classroom.objects.create(
            school=other_teacher.school, teacher=other_teacher, name="X"
        ),
        name="Mallory",
    )
    bb_session.present.add(students[0])
    url = reverse("classroom:session_presence", args=[bb_session.pk])
    response = teacher_client.post(url, {"present": [other.pk]}, follow=True)
    assert "not in this class" in response.content.decode()
    assert list(bb_session.present.all()) == [students[0]]
    teacher_client.post(url, {"present": ["abc"]})
    assert list(bb_session.present.all()) == [students[0]]


def test_attendance_answers_htmx_with_the_setup_partial(teacher_client, bb_session, students):
    response = teacher_client.post(
        reverse("classroom:session_presence", args=[bb_session.pk]),
        {"all": "1"},
        headers={"HX-Request": "true"},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<div id="setup"')
    assert "8 present." in page


def test_opening_gives_a_room_code_once_and_leads_to_the_lobby(teacher_client, bb_session):
    url = reverse("classroom:session_open", args=[bb_session.pk])
    response = teacher_client.post(url)
    assert response.url == reverse("classroom:session_lobby", args=[bb_session.pk])
    bb_session.refresh_from_db()
    code = bb_session.room_code
    assert bb_session.status == SessionStatus.OPEN and len(code) == 6
    assert not set(code) & set("01OIL")
    teacher_client.post(url)
    bb_session.refresh_from_db()
    assert bb_session.room_code == code


def test_lobby_shows_code_qr_and_link_without_inline_styles(teacher_client, open_session):
    response = teacher_client.get(reverse("classroom:session_lobby", args=[open_session.pk]))
    page = response.content.decode()
    assert open_session.room_code in page
    assert f"/join?code={open_session.room_code}" in page
    assert '<svg role="img"' in page
    assert "style=" not in page and "<style" not in page


def test_lobby_poll_returns_only_the_joined_list(
    teacher_client,
    teacher,
    open_session,
    students,
    device_client,
    django_capture_on_commit_callbacks,
):
    services.session_set_present(
        session=open_session, student_ids=[students[0].pk, students[1].pk], by=teacher
    )
    services.team_autopair(session=open_session, by=teacher)
    lobby = teacher_client.get(reverse("classroom:session_lobby", args=[open_session.pk]))
    url = unescape(re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', lobby.content.decode())[1])
    assert teacher_client.get(url).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        device_client(open_session, students[0])
    response = teacher_client.get(url, headers={"HX-Request": "true"})
    page = response.content.decode()
    assert page.lstrip().startswith('<section id="joined"')
    assert 'live:poll from:closest .live-stream, every 10s"' in page  # pushed, polls as fallback
    assert "✓ Ava" in page and "✓ Ben" not in page and "Ben" in page
    assert '<span class="joined-count">1</span>' in page


def test_the_lobby_poll_of_another_teacher_is_not_found(
    teacher_client, other_teacher_client, open_session, django_capture_on_commit_callbacks
):
    lobby = teacher_client.get(reverse("classroom:session_lobby", args=[open_session.pk]))
    url = unescape(re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', lobby.content.decode())[1])
    with django_capture_on_commit_callbacks(execute=True):
        push.touch_after_commit(push.lobby_topic(open_session.pk))
    assert other_teacher_client.get(url).status_code == 404


def test_mark_playing_sets_status_and_start_time_once(teacher, open_session):
    services.session_mark_playing(session=open_session, by=teacher)
    open_session.refresh_from_db()
    started = open_session.started_at
    assert open_session.status == SessionStatus.PLAYING and started
    assert open_session.room_code  # late devices can still join
    services.session_mark_playing(session=open_session, by=teacher)
    open_session.refresh_from_db()
    assert open_session.started_at == started


def test_mark_playing_refused_for_others_and_closed_sessions(teacher, colleague, open_session):
    with pytest.raises(services.ServiceError, match="Only the class's teacher"):
        services.session_mark_playing(session=open_session, by=colleague)
    services.session_close(session=open_session, by=teacher)
    with pytest.raises(services.ServiceError, match="closed"):
        services.session_mark_playing(session=open_session, by=teacher)
    open_session.refresh_from_db()
    assert open_session.status == SessionStatus.CLOSED


def test_closing_frees_the_code_and_releases_devices(
    teacher_client, open_session, students, device_client
):
    device_client(open_session, students[0])
    teacher_client.post(reverse("classroom:session_close", args=[open_session.pk]))
    open_session.refresh_from_db()
    assert open_session.status == SessionStatus.CLOSED and open_session.room_code is None
    assert not DeviceBinding.objects.filter(revoked_at__isnull=True).exists()
    response = teacher_client.post(reverse("classroom:session_open", args=[open_session.pk]))
    open_session.refresh_from_db()
    assert open_session.room_code is None
    assert response.status_code == 302


def test_administrator_reads_the_session_without_controls(school_admin_client, open_session):
    page = school_admin_client.get(
        reverse("classroom:session_detail", args=[open_session.pk])
    ).content.decode()
    assert "Who is here?" in page
    assert reverse("classroom:team_autopair", args=[open_session.pk]) not in page
    assert "Close session" not in page and "<select" not in page
