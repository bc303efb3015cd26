from django.core import mail
from django.urls import reverse

from classroom import services
from classroom.models import Role, School, User
from tests.conftest import PASSWORD


def test_signup_creates_a_teacher_with_a_new_school_and_logs_in(client, db):
    response = client.post(
        reverse("classroom:signup"),
        {
            "display_name": "Ada Lovelace",
            "email": "Ada@Example.TEST",
            "school_name": "Analytical Academy",
            "password": "an-unusual-long-passphrase",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(email="ada@example.test")
    assert user.role == Role.TEACHER
    assert user.school.name == "Analytical Academy"
    assert client.get(reverse("classroom:dashboard")).status_code == 200


def test_signup_refuses_a_taken_email_and_a_weak_password_without_saving(client, teacher):
    before = (User.objects.count(), School.objects.count())
    response = client.post(
        reverse("classroom:signup"),
        {
            "display_name": "Someone",
            "email": teacher.email.upper(),
            "school_name": "Other",
            "password": "123",
        },
    )
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert "too short" in response.content.decode()
    assert (User.objects.count(), School.objects.count()) == before


def test_login_with_email_and_logout(client, teacher):
    response = client.post(reverse("login"), {"username": teacher.email, "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("classroom:dashboard")).status_code == 200
    client.post(reverse("logout"))
    response = client.get(reverse("classroom:dashboard"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_login_with_a_wrong_password_says_so(client, teacher):
    response = client.post(reverse("login"), {"username": teacher.email, "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct" in response.content.decode()


def test_password_reset_sends_a_link_that_sets_a_new_password(
    client, teacher, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as queued:
        client.post(reverse("password_reset"), {"email": teacher.email})
    assert len(queued) == 1 and mail.outbox == []
    # What the worker runs for the queued task (tests/classroom/test_password_reset.py sends
    # it through a real worker).
    services.password_reset_mail_send(email=teacher.email, domain="testserver", use_https=False)
    assert len(mail.outbox) == 1
    link = next(line for line in mail.outbox[0].body.splitlines() if "/accounts/reset/" in line)
    path = link[link.index("/accounts/reset/") :].strip()
    response = client.get(path, follow=True)
    assert response.status_code == 200
    form_url = response.redirect_chain[-1][0]
    response = client.post(
        form_url,
        {"new_password1": "a-brand-new-passphrase", "new_password2": "a-brand-new-passphrase"},
    )
    assert response.status_code == 302
    teacher.refresh_from_db()
    assert teacher.check_password("a-brand-new-passphrase")


def test_admin_site_works_for_a_superuser(client, db):
    User.objects.create_superuser("root@botbench.test", PASSWORD)
    client.login(username="root@botbench.test", password=PASSWORD)
    assert client.get("/admin/classroom/user/").status_code == 200
    assert client.get("/admin/classroom/classroom/").status_code == 200


def test_pages_send_a_content_security_policy(client, db):
    response = client.get(reverse("login"))
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "'unsafe-inline'" not in policy
