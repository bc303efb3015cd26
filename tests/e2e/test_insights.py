"""The insights pages in Chromium: a laptop and a phone, keyboard only, axe with the WCAG 2.2 AA
tags at 0 violations (beside the audit every browser test runs), and the spotlight button
putting a sentence on the projector through the teach-back's own form."""

import pytest
from playwright.sync_api import expect

from games.models import TeachBackSpotlight
from tests.e2e.conftest import CHROMEBOOK, PHONE
from tests.reports.insights_world import plant_class
from tests.support.pages import no_horizontal_overflow, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WCAG22 = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
AXE = """async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}}))
  .violations.map(v => `${v.id}: ${v.nodes.map(n => n.target.join(' ')).slice(0, 3)}`)"""


def axe_violations(page) -> list[str]:
    page.wait_for_function("() => typeof axe !== 'undefined'")
    return page.evaluate(AXE, WCAG22)


@pytest.fixture
def planted(classroom):
    return plant_class(classroom)


@pytest.mark.layout
def test_insights_pages_read_on_a_laptop_and_a_phone(
    new_context, live_server, teacher, planted, screenshot, console_errors
):
    pages = [
        ("session", f"/reports/sessions/{planted.first.pk}/insights/"),
        ("class", f"/reports/classes/{planted.classroom.pk}/insights/"),
    ]
    for label, viewport in (("laptop", CHROMEBOOK), ("phone", PHONE)):
        page = console_errors(signed_in(new_context, live_server, teacher, viewport).new_page())
        for name, path in pages:
            page.goto(live_server.url + path)
            expect(page.get_by_role("heading", name="Teach next")).to_be_visible()
            expect(
                page.get_by_text("teams named an Act part where a Sense part belongs").first
            ).to_be_visible()
            page.locator("details.insight-sentences").first.evaluate("d => d.open = true")
            screenshot(page, f"insights-{name}-{label}")
            no_horizontal_overflow(page)
            assert axe_violations(page) == []
        # One click from a blank's group on the class page to the sentences behind it.
        page.goto(f"{live_server.url}/reports/classes/{planted.classroom.pk}/insights/")
        page.locator(".insight-blanks a").first.click()
        expect(page.get_by_role("heading", level=2)).to_contain_text("sentences behind it")
        screenshot(page, f"insights-class-sentences-{label}")
        no_horizontal_overflow(page)
        assert axe_violations(page) == []
        student = planted.classroom.students.order_by("pk").first()
        page.goto(f"{live_server.url}/reports/students/{student.pk}/")
        expect(page.get_by_role("heading", name="Progress on the rubric")).to_be_visible()
        screenshot(page, f"insights-student-{label}")
        no_horizontal_overflow(page)
        assert axe_violations(page) == []
    assert console_errors.errors == []


@pytest.mark.layout
@pytest.mark.parametrize("language", ["es"])
def test_insights_and_standards_pages_in_spanish_and_the_standards_pages(
    new_context, live_server, teacher, school_admin, planted, screenshot, console_errors, language
):
    """The Spanish insights at both sizes, and the two pages where standard codes are picked
    (the class's rubric criteria, the school's games), in both languages."""
    pk = planted.classroom.pk
    teacher_pages = [
        ("session", f"/reports/sessions/{planted.first.pk}/insights/", "Qué enseñar ahora"),
        ("class", f"/reports/classes/{pk}/insights/", "Qué enseñar ahora"),
        ("criteria-standards", f"/reports/classes/{pk}/standards/", None),
    ]
    for label, viewport in (("laptop", CHROMEBOOK), ("phone", PHONE)):
        for who, pages in ((teacher, teacher_pages), (school_admin, None)):
            context = signed_in(new_context, live_server, who, viewport)
            for accept in (language, "en"):
                context.set_extra_http_headers({"Accept-Language": accept})
                page = console_errors(context.new_page())
                if pages is None:
                    pages_now = [("school-standards", "/reports/school/standards/", None)]
                elif accept == "en":
                    pages_now = pages[2:]
                else:
                    pages_now = pages
                for name, path, heading in pages_now:
                    page.goto(live_server.url + path)
                    if heading:
                        expect(page.get_by_role("heading", name=heading)).to_be_visible()
                    assert page.locator("html").get_attribute("lang").startswith(accept)
                    screenshot(page, f"insights-{name}-{accept}-{label}")
                    no_horizontal_overflow(page)
                    assert axe_violations(page) == []
                page.close()
    assert console_errors.errors == []


def test_keyboard_picks_a_criterion_standard(new_context, live_server, teacher, planted):
    """Tab to a code's box, Space ticks it, Enter saves: the code is stored on the criterion."""
    from games.teachback.rubrics import current_rubric

    page = signed_in(new_context, live_server, teacher, CHROMEBOOK).new_page()
    page.goto(f"{live_server.url}/reports/classes/{planted.classroom.pk}/standards/")
    box = page.locator("#criterion-complete ~ form input[value='4-LS1-2']")
    for _ in range(120):
        page.keyboard.press("Tab")
        if box.evaluate("b => b === document.activeElement"):
            break
    else:
        raise AssertionError("Tab never reached the 4-LS1-2 box of Complete")
    page.keyboard.press("Space")
    expect(box).to_be_checked()
    box.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Standards of “Complete” saved")
    complete = current_rubric(planted.classroom).criteria.get(key="complete")
    assert "4-LS1-2" in complete.standards


def test_keyboard_opens_the_sentences_and_spotlights_one(
    new_context, live_server, teacher, planted, screenshot
):
    page = signed_in(new_context, live_server, teacher, CHROMEBOOK).new_page()
    page.goto(f"{live_server.url}/reports/sessions/{planted.first.pk}/insights/")
    summary = page.locator("#misconceptions-heading ~ article summary").first
    for _ in range(80):
        page.keyboard.press("Tab")
        if summary.evaluate("s => s === document.activeElement"):
            break
    else:
        raise AssertionError("Tab never reached the first misconception's sentences")
    page.keyboard.press("Enter")
    details = page.locator("#misconceptions-heading ~ article details").first
    expect(details).to_have_attribute("open", "")
    page.keyboard.press("Tab")
    button = details.get_by_role("button").first
    expect(button).to_be_focused()
    label = button.text_content()
    screenshot(page, "insights-session-keyboard")
    page.keyboard.press("Enter")
    # Back on the insights, where the teacher was, not on the assessments page.
    page.wait_for_url(f"**/reports/sessions/{planted.first.pk}/insights/")
    expect(page.get_by_role("heading", name="Teach next")).to_be_visible()
    spotlight = TeachBackSpotlight.objects.select_related("teachback__team").get(
        session=planted.first
    )
    assert f"Show {spotlight.teachback.team.name}'s sentence" in label
