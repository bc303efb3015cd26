"""Every reports URL against every role: teachers read their own classes, administrators their
school, nobody else learns a report or an export exists; devices have no account."""

import datetime
from types import SimpleNamespace

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.urls import reverse

from classroom import services
from classroom.models import Classroom, GameKind, Session, Student
from games.models import RubricCriterion, TeachBack
from reports.models import Export, ExportKind, ExportStatus, SchoolStandards
from reports.services import parameters_hash
from reports.urls import urlpatterns
from tests.reports.conftest import make_session
from tests.support.matrix import (
    ADMIN_ONLY,
    ADULTS,
    OWNER_WRITE,
    VIEW,
    Route,
    case_id,
    cases,
    client_for,
)

# A POST that succeeds redirects (302) like the log-in redirect of anonymous visitors; the
# success cases are told apart from those by their Location in the tests further down.
VIEW_WRITE = {**VIEW, "teacher": 302, "school_admin": 302}
ADMIN_WRITE = {**ADMIN_ONLY, "school_admin": 302}

ROUTES = [
    Route("index", ADULTS),
    Route("session", VIEW, args=lambda w: [w.session.pk]),
    Route("session_csv", VIEW, args=lambda w: [w.session.pk, "results"]),
    Route("session_insights", VIEW, args=lambda w: [w.session.pk]),
    Route("session_insights_export", VIEW, args=lambda w: [w.session.pk, "csv"]),
    Route("session_insights_export", VIEW, args=lambda w: [w.session.pk, "xlsx"], note="xlsx"),
    Route("class_progress", VIEW, args=lambda w: [w.classroom.pk]),
    Route("class_insights", VIEW, args=lambda w: [w.classroom.pk]),
    Route(
        "class_insights_sentences",
        VIEW,
        args=lambda w: [w.classroom.pk],
        query="?blank=because&group=words:it is blue",
    ),
    Route("class_insights_export", VIEW, args=lambda w: [w.classroom.pk, "csv"]),
    Route("class_insights_export", VIEW, args=lambda w: [w.classroom.pk, "xlsx"], note="xlsx"),
    Route("class_csv", VIEW, args=lambda w: [w.classroom.pk, "sessions"]),
    Route("class_standards", VIEW, args=lambda w: [w.classroom.pk]),
    Route(
        "class_standards",
        OWNER_WRITE,
        "post",
        lambda w: [w.classroom.pk],
        lambda w: {"criterion": "complete", "version": "1", "codes": ["1B-CS-01"]},
    ),
    Route("student_progress", VIEW, args=lambda w: [w.student.pk]),
    Route("student_csv", VIEW, args=lambda w: [w.student.pk, "sessions"]),
    Route("school_overview", ADMIN_ONLY),
    Route("school_csv", ADMIN_ONLY, args=lambda w: ["classes"]),
    Route("retention", ADMIN_ONLY),
    Route("retention", ADMIN_WRITE, "post", data=lambda w: {"action": "save", "months": "12"}),
    Route("standards", ADMIN_ONLY),
    Route("standards", ADMIN_WRITE, "post", data=lambda w: {"codes": ["1A-CS-02"]}),
    Route(
        "standards",
        ADMIN_WRITE,
        "post",
        data=lambda w: {"game": "three_laws", "codes": ["1A-CS-02"]},
        note="a game's codes",
    ),
    Route("exports", ADULTS),
    Route("exports", VIEW, query="?class={classroom}", note="of a class"),
    Route(
        "export_create",
        VIEW_WRITE,
        "post",
        data=lambda w: {"kind": "class", "target": w.classroom.pk},
        note="class",
    ),
    Route(
        "export_create",
        VIEW_WRITE,
        "post",
        data=lambda w: {"kind": "session", "target": w.session.pk},
        note="session",
    ),
    Route(
        "export_create",
        VIEW_WRITE,
        "post",
        data=lambda w: {"kind": "student", "target": w.student.pk},
        note="student",
    ),
    Route(
        "export_create",
        ADMIN_WRITE,
        "post",
        data=lambda w: {"kind": "school_zip", "target": ""},
        note="school",
    ),
    Route("export_status", VIEW, args=lambda w: [w.ready.pk]),
    Route("export_download", VIEW, args=lambda w: [w.ready.pk]),
    Route("export_retry", VIEW_WRITE, "post", lambda w: [w.failed.pk]),
    Route("export_delete_file", VIEW_WRITE, "post", lambda w: [w.ready.pk]),
    Route(
        "export_status",
        ADMIN_ONLY | {"teacher": 404, "colleague": 404, "other_school_teacher": 404},
        args=lambda w: [w.school_zip.pk],
        note="school ZIP",
    ),
    Route(
        "export_status",
        dict.fromkeys(VIEW, 404) | {"anonymous": 302, "device_this": 302, "device_other": 302},
        args=lambda w: [w.part.pk],
        note="ZIP part",
    ),
]


def _export(classroom, by, *, kind=ExportKind.CLASS, status=ExportStatus.READY, **extra):
    params = (
        {"school": classroom.school_id}
        if kind == ExportKind.SCHOOL_ZIP
        else {"classroom": classroom.pk}
    )
    export = Export.objects.create(
        kind=kind,
        parameters=params,
        parameters_hash=parameters_hash(kind, {**params, "n": Export.objects.count()}),
        requested_by=by,
        school=classroom.school,
        classroom=None if kind == ExportKind.SCHOOL_ZIP else classroom,
        title="Room 12 Robotics: class progress",
        status=status,
        **extra,
    )
    if status == ExportStatus.READY:
        name = default_storage.save(f"exports/test-{export.pk}.pdf", ContentFile(b"%PDF-1.7 test"))
        export.file.name = name
        export.save(update_fields=["file"])
    return export


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
    session = make_session(classroom, day=2, seed=1)
    # A known answer, for the page of the sentences behind it.
    TeachBack.objects.filter(team__session=session).update(because="It is blue")
    other_class = Classroom.objects.create(
        school=other_teacher.school, teacher=other_teacher, name="Hilltop Coders"
    )
    other_student = Student.objects.create(classroom=other_class, name="Zed")
    other_session = services.session_open(
        session=Session.objects.create(
            classroom=other_class, date=datetime.date(2026, 11, 30), game=GameKind.BOT_BUILDERS
        ),
        by=other_teacher,
    )
    school_zip = _export(
        classroom, school_admin, kind=ExportKind.SCHOOL_ZIP, status=ExportStatus.RENDERING
    )
    return SimpleNamespace(
        classroom=classroom,
        session=session,
        student=students[0],
        ready=_export(classroom, teacher),
        failed=_export(classroom, teacher, status=ExportStatus.FAILED, error="It broke."),
        school_zip=school_zip,
        part=_export(classroom, school_admin, status=ExportStatus.QUEUED, parent=school_zip),
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
    url = reverse(f"reports:{route.name}", args=route.args(world))
    url += route.query.format(classroom=world.classroom.pk)
    response = getattr(client, route.method)(url, route.data(world))
    expected = route.status_for(role)
    assert response.status_code == expected, f"{route.label} as {role}"
    if expected == 302:
        went_to_login = response["Location"].startswith(reverse("login"))
        assert went_to_login == (role in ("anonymous", "device_this", "device_other"))


def test_every_reports_url_is_in_the_matrix():
    assert {p.name for p in urlpatterns} == {r.name for r in ROUTES}


def test_refused_writes_change_nothing(world):
    before = list(Export.objects.order_by("pk").values_list("pk", "status", "file"))
    for role in ("colleague", "other_school_teacher", "anonymous", "device_this"):
        client = client_for(world, role)
        for route in ROUTES:
            if route.method == "post":
                client.post(
                    reverse(f"reports:{route.name}", args=route.args(world)), route.data(world)
                )
    assert list(Export.objects.order_by("pk").values_list("pk", "status", "file")) == before
    assert not SchoolStandards.objects.exists()
    assert not RubricCriterion.objects.filter(rubric__classroom=world.classroom).exclude(
        standards=[]
    )
