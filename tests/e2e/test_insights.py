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
    page.wait_for_url(f"**/sessions/{planted.first.pk}/assessments/")
    spotlight = TeachBackSpotlight.objects.select_related("teachback__team").get(
        session=planted.first
    )
    assert f"Show {spotlight.teachback.team.name}'s sentence" in label
