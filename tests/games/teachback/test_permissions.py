"""Every teach-back URL against every role: anonymous, another school's teacher, a colleague of
the same school, the class's teacher, the administrator (reads yes, writes 403), a device of
this session, a device of another session."""

import datetime

import pytest
from django.urls import reverse

from classroom import services as classroom_services
from classroom.models import GameKind, Session
from games.models import Assessment, TeachBack, TeachBackSpotlight
from games.teachback import services
from tests.games.conftest import (
    GOOD_SENTENCE,
    make_table,
)

ROLES = [
    "anonymous",
    "other_school_teacher",
    "colleague",
    "class_teacher",
    "administrator",
    "device_this_session",
    "device_other_session",
]

# (url name, method) -> expected status per role, in ROLES order. 302 is a successful plain POST.
MATRIX = {
    ("teachback", "get"): [404, 404, 404, 404, 404, 200, 403],
    ("teachback", "post"): [404, 404, 404, 404, 404, 302, 403],
    ("assessments", "get"): [404, 404, 404, 200, 200, 404, 404],
    ("assessment_save", "post"): [404, 404, 404, 302, 403, 404, 404],
    ("teachback_lock", "post"): [404, 404, 404, 302, 403, 404, 404],
    ("spotlight", "post"): [404, 404, 404, 302, 403, 404, 404],
    ("spotlight_projector", "get"): [404, 404, 404, 200, 200, 404, 404],
    ("rubric_edit", "get"): [404, 404, 404, 200, 200, 404, 404],
    ("rubric_edit", "post"): [404, 404, 404, 302, 403, 404, 404],
}


@pytest.fixture
def world(open_session, students, device_client, classroom, teacher):
    finished = make_table(open_session, students, teams=2)
    this_device = device_client(open_session, finished.members[0])
    teachback = services.teachback_submit(
        team=finished.teams[0], fields=GOOD_SENTENCE, by_device=this_device.binding
    )
    other = Session.objects.create(
        classroom=classroom, date=datetime.date(2026, 12, 1), game=GameKind.BOT_BUILDERS
    )
    other = classroom_services.session_open(session=other, by=teacher)
    other_device = device_client(other, students[6])
    return {
        "session": open_session,
        "teachback": teachback,
        "this": this_device,
        "other": other_device,
        "classroom": classroom,
    }


def client_for(role, world, request):
    if role == "anonymous":
        return request.getfixturevalue("outsider")
    if role == "device_this_session":
        return world["this"]
    if role == "device_other_session":
        return world["other"]
    fixture = {
        "other_school_teacher": "other_teacher_client",
        "colleague": "colleague_client",
        "class_teacher": "teacher_client",
        "administrator": "school_admin_client",
    }[role]
    return request.getfixturevalue(fixture)


def url_for(name, world):
    session, teachback = world["session"], world["teachback"]
    args = {
        "teachback": [session.pk],
        "assessments": [session.pk],
        "assessment_save": [session.pk, teachback.pk],
        "teachback_lock": [session.pk],
        "spotlight": [session.pk],
        "spotlight_projector": [session.pk],
        "rubric_edit": [world["classroom"].pk],
    }[name]
    return reverse(f"games:{name}", args=args)


def payload_for(name, world):
    return {
        "teachback": {**GOOD_SENTENCE, "because": "so it can rescue people"},
        "assessment_save": {
            "score-complete": "3",
            "score-right_jobs": "2",
            "score-mission_link": "2",
            "score-said_clearly": "skip",
            "comment": "Well said",
        },
        "teachback_lock": {"action": "lock"},
        "spotlight": {"teachback": str(world["teachback"].pk)},
        "rubric_edit": {
            "form-TOTAL_FORMS": "1",
            "form-INITIAL_FORMS": "0",
            "form-0-title": "Only one",
            "form-0-max_score": "2",
        },
    }.get(name, {})


CASES = [
    (name, method, role, expected[i])
    for (name, method), expected in MATRIX.items()
    for i, role in enumerate(ROLES)
]


@pytest.mark.parametrize(("name", "method", "role", "expected"), CASES)
def test_permission_matrix(world, request, name, method, role, expected):
    client = client_for(role, world, request)
    url = url_for(name, world)
    send = client.get if method == "get" else client.post
    response = send(url, payload_for(name, world)) if method == "post" else send(url)
    assert response.status_code == expected


def test_refused_writes_change_nothing(world, school_admin_client, colleague_client):
    session, teachback = world["session"], world["teachback"]
    for client in (school_admin_client, colleague_client):
        for name in ("assessment_save", "teachback_lock", "spotlight", "rubric_edit"):
            client.post(url_for(name, world), payload_for(name, world))
    session.refresh_from_db()
    assert session.teachbacks_locked_at is None
    assert not Assessment.objects.exists()
    assert not TeachBackSpotlight.objects.filter(teachback=teachback).exists()
    assert not session.classroom.rubrics.filter(criteria__title="Only one").exists()


def test_a_device_of_another_session_cannot_write_a_sentence(world):
    world["other"].post(url_for("teachback", world), GOOD_SENTENCE)
    assert TeachBack.objects.count() == 1


def test_a_sentence_of_another_session_is_not_found_through_this_session(
    world, teacher_client, open_session, students, classroom, teacher, device_client
):
    other = Session.objects.get(classroom=classroom, date=datetime.date(2026, 12, 1))
    elsewhere = make_table(other, students[:4], teams=2)
    binding = device_client(other, elsewhere.members[0]).binding
    foreign = services.teachback_submit(
        team=elsewhere.teams[0], fields=GOOD_SENTENCE, by_device=binding
    )
    url = reverse("games:assessment_save", args=[open_session.pk, foreign.pk])
    assert teacher_client.post(url, payload_for("assessment_save", world)).status_code == 404
    spot = reverse("games:spotlight", args=[open_session.pk])
    assert teacher_client.post(spot, {"teachback": foreign.pk}).status_code == 404
    assert not Assessment.objects.exists()


def test_three_laws_sessions_have_no_teachback_pages(teacher_client, classroom):
    session = Session.objects.create(
        classroom=classroom, date=datetime.date(2026, 12, 2), game=GameKind.THREE_LAWS
    )
    url = reverse("games:assessments", args=[session.pk])
    assert teacher_client.get(url).status_code == 404
