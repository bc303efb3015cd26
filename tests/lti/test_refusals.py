"""Launches the tool refuses, each with a clear page and nothing written."""

import time

import pytest
from django.test import Client

from classroom.models import (
    Classroom,
    DeviceBinding,
    LtiActivity,
    LtiCourse,
    LtiPerson,
    LtiResourceLink,
    Student,
    User,
)
from tests.lti.conftest import INSTRUCTOR, LEARNER
from tests.lti.signer import DEPLOYMENT, new_key

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"


def _counts() -> tuple[int, ...]:
    return tuple(
        model.objects.count()
        for model in (
            User,
            Classroom,
            Student,
            LtiCourse,
            LtiPerson,
            LtiResourceLink,
            LtiActivity,
            DeviceBinding,
        )
    )


def _refused(response, reason: str, before: tuple[int, ...]) -> None:
    body = response.content.decode()
    assert response.status_code == 403, body[:300]
    assert f'data-refusal="{reason}"' in body
    assert "Nothing was saved" in body
    assert _counts() == before


@pytest.mark.parametrize(
    ("claims", "reason"),
    [
        ({"aud": "another-tool"}, "wrong_audience"),
        ({"iss": "https://lms.elsewhere.example"}, "unknown_issuer"),
        ({CLAIM + "deployment_id": "deployment-unknown"}, "unknown_deployment"),
        ({"exp": int(time.time()) - 60, "iat": int(time.time()) - 400}, "expired"),
    ],
)
def test_bad_claims_are_refused(lms, claims, reason):
    before = _counts()
    response = lms.launch(Client(), sub="teacher-1", roles=INSTRUCTOR, **claims)
    _refused(response, reason, before)
    # Shown in the LMS's frame it was asked from, and nowhere else.
    assert f"frame-ancestors {lms.issuer}" in response["Content-Security-Policy"]
    assert "X-Frame-Options" not in response


def test_token_signed_by_another_key_is_refused(lms):
    before = _counts()
    stranger = new_key()
    stranger.kid = lms.key.kid  # even claiming the platform's key id
    response = lms.launch(Client(), sub="teacher-1", roles=INSTRUCTOR, key=stranger)
    _refused(response, "bad_signature", before)


def test_token_signed_by_a_key_the_platform_does_not_publish_is_refused(lms):
    before = _counts()
    response = lms.launch(Client(), sub="teacher-1", roles=INSTRUCTOR, key=new_key())
    _refused(response, "bad_signature", before)


def test_replayed_launch_is_refused(lms):
    client = Client()
    first = lms.launch(client, sub="teacher-1", roles=INSTRUCTOR)
    assert first.status_code == 302
    before = _counts()
    again = client.post("/lti/launch/", first.sent, HTTP_ORIGIN=lms.issuer)
    _refused(again, "replayed", before)
    # Also from a browser without the state cookie (an attacker holding the posted form).
    stolen = Client().post("/lti/launch/", first.sent, HTTP_ORIGIN=lms.issuer)
    _refused(stolen, "replayed", before)


def test_nonce_from_another_login_is_refused(lms):
    client = Client()
    state, _nonce = lms.login(client)
    token = lms.sign(lms.claims("made-up-nonce", sub="teacher-1", roles=INSTRUCTOR))
    before = _counts()
    response = client.post("/lti/launch/", {"id_token": token, "state": state})
    _refused(response, "replayed", before)


def test_learner_cannot_launch_another_courses_activity(lms):
    # The teacher of course-1 made an activity by deep linking; its key turns up in a link of
    # course-2 (whose class exists), launched by a learner.
    lms.launch(Client(), sub="teacher-1", roles=INSTRUCTOR)
    lms.launch(Client(), sub="teacher-2", roles=INSTRUCTOR, context_id="course-2", link_id="x")
    course = LtiCourse.objects.get(context_id="course-1")
    activity = LtiActivity.objects.create(course=course, game="three_laws", title="Laws")
    before = _counts()
    response = lms.launch(
        Client(),
        sub="student-9",
        roles=LEARNER,
        context_id="course-2",
        link_id="copied-link",
        **{CLAIM + "custom": {"botbench_activity": str(activity.key)}},
    )
    _refused(response, "other_course", before)


def test_learner_before_the_teacher_set_up_the_course_is_refused(lms):
    before = _counts()
    response = lms.launch(Client(), sub="student-9", roles=LEARNER)
    _refused(response, "not_set_up", before)


def test_second_instructor_cannot_take_over_the_course_class(lms):
    lms.launch(Client(), sub="teacher-1", roles=INSTRUCTOR)
    before = _counts()
    response = lms.launch(Client(), sub="teacher-2", roles=INSTRUCTOR)
    _refused(response, "other_teacher", before)


def test_inactive_platform_is_refused(lms):
    lms.record.is_active = False
    lms.record.save()
    before = _counts()
    response = Client().get(
        "/lti/login/",
        {
            "iss": lms.issuer,
            "login_hint": "h",
            "client_id": lms.record.client_id,
            "cookies_checked": "1",
        },
    )
    _refused(response, "unknown_issuer", before)


def test_launch_without_a_token_is_refused(lms):
    response = Client().post("/lti/launch/", {"state": "x"})
    assert response.status_code == 403
    assert 'data-refusal="malformed"' in response.content.decode()


def test_deployment_of_another_platform_is_refused(lms, lms_server, other_school):
    from classroom.lti import registration

    registration.platform_register(
        school=other_school,
        by=None,
        name="Other",
        issuer="https://other.example",
        client_id="c",
        auth_url="https://other.example/a",
        token_url="https://other.example/t",
        keyset_url="https://other.example/k",
        deployment_ids=["elsewhere"],
    )
    before = _counts()
    response = lms.launch(
        Client(), sub="teacher-1", roles=INSTRUCTOR, **{CLAIM + "deployment_id": "elsewhere"}
    )
    _refused(response, "unknown_deployment", before)
    assert DEPLOYMENT != "elsewhere"
