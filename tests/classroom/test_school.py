"""Administrators: the school page, invitations, (de)activating teachers."""

import datetime

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom import services
from classroom.models import Invitation, Role, User
from tests.conftest import PASSWORD


def test_school_page_lists_teachers_classes_and_sessions_read_only(
    school_admin_client, teacher, colleague, classroom, bb_session
):
    page = school_admin_client.get(reverse("classroom:school")).content.decode()
    for text in ["Alice Rivera", "Dana Cole", "Room 12 Robotics", str(bb_session)]:
        assert text in page
    assert reverse("classroom:class_edit", args=[classroom.pk]) not in page


def test_other_schools_do_not_appear(school_admin_client, other_teacher):
    page = school_admin_client.get(reverse("classroom:school")).content.decode()
    assert "Bob Stone" not in page


def test_invite_creates_an_invitation_sends_mail_and_shows_the_link(
    school_admin_client, school, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = school_admin_client.post(
            reverse("classroom:teacher_invite"), {"email": "New@Maple.test"}
        )
    invitation = Invitation.objects.get()
    assert (invitation.email, invitation.school) == ("new@maple.test", school)
    link = f"/accounts/invite/{invitation.token}"
    assert link in response.content.decode()
    assert len(mail.outbox) == 1 and link in mail.outbox[0].body
    assert mail.outbox[0].to == ["new@maple.test"]


@pytest.mark.parametrize(
    ("email", "message"),
    [("not-an-email", "Enter a valid email address."), ("alice@maple.test", "already has")],
)
def test_bad_invitation_is_refused(school_admin_client, teacher, email, message):
    response = school_admin_client.post(reverse("classroom:teacher_invite"), {"email": email})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Invitation.objects.exists()


@pytest.fixture
def invitation(school, school_admin):
    return Invitation.objects.create(
        school=school,
        email="newbie@maple.test",
        invited_by=school_admin,
        expires_at=timezone.now() + datetime.timedelta(days=3),
    )


def test_invitee_creates_a_teacher_account_in_the_school(invitation, school):
    client = Client()
    url = reverse("classroom:invitation_accept", args=[invitation.token])
    response = client.post(url, {"display_name": "Nia", "password": "a-long-unusual-passphrase"})
    assert response.url == reverse("classroom:dashboard")
    user = User.objects.get(email="newbie@maple.test")
    assert (user.school, user.role, user.display_name) == (school, Role.TEACHER, "Nia")
    invitation.refresh_from_db()
    assert invitation.accepted_at is not None
    # The link works once.
    assert Client().get(url).status_code == 404


def test_weak_password_is_refused_and_nothing_created(invitation):
    url = reverse("classroom:invitation_accept", args=[invitation.token])
    response = Client().post(url, {"display_name": "Nia", "password": "123"})
    assert response.status_code == 400
    assert not User.objects.filter(email="newbie@maple.test").exists()
    invitation.refresh_from_db()
    assert invitation.accepted_at is None


def test_expired_invitation_is_refused(invitation):
    invitation.expires_at = timezone.now() - datetime.timedelta(minutes=1)
    invitation.save()
    with pytest.raises(services.ServiceError, match="expired"):
        services.invitation_accept(token=invitation.token, display_name="N", password="x")
    url = reverse("classroom:invitation_accept", args=[invitation.token])
    assert Client().get(url).status_code == 404


def test_deactivated_teacher_cannot_log_in_and_reactivation_restores(school_admin_client, teacher):
    url = reverse("classroom:teacher_set_active", args=[teacher.pk])
    school_admin_client.post(url, {"active": "0"})
    teacher.refresh_from_db()
    assert not teacher.is_active
    assert not Client().login(email=teacher.email, password=PASSWORD)

    school_admin_client.post(url, {"active": "1"})
    teacher.refresh_from_db()
    assert teacher.is_active
    assert Client().login(email=teacher.email, password=PASSWORD)


def test_deactivating_ends_a_logged_in_teachers_access(teacher_client, school_admin, teacher):
    services.teacher_set_active(teacher=teacher, active=False, by=school_admin)
    assert teacher_client.get(reverse("classroom:class_list")).status_code == 302


def test_admin_cannot_deactivate_another_schools_teacher_or_an_admin(
    school_admin_client, school_admin, other_teacher
):
    url = reverse("classroom:teacher_set_active", args=[other_teacher.pk])
    assert school_admin_client.post(url, {"active": "0"}).status_code == 404
    url = reverse("classroom:teacher_set_active", args=[school_admin.pk])
    assert school_admin_client.post(url, {"active": "0"}).status_code == 404
    other_teacher.refresh_from_db()
    school_admin.refresh_from_db()
    assert other_teacher.is_active and school_admin.is_active
