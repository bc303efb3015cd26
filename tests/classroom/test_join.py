"""Students joining with a room code, the device page, one session per device (the throttle
is in test_join_throttle.py)."""

import datetime
import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from classroom import push, services
from classroom.devices import DEVICE_COOKIE
from classroom.models import Classroom, DeviceBinding, GameKind, Session, SessionStatus, Student

JOIN = "/join"


def _join(client: Client, code: str, student: Student | None = None):
    if student is None:
        return client.get(JOIN, {"code": code})
    return client.post(JOIN, {"code": code, "student": student.pk})


def test_join_url_is_the_spec_path():
    assert reverse("classroom:join") == JOIN
    assert reverse("classroom:device_home") == "/me"


def test_code_is_case_insensitive_and_shows_the_roster(open_session):
    response = _join(
        Client(), f" {open_session.room_code.lower()[:3]}-{open_session.room_code.lower()[3:]}"
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Who are you?" in page and "Ava" in page and "Hugo" in page


def test_picking_a_name_binds_the_device_and_lands_on_the_team_page(
    teacher, open_session, students
):
    services.session_set_present(
        session=open_session, student_ids=[students[0].pk, students[1].pk], by=teacher
    )
    services.team_autopair(session=open_session, by=teacher)
    client = Client()
    response = _join(client, open_session.room_code, students[0])
    assert response.url == "/me"
    assert DEVICE_COOKIE in response.cookies
    binding = DeviceBinding.objects.get()
    assert (binding.session, binding.student) == (open_session, students[0])

    page = client.get("/me").content.decode()
    assert "Team 1 · Sparks" in page and "Ben" in page
    assert "Waiting for your teacher" in page
    # A reload lands in the same place, on the same binding.
    assert "Team 1 · Sparks" in client.get("/me").content.decode()
    assert DeviceBinding.objects.count() == 1


def test_joining_marks_the_student_present(open_session, students):
    _join(Client(), open_session.room_code, students[3])
    assert list(open_session.present.all()) == [students[3]]


def test_names_already_bound_are_hidden_but_your_own_stays(open_session, students):
    first, second = Client(), Client()
    _join(first, open_session.room_code, students[0])
    page = _join(second, open_session.room_code).content.decode()
    assert ">Ava</button>" not in page and ">Ben</button>" in page
    page = _join(first, open_session.room_code).content.decode()
    assert "Ava</button>" in page and "is-current" in page


def test_taking_a_bound_name_is_refused_and_binds_nothing(open_session, students):
    _join(Client(), open_session.room_code, students[0])
    response = _join(Client(), open_session.room_code, students[0])
    assert response.status_code == 400
    assert "That name is not free" in response.content.decode()
    assert DeviceBinding.objects.count() == 1


def test_a_name_from_another_class_is_refused(open_session, other_teacher):
    stranger = Student.objects.create(
        classroom=Classroom.objects.create(
            school=other_teacher.school, teacher=other_teacher, name="X"
        ),
        name="Mallory",
    )
    response = _join(Client(), open_session.room_code, stranger)
    assert response.status_code == 400
    assert not DeviceBinding.objects.exists()


def test_wrong_code_gets_a_clear_message(db):
    response = _join(Client(), "ZZZZZZ")
    assert response.status_code == 400
    assert "No game is open with the code “ZZZZZZ”" in response.content.decode()


def test_a_closed_sessions_code_no_longer_works(teacher, open_session):
    code = open_session.room_code
    services.session_close(session=open_session, by=teacher)
    assert _join(Client(), code).status_code == 400


def test_a_device_belongs_to_one_session_at_a_time(teacher, open_session, students, classroom):
    second = services.session_open(
        session=Session.objects.create(
            classroom=classroom, date=datetime.date(2026, 12, 2), game=GameKind.THREE_LAWS
        ),
        by=teacher,
    )
    client = Client()
    _join(client, open_session.room_code, students[0])
    _join(client, second.room_code, students[1])
    live = DeviceBinding.objects.filter(revoked_at__isnull=True)
    assert [(b.session, b.student) for b in live] == [(second, students[1])]
    # Ava's name is free again in the first session.
    assert ">Ava</button>" in _join(Client(), open_session.room_code).content.decode()


def test_teacher_unbinds_a_device_and_the_student_can_rejoin(
    teacher_client, open_session, students, device_client
):
    device = device_client(open_session, students[0])
    teacher_client.post(
        reverse("classroom:device_unbind", args=[open_session.pk, device.binding.pk])
    )
    assert device.get("/me").url == JOIN
    replacement = Client()
    assert _join(replacement, open_session.room_code, students[0]).url == "/me"
    assert DeviceBinding.objects.filter(revoked_at__isnull=True).count() == 1


def test_student_leaves_their_own_device(open_session, students, device_client):
    device = device_client(open_session, students[0])
    response = device.post(reverse("classroom:device_leave"))
    assert response.url == JOIN
    assert not DeviceBinding.objects.filter(revoked_at__isnull=True).exists()


def poll_url_in(html: str) -> str:
    return unescape(re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', html).group(1))


def test_device_page_without_a_binding_goes_to_join(db):
    assert Client().get("/me").url == JOIN


def test_the_waiting_region_is_drawn_again_by_the_poll_when_the_lobby_changes(
    teacher, open_session, students, device_client, django_capture_on_commit_callbacks
):
    device = device_client(open_session, students[0])
    url = poll_url_in(device.get("/me").content.decode())
    assert device.get(url).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        services.session_set_present(session=open_session, student_ids=[students[0].pk], by=teacher)
        services.team_autopair(session=open_session, by=teacher)
    response = device.get(url, headers={"HX-Request": "true"})
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="waiting"')
    assert "You play on your own." in page
    assert device.get(poll_url_in(page)).status_code == 204  # quiet again


def test_waiting_poll_redirects_to_the_game_once_playing(
    teacher, open_session, students, device_client, django_capture_on_commit_callbacks
):
    device = device_client(open_session, students[0])
    url = poll_url_in(device.get("/me").content.decode())
    with django_capture_on_commit_callbacks(execute=True):
        services.session_mark_playing(session=open_session, by=teacher)
        push.touch_after_commit(push.lobby_topic(open_session.pk))  # as starting the tables does
    response = device.get(url, headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == reverse("games:device")
    assert device.get("/me").url == reverse("games:device")


def test_device_of_a_closed_session_is_sent_to_join(
    teacher, open_session, students, device_client, django_capture_on_commit_callbacks
):
    device = device_client(open_session, students[0])
    url = poll_url_in(device.get("/me").content.decode())
    with django_capture_on_commit_callbacks(execute=True):
        services.session_close(session=open_session, by=teacher)
    response = device.get(url, headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == JOIN
    open_session.refresh_from_db()
    assert open_session.status == SessionStatus.CLOSED


@pytest.mark.parametrize("bad", ["", "   "])
def test_empty_code_asks_for_the_code(db, bad):
    response = _join(Client(), bad)
    assert "Type the room code" in response.content.decode()
