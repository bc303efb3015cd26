import pytest

from classroom.models import Role, User

pytestmark = pytest.mark.browser


def test_teacher_signs_up_lands_on_empty_dashboard_and_logs_out(
    live_server, page, screenshot, console_errors
):
    console_errors(page)
    page.goto(f"{live_server.url}/accounts/signup/")
    page.get_by_label("Your name").fill("Grace Hopper")
    page.get_by_label("E-mail").fill("grace@navy.test")
    page.get_by_label("School").fill("Arlington Elementary")
    page.get_by_label("Password").fill("a-long-and-unusual-passphrase")
    page.get_by_role("button", name="Create account").click()

    page.wait_for_url(f"{live_server.url}/")
    assert page.get_by_role("heading", name="Hello, Grace Hopper").is_visible()
    assert page.get_by_text("No classes yet").is_visible()
    screenshot(page, "foundation-empty-dashboard")

    user = User.objects.get(email="grace@navy.test")
    assert user.role == Role.TEACHER
    assert user.school.name == "Arlington Elementary"

    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{live_server.url}/accounts/login/")
    assert page.get_by_role("heading", name="Log in").is_visible()
    assert console_errors.errors == []
