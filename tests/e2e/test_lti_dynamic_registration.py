"""LTI Dynamic Registration in Chromium, as Moodle does it: the school's administrator makes a
one-time link in BotBench, the LMS's administrator pastes it into the test platform's "add a
tool" page, BotBench registers itself inside the platform's frame, and the first launch
through the new registration is accepted."""

# The LMS's fixtures are imported from tests/lti, so parameters named like them are not
# redefinitions.
# ruff: noqa: F811
import pytest
from playwright.sync_api import expect

from classroom.models import LtiPlatform
from tests.e2e.conftest import CHROMEBOOK, login_cookie
from tests.lti.conftest import (  # noqa: F401  (the LMS's fixtures)
    launch,
    lms_context,
    lms_course,
    lti_platform,
    registered,
    snapshot,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_lms_registers_botbench_through_a_one_time_link_and_launches_with_it(
    live_server, lms_course, school, school_admin, new_context, lms_context, launch, screenshot
):
    lms = lms_course
    admin_context = new_context(CHROMEBOOK)
    admin_context.add_cookies([{**login_cookie(school_admin), "url": live_server.url}])
    admin = admin_context.new_page()
    admin.goto(f"{live_server.url}/lti/platforms/")
    admin.get_by_role("button", name="Make a registration link").click()
    link = admin.get_by_label("Registration URL").first.input_value()
    assert link.startswith(f"{live_server.url}/lti/register/?link=")

    lms_admin = lms_context(CHROMEBOOK).new_page()
    lms_admin.goto(f"{lms.platform.url}/admin/tools")
    lms_admin.get_by_label("Tool registration URL").fill(link)
    lms_admin.get_by_role("button", name="Register the tool").click()
    frame = lms_admin.frame_locator("iframe")
    frame.get_by_role("button", name="Register BotBench").click()
    expect(frame.get_by_role("heading", name="BotBench is registered")).to_be_visible()
    screenshot(lms_admin, "lti-dynamic-registration-chromebook")

    platform = LtiPlatform.objects.get()
    assert (platform.school, platform.issuer, platform.client_id) == (
        school,
        lms.platform.issuer,
        lms.store.client_id,
    )
    assert list(platform.deployments.values_list("deployment_id", flat=True)) == [
        lms.store.deployment_id
    ]
    assert lms.store.tool.jwks_url == f"{live_server.url}/lti/jwks.json"

    # The link worked once: pasted again, BotBench refuses it.
    lms_admin.goto(f"{lms.platform.url}/admin/tools")
    lms_admin.get_by_label("Tool registration URL").fill(link)
    lms_admin.get_by_role("button", name="Register the tool").click()
    expect(lms_admin.frame_locator("iframe").get_by_role("alert")).to_contain_text(
        "unknown, used or expired"
    )

    teacher = lms_context(CHROMEBOOK).new_page()
    frame = launch(teacher, lms.teacher, lms.course, lms.link)
    expect(frame.get_by_role("button", name="Start the lesson")).to_be_visible()
