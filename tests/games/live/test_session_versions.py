"""Who may read a session: `get_session_for_viewer` (classroom/access.py, through the ORM's
`classes_visible_to`, with its class, school and teacher) and `get_session_versions`
(games/access.py: the same rule written out as games.statements.SESSION_VERSIONS, from
classroom.access.VISIBLE_CLASS_WHERE, with the session's class and games, for the projector
grid's and the dashboard's redraws). For every person and every session they might name, each
must allow exactly what the ORM rule allows, and give the rows as they are."""

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.test import RequestFactory

from classroom.access import classes_visible_to
from classroom.models import Classroom, GameKind, Role, Session
from games import services
from games.access import get_session_for_viewer, get_session_versions
from games.models import TableGame
from tests.conftest import make_user
from tests.games.conftest import seat_tables

DRAWN = ["pk", "classroom_id", "title", "date", "game", "projector_language"]


def request_by(user):
    request = RequestFactory().get("/")
    request.user = user
    return request


def by_the_orm(user, session_id: int) -> Session | None:
    """The rule through the ORM: a signed-in, active adult of a school, and a class they may
    read (classroom.access.classes_visible_to)."""
    if not user.is_authenticated or not user.is_active or user.school_id is None:
        return None
    return (
        Session.objects.select_related("classroom__school", "classroom__teacher")
        .filter(classroom__in=classes_visible_to(user), pk=session_id)
        .first()
    )


def by_the_access_function(user, session_id: int) -> Session | None:
    try:
        return get_session_for_viewer(request_by(user), session_id)
    except Http404:
        return None


@pytest.fixture
def people(teacher, colleague, school_admin, other_teacher, other_school, school):
    inactive = make_user("erin@maple.test", school)
    inactive.is_active = False
    inactive.save()
    schoolless = make_user("finn@maple.test", school)
    schoolless.school = None
    schoolless.save()
    return {
        "the class's teacher": teacher,
        "a colleague": colleague,
        "the school's administrator": school_admin,
        "another school's teacher": other_teacher,
        "another school's administrator": make_user(
            "gus@hilltop.test", other_school, role=Role.ADMINISTRATOR
        ),
        "an inactive teacher": inactive,
        "an adult of no school": schoolless,
        "nobody signed in": AnonymousUser(),
    }


@pytest.fixture
def sessions(bb_session, colleague, school, other_teacher, other_school):
    """Alice's session (untitled: its name is drawn from its date), a titled one of a
    colleague's class, and one of another school's."""

    def session_of(teacher, school, **fields) -> Session:
        classroom = Classroom.objects.create(school=school, teacher=teacher, name="Lab")
        return Session.objects.create(
            classroom=classroom, date=datetime.date(2026, 12, 1), game=GameKind.THREE_LAWS, **fields
        )

    return [
        bb_session,
        session_of(colleague, school, title="Robots & <rules>", projector_language="es"),
        session_of(other_teacher, other_school),
    ]


def test_it_allows_exactly_what_the_orm_rule_allows(people, sessions, django_assert_num_queries):
    allowed = 0
    for who, user in people.items():
        for session in sessions:
            expected = by_the_orm(user, session.pk)
            now = get_session_versions(request_by(user), session.pk)
            assert (now is None) == (expected is None), (who, str(session))
            if now is not None:
                allowed += 1
                found = now.session
                assert [getattr(found, name) for name in DRAWN] == [
                    getattr(expected, name) for name in DRAWN
                ]
                assert str(found) == str(expected)
                with django_assert_num_queries(0):  # its class came with it
                    classroom = found.classroom
                fields = [field.attname for field in Classroom._meta.concrete_fields]
                assert [getattr(classroom, name) for name in fields] == [
                    getattr(expected.classroom, name) for name in fields
                ]
    # Each teacher their own (three), Carol both of Maple Street's, Gus Hilltop's one.
    assert allowed == 6


def test_get_session_for_viewer_allows_what_the_orm_rule_allows_with_the_same_rows(
    people, sessions, django_assert_num_queries
):
    allowed = 0
    for who, user in people.items():
        for session in sessions:
            expected = by_the_orm(user, session.pk)
            found = by_the_access_function(user, session.pk)
            assert (found is None) == (expected is None), (who, str(session))
            if found is None:
                continue
            allowed += 1
            with django_assert_num_queries(0):  # its class, school and teacher came with it
                pairs = [
                    (found, expected),
                    (found.classroom, expected.classroom),
                    (found.classroom.school, expected.classroom.school),
                    (found.classroom.teacher, expected.classroom.teacher),
                ]
            for made, orm in pairs:
                assert type(made) is type(orm)
                fields = [field.attname for field in type(orm)._meta.concrete_fields]
                assert [getattr(made, name) for name in fields] == [
                    getattr(orm, name) for name in fields
                ]
    assert allowed == 6


@pytest.mark.parametrize("session_id", [987_654, 0, -1, 2**31, 2**63, 10**30])
def test_a_session_that_does_not_exist_is_not_found(teacher, session_id):
    assert by_the_access_function(teacher, session_id) is None
    assert get_session_versions(request_by(teacher), min(session_id, 2**62)) is None


def test_the_fields_it_does_not_read_load_when_asked_for(teacher, bb_session):
    found = get_session_versions(request_by(teacher), bb_session.pk).session
    assert found.team_size == bb_session.team_size
    assert found.classroom.teacher == teacher


def test_it_gives_every_game_s_version_as_the_database_has_it(
    open_session, classroom, teacher, school_admin
):
    assert get_session_versions(request_by(teacher), open_session.pk).versions == {}
    seat_tables(open_session, classroom, 3)
    services.session_start_tables(session=open_session, by=teacher)
    games = TableGame.objects.filter(session=open_session)
    TableGame.objects.filter(pk=games.order_by("pk")[1].pk).update(version=7)
    expected = dict(games.values_list("pk", "version"))
    assert len(expected) == 3 and 7 in expected.values()
    for user in (teacher, school_admin):
        assert get_session_versions(request_by(user), open_session.pk).versions == expected
