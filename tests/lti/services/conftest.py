"""The LMS services' world: the real test platform (tests/lti/platform, on 127.0.0.1 and a port
of its own) and BotBench's rows for it, as a launch would leave them: the platform registered,
the course linked to Alice's class with its NRPS and AGS endpoints, and people known by their
hashed LMS ids."""

from __future__ import annotations

import datetime
import random
from types import SimpleNamespace

import pytest

from classroom.lti import keys
from classroom.lti.people import hash_subject
from classroom.models import (
    GameKind,
    LtiCourse,
    LtiDeployment,
    LtiPerson,
    LtiPlatform,
    LtiResourceLink,
    Session,
    SessionStatus,
    Variant,
)
from reports.demo import play_session
from tests.lti.platform.server import PlatformServer
from tests.lti.platform.store import INSTRUCTOR, LEARNER, ScoreFault

LMS_FAMILY = {"Ava": "Lopez", "Ben": "Okafor", "Chloe": "Nguyen", "Diego": "Garcia"}


@pytest.fixture(scope="session")
def shared_platform():
    """One platform server for the run: each test makes its own course, people and links in
    it, so tests do not see each other's rosters or scores."""
    server = PlatformServer().start()
    yield server
    server.stop()


@pytest.fixture
def own_platform():
    """Asked for by a test that stops the platform: it gets a server of its own."""


@pytest.fixture
def platform(request, shared_platform):
    """The platform of a test (see `own_platform`). Fault switches are reset after each test."""
    if "own_platform" in request.fixturenames:
        server = PlatformServer().start()
        yield server
        server.stop()
        return
    yield shared_platform
    shared_platform.store.set_score_fault(ScoreFault.NONE)


@pytest.fixture
def fast_retries(settings):
    """Short waits between attempts and a short timeout, so a test sees several attempts."""
    settings.LTI_SERVICE_TIMEOUT_SECONDS = 1.0
    settings.LTI_SCORE_RETRY_SECONDS = 0.2
    settings.LTI_SCORE_RETRY_MAX_SECONDS = 0.5


@pytest.fixture
def lms(platform, classroom, teacher):
    return make_lms(platform, classroom, teacher)


def make_lms(platform, classroom, teacher):
    """The platform's course "Robotics 4" with Alice as its instructor, linked to her class."""
    store = platform.store
    store.tool.jwks = keys.jwks()
    lti_platform = LtiPlatform.objects.create(
        school=classroom.school,
        name="Test LMS",
        issuer=platform.issuer,
        client_id=store.client_id,
        auth_url=platform.auth_url,
        token_url=platform.token_url,
        keyset_url=platform.jwks_url,
    )
    deployment = LtiDeployment.objects.create(
        platform=lti_platform, deployment_id=store.deployment_id
    )
    course = store.add_course("Robotics 4", "ROB4")
    instructor = store.add_person("Alice", "Rivera", INSTRUCTOR)
    store.enrol(course, instructor)
    lti_course = LtiCourse.objects.create(
        platform=lti_platform,
        deployment=deployment,
        context_id=course.id,
        classroom=classroom,
        title=course.title,
        memberships_url=f"{platform.url}/courses/{course.id}/memberships",
    )
    LtiPerson.objects.create(
        platform=lti_platform,
        course=lti_course,
        sub_hash=hash_subject(lti_platform, instructor.id),
        user=teacher,
    )
    return SimpleNamespace(
        server=platform,
        store=store,
        course=course,
        instructor=instructor,
        platform=lti_platform,
        lti_course=lti_course,
    )


def enrol_learner(lms, given: str, family: str, student=None):
    """A learner of the LMS course; with `student`, already linked to that roster entry (as a
    launch or an earlier sync leaves them)."""
    person = lms.store.add_person(given, family, LEARNER)
    lms.store.enrol(lms.course, person)
    if student is not None:
        LtiPerson.objects.create(
            platform=lms.platform,
            course=lms.lti_course,
            sub_hash=hash_subject(lms.platform, person.id),
            student=student,
        )
    return person


@pytest.fixture
def graded(lms, classroom, teacher):
    return make_graded(lms, classroom, teacher)


def make_graded(lms, classroom, teacher):
    """A Bot-Builders teach-back lesson started from an LMS activity with a gradebook column,
    played to the end and assessed (not yet locked). Four of the class's students are LMS
    learners; the others were typed in by hand."""
    learners = {}
    for student in classroom.students.filter(name__in=LMS_FAMILY):
        learners[student.pk] = enrol_learner(lms, student.name, LMS_FAMILY[student.name], student)
    link_in_lms = lms.store.add_link(
        lms.course.id,
        "Bot-Builders with teach-back",
        "http://localhost/lti/launch/",
        line_item={"label": "Teach-back", "scoreMaximum": 12},
    )
    link = LtiResourceLink.objects.create(
        course=lms.lti_course,
        resource_link_id=link_in_lms.id,
        game=GameKind.BOT_BUILDERS,
        variant=Variant.CLASSROOM,
        title=link_in_lms.title,
        line_item_url=(
            f"{lms.server.url}/courses/{lms.course.id}/lineitems/{link_in_lms.line_item_id}"
        ),
    )
    session = Session.objects.create(
        classroom=classroom,
        date=datetime.date(2026, 12, 1),
        game=GameKind.BOT_BUILDERS,
        variant=Variant.CLASSROOM,
        status=SessionStatus.PLAYING,
        lti_link=link,
    )
    play_session(session, list(classroom.students.order_by("pk")), random.Random(7), assess=teacher)
    return SimpleNamespace(
        lms=lms,
        session=session,
        link=link,
        line_item_id=link_in_lms.line_item_id,
        learners=learners,
    )
