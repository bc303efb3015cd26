"""Classes: create, edit, archive, unarchive, delete with a confirmation that counts the loss."""

import datetime

import pytest
from django.urls import reverse

from classroom import services
from classroom.models import Classroom, DeviceBinding, Session, Student, Team


def _dashboard(client) -> str:
    return client.get(reverse("classroom:dashboard")).content.decode()


def _present(session, students, teacher) -> None:
    ids = [student.pk for student in students]
    services.session_set_present(session=session, student_ids=ids, by=teacher)


def test_teacher_creates_a_class_in_their_school(teacher_client, teacher):
    response = teacher_client.post(
        reverse("classroom:class_create"), {"name": " Robotics Club ", "grade": "Grade 5"}
    )
    classroom = Classroom.objects.get()
    assert response.url == classroom.get_absolute_url()
    assert (classroom.name, classroom.teacher, classroom.school) == (
        "Robotics Club",
        teacher,
        teacher.school,
    )


def test_class_without_a_name_is_refused_and_nothing_saved(teacher_client):
    response = teacher_client.post(reverse("classroom:class_create"), {"name": "  "})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert not Classroom.objects.exists()


def test_edit_renames_and_bad_edit_changes_nothing(teacher_client, classroom):
    url = reverse("classroom:class_edit", args=[classroom.pk])
    teacher_client.post(url, {"name": "Room 14", "grade": "4", "school_year": "2026-27"})
    classroom.refresh_from_db()
    assert classroom.name == "Room 14"
    response = teacher_client.post(url, {"name": "", "grade": "5"})
    assert response.status_code == 200
    classroom.refresh_from_db()
    assert (classroom.name, classroom.grade) == ("Room 14", "4")


def test_archive_hides_from_dashboard_blocks_sessions_and_unarchive_restores(
    teacher_client, teacher, classroom
):
    teacher_client.post(reverse("classroom:class_archive", args=[classroom.pk]))
    classroom.refresh_from_db()
    assert classroom.is_archived
    link = f'href="{classroom.get_absolute_url()}"'
    assert link not in _dashboard(teacher_client)
    with pytest.raises(services.ServiceError, match="archived"):
        services.session_create(
            classroom=classroom, by=teacher, date=datetime.date(2026, 12, 1), game="bot_builders"
        )
    response = teacher_client.post(
        reverse("classroom:session_create", args=[classroom.pk]),
        {"date": "2026-12-01", "game": "bot_builders", "variant": "standard", "team_size": "2"},
    )
    assert response.status_code == 400 and not Session.objects.exists()

    teacher_client.post(reverse("classroom:class_unarchive", args=[classroom.pk]))
    classroom.refresh_from_db()
    assert not classroom.is_archived
    assert link in _dashboard(teacher_client)


def test_delete_confirmation_counts_what_will_be_lost(
    teacher_client, classroom, open_session, students, device_client, teacher
):
    services.session_set_present(
        session=open_session, student_ids=[s.pk for s in students], by=teacher
    )
    services.team_autopair(session=open_session, by=teacher)
    device_client(open_session, students[0])
    response = teacher_client.get(reverse("classroom:class_delete", args=[classroom.pk]))
    text = " ".join(response.content.decode().split())
    assert "<strong>8</strong> students" in text
    assert "<strong>1</strong> session," in text
    assert "<strong>4</strong> teams" in text
    assert "<strong>1</strong> device join" in text


def test_delete_needs_the_name_typed_and_then_removes_everything(
    teacher_client, classroom, open_session, students, device_client, teacher
):
    services.session_set_present(
        session=open_session, student_ids=[s.pk for s in students], by=teacher
    )
    services.team_autopair(session=open_session, by=teacher)
    device_client(open_session, students[0])
    url = reverse("classroom:class_delete", args=[classroom.pk])

    response = teacher_client.post(url, {"confirm_name": "wrong"})
    assert response.status_code == 400
    assert Classroom.objects.filter(pk=classroom.pk).exists()

    response = teacher_client.post(url, {"confirm_name": "room 12 robotics"})
    assert response.url == reverse("classroom:class_list")
    assert not Classroom.objects.exists()
    assert not Student.objects.exists()
    assert not Session.objects.exists()
    assert not Team.objects.exists()
    assert not DeviceBinding.objects.exists()


def test_deleting_twice_is_harmless(teacher, classroom):
    services.class_delete(classroom=classroom, by=teacher)
    services.class_delete(classroom=classroom, by=teacher)
    assert not Classroom.objects.exists()


def test_only_the_owner_may_change_a_class_through_services(classroom, colleague):
    with pytest.raises(services.ServiceError):
        services.class_update(classroom=classroom, by=colleague, name="Mine now")
    with pytest.raises(services.ServiceError):
        services.class_delete(classroom=classroom, by=colleague)
    classroom.refresh_from_db()
    assert classroom.name == "Room 12 Robotics"


def test_class_list_shows_counts_and_archived_separately(teacher_client, teacher, classroom):
    archived = services.class_create(by=teacher, name="Last Year")
    services.class_archive(classroom=archived, by=teacher)
    page = teacher_client.get(reverse("classroom:class_list")).content.decode()
    assert "Room 12 Robotics" in page and "<td>8</td>" in page
    assert page.index("Archived") < page.index("Last Year")
