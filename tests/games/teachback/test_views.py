"""The teach-back pages through the test client: what each shows, htmx partials, messages."""

import re
from html import unescape

import pytest
from django.urls import reverse

from classroom.models import DeviceBinding
from games.models import Assessment, TeachBack
from games.teachback import services
from games.teachback.rubrics import rubric_for_class
from tests.games.conftest import (
    GOOD_SENTENCE,
    finished_with_sample_bench,
    make_table,
)

HX = {"HTTP_HX_REQUEST": "true"}
SCORES = {
    "score-complete": "3",
    "score-right_jobs": "2",
    "score-mission_link": "1",
    "score-said_clearly": "skip",
    "comment": "Clear and complete",
}


@pytest.fixture
def finished(open_session, students):
    return finished_with_sample_bench(open_session, students, teams=3)


@pytest.fixture
def device(finished, device_client, open_session):
    return device_client(open_session, finished.members[0])


def form_url(session):
    return reverse("games:teachback", args=[session.pk])


def test_device_form_is_prefilled_from_the_bench_with_the_mission_shown(device, open_session):
    html = device.get(form_url(open_session)).content.decode()
    assert 'value="Camera"' in html
    assert 'value="Drive wheels"' in html
    assert 'value="Solar panel"' in html
    assert 'placeholder="the part you would add"' in html
    assert "Rescue rover" in html
    assert "Finds people trapped after a storm" in html
    assert "Sent!" not in html


def test_device_htmx_submit_answers_the_partial_with_sent_and_stores_it(device, open_session):
    response = device.post(form_url(open_session), GOOD_SENTENCE, **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert "Sent! You can still change it until your teacher locks the sentences." in html
    assert TeachBack.objects.get().because == GOOD_SENTENCE["because"]


def test_device_plain_submit_redirects_back_to_the_form_showing_sent(device, open_session):
    response = device.post(form_url(open_session), GOOD_SENTENCE, follow=True)
    assert "Sent!" in response.content.decode()
    assert response.redirect_chain[-1][0] == form_url(open_session)


def test_device_refusal_shows_the_message_and_stores_nothing(device, open_session):
    response = device.post(form_url(open_session), {**GOOD_SENTENCE, "because": ""}, **HX)
    assert "Fill in the blank after “because”" in response.content.decode()
    assert not TeachBack.objects.exists()


def test_device_sees_a_read_only_sentence_once_locked(device, open_session, teacher):
    device.post(form_url(open_session), GOOD_SENTENCE)
    services.session_lock_teachbacks(session=open_session, by=teacher)
    html = device.get(form_url(open_session)).content.decode()
    assert "locked the sentences" in html
    assert "<textarea" not in html
    assert GOOD_SENTENCE["because"] in html
    response = device.post(form_url(open_session), {**GOOD_SENTENCE, "because": "new"}, **HX)
    assert "locked" in response.content.decode()
    assert TeachBack.objects.get().because == GOOD_SENTENCE["because"]


def test_device_is_told_to_finish_the_game_first(open_session, students, device_client):
    playing = make_table(open_session, students, over=False)
    device = device_client(open_session, playing.members[0])
    html = device.get(form_url(open_session)).content.decode()
    assert "Finish your game first" in html
    assert "<textarea" not in html


@pytest.fixture
def sent(finished, open_session, device_client):
    made = []
    for team, member in zip(finished.teams[:2], finished.members[:2], strict=True):
        binding = device_client(open_session, member).binding
        fields = (
            {**GOOD_SENTENCE, "senses_with": "Drive wheels"} if team.number == 2 else GOOD_SENTENCE
        )
        made.append(services.teachback_submit(team=team, fields=fields, by_device=binding))
    return made


def assessments_url(session):
    return reverse("games:assessments", args=[session.pk])


def test_teacher_page_lists_teams_in_table_order_with_sentences_hints_and_forms(
    teacher_client, open_session, sent
):
    html = teacher_client.get(assessments_url(open_session)).content.decode()
    assert html.index("Team 1") < html.index("Team 2") < html.index("Team 3")
    assert "2 of 3 teams sent a sentence" in html
    assert "Drive wheels is an Act part, not a Sense part" in html
    assert "No sentence yet." in html
    assert 'name="score-said_clearly" value="skip"' in html
    assert "All five blanks filled with meaningful words." in html
    assert "Show on projector" in html
    assert "Lock sentences" in html


def test_administrator_reads_the_page_without_forms(
    school_admin_client, teacher, open_session, sent
):
    services.assessment_save(
        teachback=sent[0],
        scores={"complete": 3, "right_jobs": 2, "mission_link": 1, "said_clearly": None},
        comment="Lovely",
        by=teacher,
    )
    html = school_admin_client.get(assessments_url(open_session)).content.decode()
    assert "Lovely" in html
    assert "3 / 3" in html
    assert "skipped" in html
    assert 'name="score-complete"' not in html
    assert "Lock sentences" not in html


def test_htmx_save_rerenders_only_that_row_and_stores_the_scores(
    teacher_client, open_session, sent
):
    url = reverse("games:assessment_save", args=[open_session.pk, sent[0].pk])
    response = teacher_client.post(url, {**SCORES, "rubric_version": "1"}, **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.strip().startswith(f'<li id="tb-row-{sent[0].team_id}"')
    assert "Team 2" not in html
    assert "Saved." in html
    assessment = Assessment.objects.get(teachback=sent[0])
    assert assessment.comment == "Clear and complete"
    assert dict(assessment.scores.values_list("criterion__key", "score")) == {
        "complete": 3,
        "right_jobs": 2,
        "mission_link": 1,
        "said_clearly": None,
    }


def test_htmx_save_with_a_missing_score_keeps_the_choices_and_shows_why(
    teacher_client, open_session, sent
):
    url = reverse("games:assessment_save", args=[open_session.pk, sent[0].pk])
    data = {**SCORES, "score-right_jobs": ""}
    html = teacher_client.post(url, data, **HX).content.decode()
    assert "Choose a score for “Right jobs”" in html
    assert 'name="score-complete" value="3" checked' in html
    assert "Clear and complete" in html
    assert not Assessment.objects.exists()


def test_spotlight_shows_on_the_projector_and_the_poll_answers_204_until_it_changes(
    teacher_client, open_session, sent, django_capture_on_commit_callbacks
):
    projector = reverse("games:spotlight_projector", args=[open_session.pk])
    assert "Robot sentences will appear here." in teacher_client.get(projector).content.decode()
    response = teacher_client.post(
        reverse("games:spotlight", args=[open_session.pk]), {"teachback": sent[1].pk}, **HX
    )
    assert "On the projector: <strong>Team 2</strong>" in response.content.decode()
    page = teacher_client.get(projector).content.decode()
    assert "Drive wheels" in page
    assert 'class="projector"' in page
    poll = unescape(re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', page)[1])
    assert teacher_client.get(poll, **HX).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        teacher_client.post(reverse("games:spotlight", args=[open_session.pk]), {"teachback": ""})
    changed = teacher_client.get(poll, **HX)
    assert changed.status_code == 200
    assert "Robot sentences will appear here." in changed.content.decode()
    assert 'class="projector"' not in changed.content.decode()  # the region alone


def test_a_spotlit_sentence_the_team_changes_is_drawn_again_on_the_projector(
    teacher_client, open_session, finished, sent, django_capture_on_commit_callbacks
):
    teacher_client.post(
        reverse("games:spotlight", args=[open_session.pk]), {"teachback": sent[1].pk}
    )
    page = teacher_client.get(reverse("games:spotlight_projector", args=[open_session.pk]))
    poll = unescape(re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', page.content.decode())[1])
    assert teacher_client.get(poll, **HX).status_code == 204
    fields = {**GOOD_SENTENCE, "senses_with": "a bump sensor"}
    with django_capture_on_commit_callbacks(execute=True):
        binding = DeviceBinding.objects.get(student=finished.members[1], revoked_at__isnull=True)
        services.teachback_submit(team=sent[1].team, fields=fields, by_device=binding)
    changed = teacher_client.get(poll, **HX)
    assert changed.status_code == 200 and "a bump sensor" in changed.content.decode()


def test_lock_and_unlock_buttons(teacher_client, open_session):
    url = reverse("games:teachback_lock", args=[open_session.pk])
    teacher_client.post(url, {"action": "lock"})
    open_session.refresh_from_db()
    assert open_session.teachbacks_locked_at is not None
    teacher_client.post(url, {"action": "unlock"})
    open_session.refresh_from_db()
    assert open_session.teachbacks_locked_at is None


def rubric_post(rows, **extra):
    data = {"form-TOTAL_FORMS": str(len(rows)), "form-INITIAL_FORMS": str(len(rows)), **extra}
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"form-{i}-{key}"] = value
    return data


DEFAULT_ROWS = [
    {
        "key": "complete",
        "title": "Complete",
        "description": "All five blanks filled with meaningful words.",
        "max_score": "3",
        "order": "1",
    },
    {
        "key": "right_jobs",
        "title": "Right jobs",
        "description": "Each blank names something that really senses, thinks, acts or powers.",
        "max_score": "3",
        "order": "2",
    },
    {
        "key": "mission_link",
        "title": "Mission link",
        "description": "“because” explains how the parts serve the bot's Mission.",
        "max_score": "3",
        "order": "3",
    },
    {
        "key": "said_clearly",
        "title": "Said clearly",
        "description": "The team said it aloud clearly (observed by you; may be skipped).",
        "max_score": "3",
        "optional": "on",
        "order": "4",
    },
]


def test_rubric_editor_saving_a_used_rubric_announces_the_new_version(
    teacher_client, classroom, teacher, sent
):
    services.assessment_save(
        teachback=sent[0],
        scores={"complete": 3, "right_jobs": 2, "mission_link": 1, "said_clearly": None},
        comment="",
        by=teacher,
    )
    url = reverse("games:rubric_edit", args=[classroom.pk])
    rows = [dict(row) for row in DEFAULT_ROWS]
    rows[3]["remove"] = "on"
    rows[0]["order"] = "5"
    response = teacher_client.post(url, rubric_post(rows), follow=True)
    assert "Version 2 — your earlier scores keep version 1." in response.content.decode()
    current = classroom.rubrics.get(version=2)
    assert list(current.criteria.order_by("position").values_list("key", flat=True)) == [
        "right_jobs",
        "mission_link",
        "complete",
    ]
    assert classroom.rubrics.get(version=1).criteria.count() == 4


def test_rubric_editor_refusal_shows_the_message_and_changes_nothing(teacher_client, classroom):
    url = reverse("games:rubric_edit", args=[classroom.pk])
    rubric_for_class(classroom)  # the class's first write made version 1 (a page never does)
    rows = [dict(row) for row in DEFAULT_ROWS]
    rows[1]["title"] = "complete"
    html = teacher_client.post(url, rubric_post(rows)).content.decode()
    assert "Two criteria are called “complete”" in html
    assert classroom.rubrics.get().criteria.get(key="right_jobs").title == "Right jobs"


def test_rubric_editor_add_shows_one_more_blank_row_without_saving(teacher_client, classroom):
    url = reverse("games:rubric_edit", args=[classroom.pk])
    rubric_for_class(classroom)  # the class's first write made version 1 (a page never does)
    html = teacher_client.post(url, rubric_post(DEFAULT_ROWS, add="1")).content.decode()
    assert 'name="form-4-title"' in html
    assert classroom.rubrics.get().criteria.count() == 4


def test_rubric_editor_redirects_to_a_safe_next_only(teacher_client, classroom, open_session):
    url = reverse("games:rubric_edit", args=[classroom.pk])
    teacher_client.get(url)
    back = assessments_url(open_session)
    response = teacher_client.post(url, rubric_post(DEFAULT_ROWS, next=back))
    assert response["Location"] == back
    response = teacher_client.post(url, rubric_post(DEFAULT_ROWS, next="https://evil.test/"))
    assert response["Location"] == url


def test_pages_show_the_default_rubric_without_saving_one(teacher_client, classroom, open_session):
    editor = teacher_client.get(reverse("games:rubric_edit", args=[classroom.pk])).content.decode()
    page = teacher_client.get(assessments_url(open_session)).content.decode()
    assert 'value="Said clearly"' in editor
    assert "Rubric (version 1)" in page
    assert not classroom.rubrics.exists()
