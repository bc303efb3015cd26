"""Launches the tool accepts: an instructor becomes the course's teacher, a learner lands on the
open session; only a hash of the LMS id and the roster's name are kept."""

import json

from django.test import Client

from classroom import services
from classroom.devices import DEVICE_COOKIE
from classroom.models import (
    Classroom,
    DeviceBinding,
    LtiCourse,
    LtiLaunchState,
    LtiPerson,
    LtiResourceLink,
    Student,
    User,
)
from tests.lti.conftest import INSTRUCTOR, LEARNER


def _teacher_launch(lms, client=None, **kwargs):
    client = client or Client()
    response = lms.launch(client, sub="teacher-1", roles=INSTRUCTOR, **kwargs)
    return client, response


def test_instructor_launch_creates_and_signs_in_the_course_teacher(lms, school):
    client, response = _teacher_launch(lms)
    assert response.status_code == 302
    course = LtiCourse.objects.get(platform=lms.record, context_id="course-1")
    teacher = course.classroom.teacher
    assert (teacher.school, teacher.role, teacher.has_usable_password()) == (
        school,
        "teacher",
        False,
    )
    assert course.classroom.name == "Robotics 4B"
    link = LtiResourceLink.objects.get(course=course)
    assert response["Location"] == f"/lti/links/{link.pk}/"
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert "Start the lesson" in page.content.decode()


def test_instructor_relaunch_finds_the_same_teacher_and_class(lms):
    _teacher_launch(lms)
    _teacher_launch(lms)
    assert LtiCourse.objects.count() == 1
    assert Classroom.objects.count() == 1
    assert User.objects.filter(email__endswith="@lti.invalid").count() == 1


def test_teacher_starts_the_lesson_in_one_click(lms):
    client, response = _teacher_launch(lms)
    link = LtiResourceLink.objects.get()
    started = client.post(f"/lti/links/{link.pk}/start/")
    course = LtiCourse.objects.get()
    session = course.classroom.sessions.get()
    assert started["Location"] == session.get_absolute_url()
    assert session.is_joinable
    assert (session.game, session.variant) == ("bot_builders", "classroom")


def test_learner_before_any_lesson_waits_with_only_a_hashed_id(lms):
    _teacher_launch(lms)
    client = Client()
    response = lms.launch(client, sub="student-42", roles=LEARNER)
    assert response["Location"] == "/lti/learner/"
    student = Student.objects.get()
    assert student.name == "Ana G."
    person = LtiPerson.objects.get(student=student)
    assert "student-42" not in person.sub_hash and len(person.sub_hash) == 64
    stored = json.dumps(list(LtiLaunchState.objects.values_list("value", flat=True)))
    assert "García" not in stored and "ana@example.org" not in stored
    assert "student-42" not in stored or "sub" in stored  # the sub claim only, never names
    page = client.get("/lti/learner/")
    assert "Your teacher has not opened the lesson yet" in page.content.decode()


def test_learner_lands_on_the_open_session_without_a_room_code(lms):
    teacher_client, _ = _teacher_launch(lms)
    link = LtiResourceLink.objects.get()
    teacher_client.post(f"/lti/links/{link.pk}/start/")
    client = Client()
    response = lms.launch(client, sub="student-42", roles=LEARNER)
    assert response["Location"] == "/me"
    cookie = response.cookies[DEVICE_COOKIE]
    assert cookie["samesite"] == "None" and cookie["secure"]
    binding = DeviceBinding.objects.get(revoked_at__isnull=True)
    assert binding.student.name == "Ana G."
    assert client.get("/me").status_code == 200


def test_learner_waiting_joins_once_the_lesson_opens(lms):
    teacher_client, _ = _teacher_launch(lms)
    client = Client()
    lms.launch(client, sub="student-42", roles=LEARNER)
    link = LtiResourceLink.objects.get()
    teacher_client.post(f"/lti/links/{link.pk}/start/")
    response = client.get("/lti/learner/")
    assert response["Location"] == "/me"
    assert DeviceBinding.objects.filter(student__name="Ana G.").count() == 1


def test_learner_launch_on_a_second_device_takes_the_seat_over(lms):
    teacher_client, _ = _teacher_launch(lms)
    teacher_client.post(f"/lti/links/{LtiResourceLink.objects.get().pk}/start/")
    lms.launch(Client(), sub="student-42", roles=LEARNER)
    lms.launch(Client(), sub="student-42", roles=LEARNER)
    assert Student.objects.count() == 1
    assert DeviceBinding.objects.filter(revoked_at__isnull=True).count() == 1
    assert DeviceBinding.objects.count() == 2


def test_two_learners_with_the_same_name_and_initial_both_get_a_roster_entry(lms):
    _teacher_launch(lms)
    lms.launch(Client(), sub="student-1", roles=LEARNER)
    lms.launch(Client(), sub="student-2", roles=LEARNER)
    assert sorted(Student.objects.values_list("name", flat=True)) == ["Ana G.", "Ana G. 2"]


def test_launched_browser_may_be_framed_by_its_lms_only(lms, open_session):
    client, response = _teacher_launch(lms)
    page = client.get(response["Location"])
    assert "X-Frame-Options" not in page
    assert f"frame-ancestors {lms.issuer}" in page["Content-Security-Policy"]
    session_cookie = response.cookies["sessionid"]
    assert session_cookie["samesite"] == "None" and session_cookie["secure"]
    plain = Client().get("/accounts/login/")
    assert plain["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in plain["Content-Security-Policy"]


def test_a_launch_without_its_state_cookie_offers_a_new_window(lms):
    client = Client()
    state, nonce = lms.login(client)
    token = lms.sign(lms.claims(nonce, sub="teacher-1", roles=INSTRUCTOR))
    blocked = Client()  # another cookie jar: the iframe's cookies were blocked
    response = blocked.post("/lti/launch/", {"id_token": token, "state": state})
    body = response.content.decode()
    assert response.status_code == 200
    assert "Open in a new window" in body and "cookies_checked=1" in body
    assert 'target="_blank"' in body
    assert not LtiCourse.objects.exists()


def test_login_first_checks_cookies_in_the_frame(lms):
    response = Client().get(
        "/lti/login/", {"iss": lms.issuer, "login_hint": "x", "target_link_uri": "y"}
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "lti-cookie-check" in body and "Open in a new window" in body


def test_spanish_refusal_page(lms):
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    response = lms.launch(client, sub="teacher-1", roles=INSTRUCTOR, aud="someone-else")
    assert response.status_code == 403
    assert "BotBench no pudo abrirse" in response.content.decode()


def test_open_session_fixture_class_is_not_touched(lms, open_session):
    # A launch never adopts an existing BotBench class: the course gets its own.
    _teacher_launch(lms)
    assert LtiCourse.objects.get().classroom != open_session.classroom
    assert services is not None
