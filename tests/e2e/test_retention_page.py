"""The administrator's retention page in a browser: from the school page, set the months, see
the counts of what that deletes, confirm; and the invitation page when the mail server is down.
Screenshotted on a phone, a Chromebook and a projector; no page may log a CSP error."""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from classroom.models import Student
from tests.conftest import free_port
from tests.e2e.conftest import CHROMEBOOK, PHONE, PROJECTOR, login_cookie

pytestmark = pytest.mark.browser


@pytest.fixture
def archived(classroom):
    classroom.archived_at = timezone.now() - datetime.timedelta(days=800)
    classroom.save(update_fields=["archived_at"])
    return classroom


def test_the_administrator_sets_retention_sees_the_counts_and_confirms(
    live_server, archived, school_admin, new_context, screenshot, console_errors
):
    base = live_server.url
    for label, viewport in (("phone", PHONE), ("chromebook", CHROMEBOOK), ("projector", PROJECTOR)):
        context = new_context(viewport)
        context.add_cookies([{**login_cookie(school_admin), "url": base}])
        page = console_errors(context.new_page())
        page.goto(f"{base}/school/")
        page.get_by_role("link", name="Change the setting or delete old data").click()
        if label == "phone":
            page.get_by_label("Keep the students' data of archived classes for (months)").fill("12")
            page.get_by_role("button", name="Save the setting").click()
            expect(page.get_by_text("Retention setting saved.")).to_be_visible()
        expect(page.locator("#purge-counts")).to_contain_text("8 students on the rosters")
        screenshot(page, f"reports-retention-{label}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{label}: the page scrolls sideways ({width}px)"
    page.get_by_role("button", name="Delete this data now").click()
    expect(page.get_by_text("Tick the box to confirm the deletion.")).to_be_visible()
    assert Student.objects.filter(classroom=archived).count() == 8
    page.get_by_label("I understand: these students' data is deleted for good.").check()
    page.get_by_role("button", name="Delete this data now").click()
    expect(page.get_by_text("Deleted 8 student(s)")).to_be_visible()
    screenshot(page, "reports-retention-deleted-projector")
    assert not Student.objects.filter(classroom=archived).exists()
    # The refused confirmation answers 400 (as every refused form does), which Chromium logs.
    assert [e for e in console_errors.errors if "status of 400" not in e] == []


def test_an_invitation_when_the_mail_server_is_down_shows_the_link_to_copy(
    live_server, school_admin, settings, new_context, screenshot, console_errors
):
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": free_port(), "timeout": 5},
        }
    }
    base = live_server.url
    for n, (label, viewport) in enumerate(
        (("phone", PHONE), ("chromebook", CHROMEBOOK), ("projector", PROJECTOR))
    ):
        context = new_context(viewport)
        context.add_cookies([{**login_cookie(school_admin), "url": base}])
        page = console_errors(context.new_page())
        page.goto(f"{base}/school/invite/")
        page.get_by_label("Teacher's e-mail").fill(f"new{n}@maple.test")
        page.get_by_role("button", name="Send invitation").click()
        expect(page.get_by_role("alert")).to_contain_text("the e-mail could not be sent")
        expect(page.get_by_label("Invitation link")).to_have_value(
            __import__("re").compile(r"/accounts/invite/")
        )
        screenshot(page, f"classroom-invite-mail-down-{label}")
    assert console_errors.errors == []
