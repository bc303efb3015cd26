"""The LMS services' pages against every role: a class's teacher syncs its roster and sends its
scores again; the school's administrator reads the gradebook status and changes nothing; anyone
else never learns the class exists."""

import datetime
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from classroom import services
from classroom.lti.urls import urlpatterns
from classroom.models import (
    Classroom,
    GameKind,
    LtiResourceLink,
    LtiScore,
    Session,
    Student,
    Variant,
)
from tests.lti.services.conftest import enrol_learner
from tests.support.matrix import (
    OWNER_ONLY,
    OWNER_WRITE,
    VIEW,
    Route,
    case_id,
    cases,
    client_for,
)

ROUTES = [
    Route("roster", OWNER_ONLY, args=lambda w: [w.classroom.pk]),
    Route(
        "roster",
        OWNER_WRITE,
        "post",
        lambda w: [w.classroom.pk],
        lambda w: {"fingerprint": w.fingerprint},
    ),
    Route("grades", VIEW, args=lambda w: [w.session.pk]),
    Route("grades_send_again", OWNER_WRITE, "post", lambda w: [w.session.pk]),
]
SERVICE_URLS = {"roster", "grades", "grades_send_again"}


@pytest.fixture
def world(lms, teacher, colleague, other_teacher, school_admin, classroom, students, device_client):
    from classroom.lti import roster

    enrol_learner(lms, "Maya", "Robinson")
    link = LtiResourceLink.objects.create(
        course=lms.lti_course,
        resource_link_id="link-x",
        game=GameKind.BOT_BUILDERS,
        variant=Variant.CLASSROOM,
        line_item_url=f"{lms.server.url}/courses/{lms.course.id}/lineitems/none",
    )
    session = services.session_open(
        session=Session.objects.create(
            classroom=classroom,
            date=datetime.date(2026, 12, 1),
            game=GameKind.BOT_BUILDERS,
            variant=Variant.CLASSROOM,
            lti_link=link,
        ),
        by=teacher,
    )
    other_class = Classroom.objects.create(
        school=other_teacher.school, teacher=other_teacher, name="Hilltop Coders"
    )
    other_session = services.session_open(
        session=Session.objects.create(
            classroom=other_class, date=datetime.date(2026, 11, 30), game=GameKind.THREE_LAWS
        ),
        by=other_teacher,
    )
    return SimpleNamespace(
        classroom=classroom,
        session=session,
        fingerprint=roster.roster_preview(course=lms.lti_course).fingerprint,
        device_this=device_client(session, students[1]),
        device_other=device_client(
            other_session, Student.objects.create(classroom=other_class, name="Zed")
        ),
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
    url = reverse(f"lti:{route.name}", args=route.args(world))
    response = getattr(client, route.method)(url, route.data(world))
    assert response.status_code == route.status_for(role), (
        f"{route.label} as {role}: {response.status_code}"
    )


def test_every_service_url_is_in_the_matrix():
    names = {pattern.name for pattern in urlpatterns} & SERVICE_URLS
    assert names == {route.name for route in ROUTES}


def test_refused_writes_change_nothing(world, school_admin, colleague):
    before = (Student.objects.count(), LtiScore.objects.count())
    for user in (school_admin, colleague):
        client = Client()
        client.force_login(user)
        for route in ROUTES:
            if route.method == "post":
                url = reverse(f"lti:{route.name}", args=route.args(world))
                assert client.post(url, route.data(world)).status_code in (403, 404)
    assert (Student.objects.count(), LtiScore.objects.count()) == before
