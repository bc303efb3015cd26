"""Every classroom URL against every role of the spec, with the expected status."""

import datetime
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom import services
from classroom.models import Classroom, GameKind, Invitation, Session, Student
from classroom.urls import urlpatterns
from tests.support.matrix import (
    ADMIN_ONLY,
    ADULTS,
    EVERYONE,
    OWNER_ONLY,
    OWNER_WRITE,
    ROLES,
    VIEW,
    Route,
    case_id,
    cases,
    client_for,
)

# Health is checked by tests/foundation (it depends on the broker, not on who asks).
NOT_IN_MATRIX = {"healthz", "healthz_live"}

ROUTES = [
    Route("dashboard", ADULTS),
    Route("class_list", ADULTS),
    Route("class_create", {**ADULTS, "school_admin": 403}),
    Route(
        "class_create",
        {
            **ADULTS,
            "school_admin": 403,
            "teacher": 302,
            "colleague": 302,
            "other_school_teacher": 302,
        },
        method="post",
        data=lambda w: {"name": "Robotics Club"},
    ),
    Route("class_detail", VIEW, args=lambda w: [w.classroom.pk]),
    Route("class_edit", OWNER_ONLY, args=lambda w: [w.classroom.pk]),
    Route("class_edit", OWNER_WRITE, "post", lambda w: [w.classroom.pk], lambda w: {"name": "R12"}),
    Route("class_archive", OWNER_WRITE, "post", lambda w: [w.classroom.pk]),
    Route("class_unarchive", OWNER_WRITE, "post", lambda w: [w.classroom.pk]),
    Route("class_delete", OWNER_ONLY, args=lambda w: [w.classroom.pk]),
    Route(
        "class_delete",
        OWNER_WRITE,
        "post",
        lambda w: [w.classroom.pk],
        lambda w: {"confirm_name": w.classroom.name},
    ),
    Route("roster_paste", OWNER_ONLY, args=lambda w: [w.classroom.pk]),
    Route(
        "roster_paste", OWNER_WRITE, "post", lambda w: [w.classroom.pk], lambda w: {"names": "Zoe"}
    ),
    Route("roster_upload", OWNER_ONLY, args=lambda w: [w.classroom.pk]),
    Route(
        "roster_upload",
        OWNER_WRITE,
        "post",
        lambda w: [w.classroom.pk],
        lambda w: {"file": SimpleUploadedFile("r.csv", b"name\nZoe\n", "text/csv")},
    ),
    Route("student_edit", OWNER_ONLY, args=lambda w: [w.student.pk]),
    Route(
        "student_edit",
        OWNER_WRITE,
        "post",
        lambda w: [w.student.pk],
        lambda w: {"name": "Avery", "birth_month": ""},
    ),
    Route("student_delete", OWNER_ONLY, args=lambda w: [w.student.pk]),
    Route("student_delete", OWNER_WRITE, "post", lambda w: [w.student.pk]),
    Route(
        "student_export",
        {**ADMIN_ONLY, "other_school_teacher": 404, "colleague": 404},
        args=lambda w: [w.student.pk],
    ),
    Route("session_create", OWNER_ONLY, args=lambda w: [w.classroom.pk]),
    Route(
        "session_create",
        OWNER_WRITE,
        "post",
        lambda w: [w.classroom.pk],
        lambda w: {
            "date": "2026-12-01",
            "game": "three_laws",
            "variant": "standard",
            "team_size": "2",
        },
    ),
    Route("session_detail", VIEW, args=lambda w: [w.session.pk]),
    Route("session_edit", OWNER_ONLY, args=lambda w: [w.session.pk]),
    Route(
        "session_edit",
        OWNER_WRITE,
        "post",
        lambda w: [w.session.pk],
        lambda w: {
            "date": "2026-12-02",
            "game": "bot_builders",
            "variant": "standard",
            "team_size": "2",
        },
    ),
    Route(
        "session_presence",
        OWNER_WRITE,
        "post",
        lambda w: [w.session.pk],
        lambda w: {"present": [w.student.pk]},
    ),
    Route("session_open", OWNER_WRITE, "post", lambda w: [w.session.pk]),
    Route("session_close", OWNER_WRITE, "post", lambda w: [w.session.pk]),
    Route("session_lobby", OWNER_ONLY, args=lambda w: [w.session.pk]),
    Route(
        "session_projector_language",
        OWNER_WRITE,
        "post",
        lambda w: [w.session.pk],
        lambda w: {"projector_language": "both"},
    ),
    Route(
        "device_unbind",
        OWNER_WRITE,
        "post",
        lambda w: [w.session.pk, w.device_this.binding.pk],
    ),
    Route("team_autopair", OWNER_WRITE, "post", lambda w: [w.session.pk]),
    Route(
        "team_move",
        OWNER_WRITE,
        "post",
        lambda w: [w.session.pk],
        lambda w: {"student": w.student.pk, "team": "new"},
    ),
    Route("team_add_robot", OWNER_WRITE, "post", lambda w: [w.session.pk]),
    Route("team_remove_robot", OWNER_WRITE, "post", lambda w: [w.session.pk, w.robot.pk]),
    Route("tables_autosplit", OWNER_WRITE, "post", lambda w: [w.session.pk]),
    Route(
        "team_table",
        OWNER_WRITE,
        "post",
        lambda w: [w.session.pk],
        lambda w: {"team": w.robot.pk, "table": "new"},
    ),
    Route("join", EVERYONE),
    # A device's language: anyone may choose it for their own browser (a cookie, no data).
    Route(
        "set_language",
        dict.fromkeys(ROLES, 302),
        "post",
        data=lambda w: {"language": "es", "next": "/join"},
    ),
    Route("join", EVERYONE, query="?code=", note="with the room code"),
    Route(
        "device_home",
        dict.fromkeys(ROLES, 302) | {"device_this": 200, "device_other": 200},
    ),
    Route("device_leave", dict.fromkeys(ROLES, 302), "post"),
    Route("school", ADMIN_ONLY),
    Route("teacher_invite", ADMIN_ONLY),
    Route("teacher_invite", ADMIN_ONLY, "post", data=lambda w: {"email": "new@maple.test"}),
    Route(
        "teacher_set_active",
        {**ADMIN_ONLY, "school_admin": 302},
        "post",
        lambda w: [w.colleague.pk],
        lambda w: {"active": "0"},
    ),
    Route(
        "teacher_unlock_login",
        {**ADMIN_ONLY, "school_admin": 302},
        "post",
        lambda w: [w.colleague.pk],
    ),
    Route("invitation_accept", EVERYONE, args=lambda w: [w.invitation.token]),
    Route("account", ADULTS),
    Route(
        "account",
        {**ADULTS, **dict.fromkeys(ROLES, 302)},
        "post",
        data=lambda w: {"language": "es"},
    ),
    Route(
        "signup",
        dict.fromkeys(ROLES, 302) | {"anonymous": 200, "device_this": 200, "device_other": 200},
    ),
]


@pytest.fixture
def world(
    teacher,
    colleague,
    other_teacher,
    school_admin,
    classroom,
    students,
    open_session,
    device_client,
):
    robot = services.team_add_robot(session=open_session, by=teacher)
    other_class = Classroom.objects.create(
        school=other_teacher.school, teacher=other_teacher, name="Hilltop Coders"
    )
    other_student = Student.objects.create(classroom=other_class, name="Zed")
    other_session = services.session_open(
        session=Session.objects.create(
            classroom=other_class, date=datetime.date(2026, 11, 30), game=GameKind.THREE_LAWS
        ),
        by=other_teacher,
    )
    invitation = Invitation.objects.create(
        school=teacher.school,
        email="newbie@maple.test",
        invited_by=school_admin,
        expires_at=timezone.now() + datetime.timedelta(days=3),
    )
    return SimpleNamespace(
        teacher=teacher,
        colleague=colleague,
        classroom=classroom,
        student=students[0],
        session=open_session,
        robot=robot,
        invitation=invitation,
        device_this=device_client(open_session, students[1]),
        device_other=device_client(other_session, other_student),
        users={
            "other_school_teacher": other_teacher,
            "colleague": colleague,
            "teacher": teacher,
            "school_admin": school_admin,
        },
    )


@pytest.mark.parametrize(("route", "role"), cases(ROUTES), ids=case_id)
def test_route_answers_role_with_expected_status(world, route, role):
    client = client_for(world, role)
    url = reverse(f"classroom:{route.name}", args=route.args(world))
    if route.query == "?code=":
        url += f"?code={world.session.room_code}"
    response = getattr(client, route.method)(url, route.data(world))
    assert response.status_code == route.status_for(role), (
        f"{route.label} as {role}: {response.status_code}"
    )


def test_every_classroom_url_is_in_the_matrix():
    names = {pattern.name for pattern in urlpatterns}
    missing = names - {route.name for route in ROUTES} - NOT_IN_MATRIX
    assert not missing, f"add these URLs to the permission matrix: {sorted(missing)}"


def test_admin_is_refused_every_write_and_changes_nothing(world, school_admin):
    client = Client()
    client.force_login(school_admin)
    before = (Classroom.objects.count(), Student.objects.count(), world.classroom.name)
    for route in ROUTES:
        if route.method == "post" and route.expect is OWNER_WRITE:
            url = reverse(f"classroom:{route.name}", args=route.args(world))
            assert client.post(url, route.data(world)).status_code == 403, route.label
    world.classroom.refresh_from_db()
    assert (Classroom.objects.count(), Student.objects.count(), world.classroom.name) == before
