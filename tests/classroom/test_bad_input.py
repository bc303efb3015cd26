"""Issue 15's 500s on bad classroom input, each with the exact input that broke: a clear
message, and nothing saved (or, for the invitation, nothing lost)."""

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from classroom import services
from classroom.models import Invitation, Student, Team
from tests.conftest import free_port


def test_a_roster_file_holding_a_nul_is_refused_and_adds_nobody(teacher_client, classroom):
    before = Student.objects.count()
    upload = SimpleUploadedFile("roster.csv", b"name\nAb\x00cd\nEf\n", "text/csv")
    response = teacher_client.post(
        reverse("classroom:roster_upload", args=[classroom.pk]), {"file": upload}
    )
    assert response.status_code == 400
    assert "Line 2: the line holds a character that cannot be saved" in response.content.decode()
    assert Student.objects.count() == before


def test_a_pasted_roster_holding_a_nul_is_refused(teacher_client, classroom):
    before = Student.objects.count()
    response = teacher_client.post(
        reverse("classroom:roster_paste", args=[classroom.pk]), {"names": "Ab\x00cd\nEf"}
    )
    assert response.status_code == 400
    assert Student.objects.count() == before


@pytest.fixture
def setup(open_session, teacher, students):
    services.session_set_present(
        session=open_session, student_ids=[s.pk for s in students], by=teacher
    )
    services.team_autopair(session=open_session, by=teacher)
    services.tables_autosplit(session=open_session, by=teacher)
    return open_session


def _teams(session) -> list:
    return list(
        Team.objects.filter(session=session).values_list("pk", "table_id", "is_robot")
    ) + list(session.teams.values_list("memberships__student_id", "pk"))


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("team_move", {"student": "²", "team": "new"}),
        ("team_move", {"student": "1", "team": "²"}),
        ("team_add_robot", {"table": "²"}),
        ("team_table", {"team": "²", "table": "new"}),
        ("team_table", {"team": "1", "table": "٣"}),
    ],
)
def test_a_unicode_digit_in_a_setup_choice_is_no_such_choice(teacher_client, setup, name, data):
    before = _teams(setup)
    response = teacher_client.post(reverse(f"classroom:{name}", args=[setup.pk]), data)
    assert response.status_code == 404
    assert _teams(setup) == before


def test_an_invitation_when_the_mail_server_is_down_keeps_the_row_and_shows_the_link(
    school_admin_client, settings
):
    # A real SMTP connection to a port nobody listens on: refused, as when the server is down.
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": free_port(), "timeout": 5},
        }
    }
    response = school_admin_client.post(
        reverse("classroom:teacher_invite"), {"email": "new@maple.test"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    invitation = Invitation.objects.get()
    assert "the e-mail could not be sent" in page
    assert f"/accounts/invite/{invitation.token}" in page
    assert "An invitation was sent" not in page
    assert mail.outbox == []
