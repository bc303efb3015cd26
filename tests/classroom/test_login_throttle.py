"""The login throttle over HTTP: a small budget of wrong passwords per account, a larger one per
address, refused before the password is hashed, and the ways back for a real teacher."""

import re

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from classroom import services, throttle
from classroom.models import User
from tests.conftest import PASSWORD

LOGIN = "/accounts/login/"
ADMIN_LOGIN = "/admin/login/"
SCHOOL = "198.51.100.20"
WINDOW_START = 1_800_000_000.0  # a multiple of 10 and of 15 minutes


@pytest.fixture(autouse=True)
def _steady_clock(monkeypatch):
    """Windows are aligned on the clock, so a test running across a boundary would see its
    counts start again: the throttle's clock stands still at the start of a window."""
    monkeypatch.setattr(throttle, "_now", lambda: WINDOW_START)


LOCKED = re.compile(
    r"Too many wrong passwords for this account\. Wait (\d+) minutes? and try again, or reset "
    r"your password to unlock it now\."
)


class CountingHasher(MD5PasswordHasher):
    """Counts how often a password is hashed: the work a throttled login must not cause."""

    algorithm = "counting_md5"
    calls = 0

    def encode(self, password, salt):
        CountingHasher.calls += 1
        return super().encode(password, salt)


@pytest.fixture
def budgets(settings):
    settings.BOTBENCH_LOGIN_ACCOUNT_LIMIT = 10
    settings.BOTBENCH_LOGIN_ADDRESS_LIMIT = 100
    settings.BOTBENCH_LOGIN_WINDOW_MINUTES = 15
    return settings


def _login(client: Client, email: str, password: str, url: str = LOGIN):
    return client.post(url, {"username": email, "password": password})


def _logged_in(client: Client) -> bool:
    return client.get(reverse("classroom:dashboard")).status_code == 200


def _lock(email: str, address: str = SCHOOL, times: int = 10) -> None:
    for _ in range(times):
        response = _login(Client(REMOTE_ADDR=address), email, "wrong-guess")
        assert response.status_code == 200
        assert "Please enter a correct" in response.content.decode()


def test_a_teacher_with_a_few_typos_logs_in(budgets, teacher):
    _lock(teacher.email, times=9)
    client = Client(REMOTE_ADDR=SCHOOL)
    assert _login(client, teacher.email, PASSWORD).status_code == 302
    assert _logged_in(client)


def test_a_right_login_forgives_the_accounts_earlier_typos(budgets, teacher):
    _lock(teacher.email, times=9)
    assert _login(Client(REMOTE_ADDR=SCHOOL), teacher.email, PASSWORD).status_code == 302
    _lock(teacher.email, times=9)
    assert _login(Client(REMOTE_ADDR=SCHOOL), teacher.email, PASSWORD).status_code == 302


def test_ten_wrong_passwords_lock_the_account_even_against_the_right_one(budgets, teacher):
    _lock(teacher.email)
    client = Client(REMOTE_ADDR="203.0.113.99")  # from anywhere: the account is locked
    response = _login(client, teacher.email.upper(), PASSWORD)
    assert response.status_code == 429
    assert response["Retry-After"] == str(15 * 60)
    message = LOCKED.search(response.content.decode())
    assert message and message[1] == "15"
    assert "Forgot your password?" in response.content.decode()
    assert not _logged_in(client)
    # Other accounts are not affected.
    other = User.objects.create_user("other@school.test", PASSWORD)
    assert _login(Client(REMOTE_ADDR=SCHOOL), other.email, PASSWORD).status_code == 302


def test_a_locked_login_is_refused_before_the_password_is_hashed(budgets, teacher):
    budgets.PASSWORD_HASHERS = ["tests.classroom.test_login_throttle.CountingHasher"]
    teacher.set_password(PASSWORD)
    teacher.save()
    CountingHasher.calls = 0
    _lock(teacher.email)
    assert CountingHasher.calls == 10
    for _ in range(20):
        assert _login(Client(REMOTE_ADDR=SCHOOL), teacher.email, "wrong").status_code == 429
    assert _login(Client(REMOTE_ADDR=SCHOOL), "nobody@school.test", "x").status_code == 200
    assert CountingHasher.calls == 11  # the 20 refused logins hashed nothing


def test_unknown_accounts_are_counted_like_real_ones(budgets, db):
    _lock("nobody@school.test")
    response = _login(Client(REMOTE_ADDR=SCHOOL), "nobody@school.test", PASSWORD)
    assert response.status_code == 429
    assert LOCKED.search(response.content.decode())


def test_the_password_reset_unlocks_the_account_at_once(budgets, client, teacher):
    _lock(teacher.email)
    client.post(reverse("password_reset"), {"email": teacher.email})
    # What the worker runs for the queued e-mail (tests/foundation/test_accounts.py does too).
    services.password_reset_mail_send(email=teacher.email, domain="testserver", use_https=False)
    link = next(line for line in mail.outbox[0].body.splitlines() if "/accounts/reset/" in line)
    response = client.get(link[link.index("/accounts/reset/") :].strip(), follow=True)
    new = "a-brand-new-passphrase"
    response = client.post(
        response.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}
    )
    assert response.status_code == 302
    fresh = Client(REMOTE_ADDR=SCHOOL)
    assert _login(fresh, teacher.email, new).status_code == 302
    assert _logged_in(fresh)


def test_the_lock_ends_with_the_window(budgets, teacher, monkeypatch):
    now = 1_800_000_000.0  # on a window boundary
    monkeypatch.setattr(throttle, "_now", lambda: now)
    _lock(teacher.email)
    now += 14 * 60
    response = _login(Client(REMOTE_ADDR=SCHOOL), teacher.email, PASSWORD)
    assert response.status_code == 429
    assert "Wait 1 minute and try again" in response.content.decode()
    now += 60
    assert _login(Client(REMOTE_ADDR=SCHOOL), teacher.email, PASSWORD).status_code == 302


def test_manage_py_login_unlock_lifts_an_account_and_an_address(budgets, teacher, capsys):
    budgets.BOTBENCH_LOGIN_ADDRESS_LIMIT = 10
    _lock(teacher.email)
    assert _login(Client(REMOTE_ADDR=SCHOOL), "colleague@x.test", "y").status_code == 429
    call_command("login_unlock", teacher.email, "--address", SCHOOL)
    assert "Unlocked the account" in capsys.readouterr().out
    assert _login(Client(REMOTE_ADDR=SCHOOL), teacher.email, PASSWORD).status_code == 302


def test_an_administrator_unlocks_an_account_from_the_admin(budgets, teacher):
    root = User.objects.create_superuser("root@botbench.test", PASSWORD)
    _lock(teacher.email)
    admin = Client()
    admin.force_login(root)
    response = admin.post(
        "/admin/classroom/user/",
        {"action": "unlock_login", "_selected_action": [teacher.pk]},
        follow=True,
    )
    assert "Unlocked 1 login." in response.content.decode()
    assert _login(Client(REMOTE_ADDR=SCHOOL), teacher.email, PASSWORD).status_code == 302


def test_one_address_spraying_many_accounts_is_stopped(budgets, teacher):
    budgets.BOTBENCH_LOGIN_ADDRESS_LIMIT = 20
    for n in range(20):
        _login(Client(REMOTE_ADDR=SCHOOL), f"guess{n}@school.test", "wrong")
    response = _login(Client(REMOTE_ADDR=SCHOOL), teacher.email, PASSWORD)
    assert response.status_code == 429
    assert "Too many wrong logins from this network. Wait" in response.content.decode()
    # The teacher at home (another address) is not affected.
    assert _login(Client(REMOTE_ADDR="203.0.113.5"), teacher.email, PASSWORD).status_code == 302


def test_behind_a_proxy_the_forwarded_address_is_counted(budgets, teacher):
    budgets.BOTBENCH_PROXY_HOPS = 1
    budgets.BOTBENCH_LOGIN_ADDRESS_LIMIT = 5
    for n in range(5):
        client = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.66")
        _login(client, f"guess{n}@school.test", "wrong")
    spent = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.66")
    assert _login(spent, teacher.email, PASSWORD).status_code == 429
    other = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.67")
    assert _login(other, teacher.email, PASSWORD).status_code == 302


def test_the_admin_login_is_throttled_too(budgets, db):
    root = User.objects.create_superuser("root@botbench.test", PASSWORD)
    for _ in range(10):
        response = _login(Client(REMOTE_ADDR=SCHOOL), root.email, "wrong", ADMIN_LOGIN)
        assert "Please enter the correct" in response.content.decode()
    client = Client(REMOTE_ADDR=SCHOOL)
    response = _login(client, root.email, PASSWORD, ADMIN_LOGIN)
    assert LOCKED.search(response.content.decode())
    assert client.get("/admin/classroom/user/").status_code == 302  # still sent to log in


def test_the_admin_and_the_teacher_login_share_the_accounts_budget(budgets, teacher):
    for _ in range(5):
        _login(Client(REMOTE_ADDR=SCHOOL), teacher.email, "wrong", ADMIN_LOGIN)
    _lock(teacher.email, times=5)
    assert _login(Client(REMOTE_ADDR=SCHOOL), teacher.email, PASSWORD).status_code == 429


def test_a_teacher_with_the_right_password_at_the_admin_login_is_no_guess(budgets, teacher):
    for _ in range(12):
        response = _login(Client(REMOTE_ADDR=SCHOOL), teacher.email, PASSWORD, ADMIN_LOGIN)
        assert "Please enter the correct" in response.content.decode()  # not staff
    assert _login(Client(REMOTE_ADDR=SCHOOL), teacher.email, PASSWORD).status_code == 302


def test_the_school_administrator_sees_the_lockout_and_unlocks_it(
    budgets, teacher, school_admin_client
):
    school_page = reverse("classroom:school")
    assert "Locked out" not in school_admin_client.get(school_page).content.decode()
    _lock(teacher.email)
    page = school_admin_client.get(school_page).content.decode()
    assert "Locked out: too many wrong passwords" in page
    unlock = reverse("classroom:teacher_unlock_login", args=[teacher.pk])
    assert unlock in page
    response = school_admin_client.post(unlock, follow=True)
    assert f"{teacher} can log in again now." in response.content.decode()
    assert "Locked out" not in response.content.decode()
    assert _login(Client(REMOTE_ADDR=SCHOOL), teacher.email, PASSWORD).status_code == 302


def test_an_administrator_cannot_unlock_another_schools_teacher(
    budgets, other_teacher, school_admin_client
):
    _lock(other_teacher.email)
    unlock = reverse("classroom:teacher_unlock_login", args=[other_teacher.pk])
    assert school_admin_client.post(unlock).status_code == 404
    assert _login(Client(REMOTE_ADDR=SCHOOL), other_teacher.email, PASSWORD).status_code == 429
