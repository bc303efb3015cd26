"""BotBench in an LMS's iframe, in Chromium: the platform's course page (127.0.0.1) frames the
tool (localhost), so cookies and framing are really cross-site. A teacher launches, starts the
lesson; a student launches and lands on the open session. Then the LTI pages in English and
Spanish at three sizes, checked by axe (every page a context opens) and screenshotted."""

import pytest
from playwright.sync_api import expect

from classroom.models import DeviceBinding, LtiCourse, LtiResourceLink
from tests.e2e.conftest import CHROMEBOOK, PAGE_LOAD, PHONE, PROJECTOR, login_cookie
from tests.lti.signer import JsonServer, register_platform, serve_browser_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

INSTRUCTOR = ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"]
LEARNER = ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"]


@pytest.fixture
def lms(live_server, school):
    server = JsonServer()
    platform = register_platform(server, school)
    serve_browser_pages(platform, live_server.url)
    yield platform
    server.close()


def test_teacher_and_student_launch_inside_the_lms_iframe(
    lms, live_server, new_context, screenshot, console_errors
):
    lms.next_launch = {"sub": "teacher-1", "roles": tuple(INSTRUCTOR)}
    teacher = console_errors(new_context(CHROMEBOOK).new_page())
    teacher.goto(lms.server.origin + "/course", timeout=PAGE_LOAD)
    frame = teacher.frame_locator("iframe")
    expect(frame.get_by_role("button", name="Start the lesson")).to_be_visible()
    screenshot(teacher, "lti-teacher-activity-in-iframe")
    frame.get_by_role("button", name="Start the lesson").click()
    course = LtiCourse.objects.get()
    expect(frame.get_by_text(course.classroom.name).first).to_be_visible()
    assert course.classroom.sessions.get().is_joinable

    lms.next_launch = {"sub": "student-7", "roles": tuple(LEARNER)}
    student = console_errors(new_context(PHONE).new_page())
    student.goto(lms.server.origin + "/course", timeout=PAGE_LOAD)
    frame = student.frame_locator("iframe")
    expect(frame.get_by_text("Ana G.").first).to_be_visible()
    screenshot(student, "lti-student-device-in-iframe")
    binding = DeviceBinding.objects.get(revoked_at__isnull=True)
    assert binding.session.classroom == course.classroom
    assert console_errors.errors == []


@pytest.mark.parametrize("language", ["en", "es"])
def test_lti_pages_at_three_sizes(
    lms, live_server, school_admin, new_context, screenshot, language
):
    lms.next_launch = {"sub": "teacher-1", "roles": tuple(INSTRUCTOR)}
    base = live_server.url
    for label, viewport in (("phone", PHONE), ("chromebook", CHROMEBOOK), ("projector", PROJECTOR)):
        context = new_context(viewport)
        context.add_cookies(
            [{**login_cookie(school_admin), "url": base}]
            + [{"name": "django_language", "value": language, "url": base}]
        )
        page = context.new_page()
        page.goto(f"{base}/lti/platforms/", timeout=PAGE_LOAD)
        expect(page.locator("h1")).to_be_visible()
        screenshot(page, f"lti-platforms-{language}-{label}")
        page.goto(f"{base}/lti/platforms/{lms.record.pk}/", timeout=PAGE_LOAD)
        screenshot(page, f"lti-platform-{language}-{label}")
        page.goto(f"{base}/lti/login/?iss={lms.issuer}&login_hint=h&target_link_uri=x")
        screenshot(page, f"lti-cookie-check-{language}-{label}")
        # A refusal: a launch whose state the tool never issued.
        page.goto(f"{base}/lti/register/?link=unknown&openid_configuration=x")
        screenshot(page, f"lti-registration-refused-{language}-{label}")
    # The teacher's pages after a real launch, top level this time.
    context = new_context(CHROMEBOOK)
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    page.goto(lms.server.origin + "/course", timeout=PAGE_LOAD)
    expect(page.frame_locator("iframe").locator("h1")).to_be_visible()
    link = LtiResourceLink.objects.get()
    page.goto(f"{base}/lti/links/{link.pk}/", timeout=PAGE_LOAD)
    screenshot(page, f"lti-activity-{language}")
