"""Rosters through the pages: paste, CSV upload, edit, remove, export."""

import json

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from classroom import services
from classroom.models import Student, TeamMembership


def _names(classroom):
    return sorted(classroom.students.values_list("name", flat=True))


def test_pasting_names_adds_them_all(teacher_client, teacher):
    classroom = services.class_create(by=teacher, name="New class")
    response = teacher_client.post(
        reverse("classroom:roster_paste", args=[classroom.pk]),
        {"names": "Ava\nBen, 2016-04\n\nChloe"},
        follow=True,
    )
    assert "Added 3 students." in response.content.decode()
    assert _names(classroom) == ["Ava", "Ben", "Chloe"]
    assert Student.objects.get(name="Ben").birth_month == "2016-04"


def test_pasting_a_duplicate_adds_nobody_and_says_why(teacher_client, classroom):
    before = _names(classroom)
    response = teacher_client.post(
        reverse("classroom:roster_paste", args=[classroom.pk]), {"names": "Zoe\nava\nZed\nzoe"}
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "Nothing was added" in page
    assert "Line 2: ava is already in this class." in page
    assert "Line 4: zoe is also on line 1." in page
    assert _names(classroom) == before


def test_pasting_empty_or_blank_names_is_refused(teacher_client, classroom):
    before = _names(classroom)
    url = reverse("classroom:roster_paste", args=[classroom.pk])
    assert teacher_client.post(url, {"names": "\n  \n"}).status_code == 400
    response = teacher_client.post(url, {"names": "Zoe\n, 2016-01"})
    assert "Line 2: the name is empty." in response.content.decode()
    assert _names(classroom) == before


def test_csv_upload_adds_students_with_birth_months(teacher_client, teacher):
    classroom = services.class_create(by=teacher, name="New class")
    upload = SimpleUploadedFile(
        "roster.csv", "\ufeffname,birth_month\nAva,2016-02\nZoë,\n".encode(), "text/csv"
    )
    teacher_client.post(reverse("classroom:roster_upload", args=[classroom.pk]), {"file": upload})
    assert _names(classroom) == ["Ava", "Zoë"]
    assert classroom.students.get(name="Ava").birth_month == "2016-02"


def test_csv_with_one_bad_line_saves_nothing(teacher_client, classroom):
    before = _names(classroom)
    upload = SimpleUploadedFile("roster.csv", b"name,birth_month\nZoe,2016-01\nZed,16-01\n")
    response = teacher_client.post(
        reverse("classroom:roster_upload", args=[classroom.pk]), {"file": upload}
    )
    assert response.status_code == 400
    assert "Line 3: birth month" in response.content.decode()
    assert _names(classroom) == before


def test_csv_not_utf8_or_too_large_is_refused(teacher_client, classroom):
    url = reverse("classroom:roster_upload", args=[classroom.pk])
    latin = SimpleUploadedFile("roster.csv", "Zoë\n".encode("latin-1"))
    assert "not UTF-8" in teacher_client.post(url, {"file": latin}).content.decode()
    big = SimpleUploadedFile("roster.csv", b"x" * (201 * 1024))
    assert "at most 200 KB" in teacher_client.post(url, {"file": big}).content.decode()
    assert classroom.students.count() == 8


def test_csv_duplicate_against_roster_is_refused(teacher_client, classroom):
    upload = SimpleUploadedFile("roster.csv", b"Zoe\nBEN\n")
    response = teacher_client.post(
        reverse("classroom:roster_upload", args=[classroom.pk]), {"file": upload}
    )
    assert "Line 2: BEN is already in this class." in response.content.decode()
    assert not classroom.students.filter(name="Zoe").exists()


def test_edit_student_and_duplicate_rename_is_refused(teacher_client, students):
    ava, ben = students[0], students[1]
    url = reverse("classroom:student_edit", args=[ava.pk])
    teacher_client.post(url, {"name": "Avery", "birth_month": "2015-09"})
    ava.refresh_from_db()
    assert (ava.name, ava.birth_month) == ("Avery", "2015-09")

    response = teacher_client.post(url, {"name": "ben", "birth_month": ""})
    assert response.status_code == 400
    assert "already has a student with that name" in response.content.decode()
    response = teacher_client.post(url, {"name": "Avery", "birth_month": "Sept"})
    assert "YYYY-MM" in response.content.decode()
    ava.refresh_from_db()
    assert (ava.name, ava.birth_month) == ("Avery", "2015-09")
    assert ben.name == "Ben"


def test_removing_a_student_leaves_no_empty_team(teacher_client, teacher, bb_session, students):
    services.session_set_present(session=bb_session, student_ids=[students[0].pk], by=teacher)
    services.team_autopair(session=bb_session, by=teacher)
    teacher_client.post(reverse("classroom:student_delete", args=[students[0].pk]))
    assert not Student.objects.filter(pk=students[0].pk).exists()
    assert not TeamMembership.objects.exists()
    assert not bb_session.teams.exists()


def test_administrator_exports_a_students_data_as_json(
    school_admin_client, teacher, bb_session, students
):
    services.session_set_present(
        session=bb_session, student_ids=[students[0].pk, students[1].pk], by=teacher
    )
    services.team_autopair(session=bb_session, by=teacher)
    response = school_admin_client.get(reverse("classroom:student_export", args=[students[0].pk]))
    assert response["Content-Type"] == "application/json"
    assert "attachment;" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["student"]["name"] == "Ava"
    assert data["sessions"][0]["team"]["teammates"] == ["Ben"]


def test_teacher_cannot_export_student_data(teacher_client, students):
    response = teacher_client.get(reverse("classroom:student_export", args=[students[0].pk]))
    assert response.status_code == 403


# -- names are stored in NFC -------------------------------------------------------------------

ZOE_COMPOSED = "Zo\u00eb"
ZOE_DECOMPOSED = "Zoe\u0308"


def test_a_pasted_name_is_stored_composed(teacher_client, classroom):
    teacher_client.post(
        reverse("classroom:roster_paste", args=[classroom.pk]), {"names": ZOE_DECOMPOSED}
    )
    assert Student.objects.filter(classroom=classroom, name=ZOE_COMPOSED).exists()


def test_a_name_typed_decomposed_is_the_same_student_as_one_typed_composed(
    teacher_client, classroom
):
    url = reverse("classroom:roster_paste", args=[classroom.pk])
    teacher_client.post(url, {"names": ZOE_COMPOSED})
    response = teacher_client.post(url, {"names": ZOE_DECOMPOSED})
    assert response.status_code == 400
    assert "is already in this class" in response.content.decode()
    assert Student.objects.filter(classroom=classroom, name__startswith="Zo").count() == 1


def test_an_uploaded_and_an_edited_name_are_stored_composed(teacher_client, classroom):
    csv = f"name\n{ZOE_DECOMPOSED}\n".encode()
    teacher_client.post(
        reverse("classroom:roster_upload", args=[classroom.pk]),
        {"file": SimpleUploadedFile("r.csv", csv, "text/csv")},
    )
    student = Student.objects.get(classroom=classroom, name=ZOE_COMPOSED)
    teacher_client.post(
        reverse("classroom:student_edit", args=[student.pk]),
        {"name": "Ame\u0301lie", "birth_month": ""},
    )
    student.refresh_from_db()
    assert student.name == "Am\u00e9lie"


def test_the_migration_composes_existing_names_and_numbers_a_clash(classroom):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("classroom.migrations.0002_retention_and_storable_names")
    Student.objects.bulk_create(
        [
            Student(classroom=classroom, name=ZOE_COMPOSED),
            Student(classroom=classroom, name=ZOE_DECOMPOSED),
        ]
    )
    migration.names_to_nfc(apps, None)
    names = sorted(Student.objects.filter(name__startswith="Zo").values_list("name", flat=True))
    assert names == [ZOE_COMPOSED, f"{ZOE_COMPOSED} 2"]
