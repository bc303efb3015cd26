"""Teach-back end to end in Chromium: teams send their sentences from their phones, the teacher
scores them on the assessments page, puts one on the projector, and locks the sentences."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Assessment, TeachBack
from tests.conftest import PASSWORD
from tests.e2e.conftest import CHROMEBOOK, PHONE, PROJECTOR, binding_cookie
from tests.games.conftest import fast_passwords, make_table, set_bench  # noqa: F401

pytestmark = pytest.mark.browser


def device_context(new_context, live_server, binding):
    """A phone whose browser holds the device cookie the join page would have set."""
    context = new_context(PHONE)
    context.add_cookies([{**binding_cookie(binding), "url": live_server.url}])
    return context


def test_teams_send_sentences_teacher_scores_and_spotlights_them(
    live_server, new_context, screenshot, console_errors, open_session, students, teacher
):
    from classroom import services as classroom_services

    finished = make_table(open_session, students, teams=3, seed=7)
    set_bench(
        finished,
        finished.teams[0],
        {
            "sense": "camera",
            "think": None,
            "act": "drive_wheels",
            "power": "solar_panel",
            "mission": "rescue_rover",
        },
    )
    form_url = f"{live_server.url}/play/sessions/{open_session.pk}/teachback/"
    answers = {
        0: {
            "thinks_with": "a tiny computer brain",
            "because": "it finds people trapped after a storm and rolls supplies to them",
        },
        1: {"senses_with": "Drive wheels", "acts_with": "a water pump", "because": "it is cool"},
    }
    for index, answer in answers.items():
        binding = classroom_services.device_join(
            session=open_session, student=finished.members[index]
        )
        page = console_errors(device_context(new_context, live_server, binding).new_page())
        page.goto(form_url)
        expect(page.get_by_role("heading", name="Our robot's sentence")).to_be_visible()
        if index == 0:
            expect(page.get_by_label("senses with")).to_have_value("Camera")
            expect(page.get_by_label("thinks with")).to_have_value("")
            expect(page.get_by_label("thinks with")).to_have_attribute(
                "placeholder", "the part you would add"
            )
            expect(page.get_by_text("Rescue rover")).to_be_visible()
        for label, value in answer.items():
            page.get_by_label(label.replace("_", " "), exact=True).fill(value)
        page.get_by_role("button", name="Submit").click()
        expect(page.get_by_text("Sent! You can still change it")).to_be_visible()
        if index == 0:
            screenshot(page, "teachback-device-phone")
            device_page = page

    first = TeachBack.objects.get(team=finished.teams[0])
    assert first.thinks_with == "a tiny computer brain"
    assert first.senses_with == "Camera"
    assert first.bench_snapshot["mission"] == "rescue_rover"

    # The teacher, on a Chromebook.
    teacher_context = new_context(CHROMEBOOK)
    page = console_errors(teacher_context.new_page())
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("E-mail").fill(teacher.email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/play/sessions/{open_session.pk}/assessments/")
    expect(page.get_by_text("2 of 3 teams sent a sentence")).to_be_visible()
    expect(page.get_by_text("Drive wheels is an Act part, not a Sense part")).to_be_visible()

    row = page.locator(f"#tb-row-{finished.teams[0].pk}")
    for criterion, score in (("Complete", "3"), ("Right jobs", "2"), ("Mission link", "3")):
        row.get_by_role("group", name=criterion).get_by_role(
            "radio", name=score, exact=True
        ).check()
    row.get_by_role("group", name=re.compile("Said clearly")).get_by_role(
        "radio", name="skip"
    ).check()
    row.get_by_label("Comment").fill("Great link to the Mission!")
    row.get_by_role("button", name="Save").click()
    expect(page.locator(f"#tb-row-{finished.teams[0].pk}").get_by_text("Saved.")).to_be_visible()
    assessment = Assessment.objects.get(teachback=first)
    assert dict(assessment.scores.values_list("criterion__key", "score")) == {
        "complete": 3,
        "right_jobs": 2,
        "mission_link": 3,
        "said_clearly": None,
    }
    assert assessment.comment == "Great link to the Mission!"

    # The second team: a required score left out is refused, then completed.
    row2 = page.locator(f"#tb-row-{finished.teams[1].pk}")
    row2.get_by_role("group", name="Complete").get_by_role("radio", name="2", exact=True).check()
    row2.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Choose a score for “Right jobs”")).to_be_visible()
    row2 = page.locator(f"#tb-row-{finished.teams[1].pk}")
    row2.get_by_role("group", name="Right jobs").get_by_role("radio", name="1", exact=True).check()
    row2.get_by_role("group", name="Mission link").get_by_role(
        "radio", name="0", exact=True
    ).check()
    row2.get_by_role("group", name=re.compile("Said clearly")).get_by_role(
        "radio", name="2", exact=True
    ).check()
    row2.get_by_role("button", name="Save").click()
    expect(page.locator(f"#tb-row-{finished.teams[1].pk}").get_by_text("Saved.")).to_be_visible()
    assert Assessment.objects.count() == 2

    # The projector shows the chosen sentence, and follows a new choice by polling.
    projector = console_errors(teacher_context.new_page())
    projector.set_viewport_size(PROJECTOR)
    projector.goto(f"{live_server.url}/play/sessions/{open_session.pk}/spotlight/projector/")
    expect(projector.get_by_text("Robot sentences will appear here.")).to_be_visible()
    page.locator(f"#tb-row-{finished.teams[0].pk}").get_by_role(
        "button", name="Show on projector"
    ).click()
    expect(page.get_by_text("On the projector: Team 1")).to_be_visible()
    expect(projector.get_by_text("a tiny computer brain")).to_be_visible()
    screenshot(projector, "teachback-spotlight-projector")

    page.reload()
    screenshot(page, "teachback-assessments-chromebook")

    # Lock: the team's phone now shows its sentence read-only.
    page.get_by_role("button", name="Lock sentences").click()
    expect(page.get_by_text("Sentences locked")).to_be_visible()
    device_page.reload()
    expect(device_page.get_by_text("Your teacher has locked the sentences")).to_be_visible()
    expect(device_page.get_by_role("button", name=re.compile("Send|Submit"))).to_have_count(0)
    screenshot(device_page, "teachback-device-locked-phone")
    assert console_errors.errors == []


def test_rubric_editor_on_a_chromebook(
    live_server, new_context, screenshot, console_errors, classroom, teacher
):
    context = new_context(CHROMEBOOK)
    page = console_errors(context.new_page())
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("E-mail").fill(teacher.email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"{live_server.url}/play/classes/{classroom.pk}/rubric/")
    page.get_by_role("button", name="Add a criterion").click()
    page.locator("#id_form-4-title").fill("Drew the bot")
    page.locator("#id_form-4-description").fill("A drawing of the bot with its parts labelled.")
    page.get_by_role("button", name="Save the rubric").click()
    expect(page.get_by_text("Rubric saved (version 1)")).to_be_visible()
    screenshot(page, "teachback-rubric-chromebook")
    assert classroom.rubrics.get().criteria.count() == 5
    assert console_errors.errors == []
