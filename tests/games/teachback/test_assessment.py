"""The teacher scores a sentence with the class rubric: validation, re-saving, constraints."""

import pytest
from django.db import IntegrityError, transaction

from classroom.services import ServiceError
from games.models import Assessment, CriterionScore
from games.teachback import services
from games.teachback.rubrics import rubric_for_class, rubric_update
from games.teachback.selectors import rubric_averages, teachbacks_for_session
from tests.games.conftest import (
    GOOD_SENTENCE,
    make_table,
)

GOOD_SCORES = {"complete": 3, "right_jobs": 2, "mission_link": 1, "said_clearly": 0}


@pytest.fixture
def teachbacks(open_session, students, device_client):
    finished = make_table(open_session, students, teams=3)
    made = []
    for team, member in zip(finished.teams, finished.members, strict=True):
        binding = device_client(open_session, member).binding
        made.append(services.teachback_submit(team=team, fields=GOOD_SENTENCE, by_device=binding))
    return made


@pytest.fixture
def teachback(teachbacks):
    return teachbacks[0]


def stored_scores(teachback):
    return dict(
        CriterionScore.objects.filter(assessment__teachback=teachback).values_list(
            "criterion__key", "score"
        )
    )


def test_saving_stores_one_row_per_criterion_under_the_current_version(teachback, teacher):
    services.assessment_save(teachback=teachback, scores=GOOD_SCORES, comment=" Nice ", by=teacher)
    assessment = Assessment.objects.get(teachback=teachback)
    assert assessment.rubric.version == 1
    assert assessment.comment == "Nice"
    assert assessment.assessed_by == teacher
    assert stored_scores(teachback) == GOOD_SCORES


def test_an_optional_criterion_may_be_skipped(teachback, teacher):
    services.assessment_save(
        teachback=teachback, scores={**GOOD_SCORES, "said_clearly": "skip"}, comment="", by=teacher
    )
    assert stored_scores(teachback)["said_clearly"] is None


def test_scores_sent_as_text_from_a_form_are_accepted(teachback, teacher):
    scores = {"complete": "3", "right_jobs": "0", "mission_link": "2", "said_clearly": ""}
    services.assessment_save(teachback=teachback, scores=scores, comment="", by=teacher)
    assert stored_scores(teachback) == {
        "complete": 3,
        "right_jobs": 0,
        "mission_link": 2,
        "said_clearly": None,
    }


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"complete": 4}, "“Complete” must be from 0 to 3"),
        ({"right_jobs": -1}, "“Right jobs” must be from 0 to 3"),
        ({"mission_link": "lots"}, "“Mission link” must be from 0 to 3"),
        ({"mission_link": True}, "“Mission link” must be from 0 to 3"),
        ({"said_clearly": 9}, "“Said clearly” must be from 0 to 3"),
        ({"complete": None}, "Choose a score for “Complete”"),
        ({"right_jobs": "skip"}, "Choose a score for “Right jobs”"),
        ({"unknown": 1}, "not in this rubric"),
    ],
)
def test_bad_scores_are_refused_and_nothing_is_stored(teachback, teacher, change, message):
    with pytest.raises(ServiceError, match=message):
        services.assessment_save(
            teachback=teachback, scores={**GOOD_SCORES, **change}, comment="", by=teacher
        )
    assert not Assessment.objects.filter(teachback=teachback).exists()
    assert not CriterionScore.objects.exists()


def test_a_missing_required_score_is_refused(teachback, teacher):
    scores = {key: value for key, value in GOOD_SCORES.items() if key != "mission_link"}
    with pytest.raises(ServiceError, match="Choose a score for “Mission link”"):
        services.assessment_save(teachback=teachback, scores=scores, comment="", by=teacher)


def test_a_refused_resave_keeps_the_earlier_assessment(teachback, teacher):
    services.assessment_save(teachback=teachback, scores=GOOD_SCORES, comment="first", by=teacher)
    with pytest.raises(ServiceError):
        services.assessment_save(
            teachback=teachback, scores={**GOOD_SCORES, "complete": 7}, comment="x", by=teacher
        )
    assert Assessment.objects.get(teachback=teachback).comment == "first"
    assert stored_scores(teachback) == GOOD_SCORES


def test_a_too_long_comment_is_refused(teachback, teacher):
    with pytest.raises(ServiceError, match="at most 1000"):
        services.assessment_save(
            teachback=teachback, scores=GOOD_SCORES, comment="x" * 1001, by=teacher
        )
    assert not Assessment.objects.exists()


def test_resaving_updates_the_same_rows_instead_of_adding(teachback, teacher):
    services.assessment_save(teachback=teachback, scores=GOOD_SCORES, comment="a", by=teacher)
    services.assessment_save(
        teachback=teachback, scores={**GOOD_SCORES, "complete": 1}, comment="b", by=teacher
    )
    assert Assessment.objects.filter(teachback=teachback).count() == 1
    assert CriterionScore.objects.count() == 4
    assert stored_scores(teachback)["complete"] == 1
    assert Assessment.objects.get(teachback=teachback).comment == "b"


def test_only_the_class_teacher_can_assess(teachback, colleague, school_admin, other_teacher):
    for user in (colleague, school_admin, other_teacher):
        with pytest.raises(ServiceError, match="Only the class's teacher"):
            services.assessment_save(teachback=teachback, scores=GOOD_SCORES, comment="", by=user)
    assert not Assessment.objects.exists()


def test_the_database_refuses_a_second_assessment_or_score_row(teachback, teacher):
    assessment = services.assessment_save(
        teachback=teachback, scores=GOOD_SCORES, comment="", by=teacher
    )
    criterion = assessment.rubric.criteria.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Assessment.objects.create(teachback=teachback, rubric=assessment.rubric)
    with pytest.raises(IntegrityError), transaction.atomic():
        CriterionScore.objects.create(assessment=assessment, criterion=criterion, score=1)
    assert CriterionScore.objects.count() == 4


def test_a_form_built_from_an_older_rubric_version_is_refused(classroom, teachback, teacher):
    rubric_for_class(classroom)
    services.assessment_save(
        teachback=teachback, scores=GOOD_SCORES, comment="", by=teacher, rubric_version=1
    )
    rows = [
        {"key": c.key, "title": c.title, "max_score": 5, "optional": c.optional}
        for c in rubric_for_class(classroom).criteria.order_by("position")
    ]
    rubric_update(classroom=classroom, criteria=rows, by=teacher)
    with pytest.raises(ServiceError, match="rubric changed"):
        services.assessment_save(
            teachback=teachback, scores=GOOD_SCORES, comment="", by=teacher, rubric_version=1
        )
    assert stored_scores(teachback) == GOOD_SCORES


def test_rescoring_after_a_new_version_moves_the_assessment_to_it(classroom, teachback, teacher):
    services.assessment_save(teachback=teachback, scores=GOOD_SCORES, comment="", by=teacher)
    rows = [
        {"key": c.key, "title": c.title, "max_score": 5, "optional": c.optional}
        for c in rubric_for_class(classroom).criteria.order_by("position")
    ]
    v2 = rubric_update(classroom=classroom, criteria=rows, by=teacher)
    services.assessment_save(
        teachback=teachback, scores={**GOOD_SCORES, "complete": 5}, comment="", by=teacher
    )
    assessment = Assessment.objects.get(teachback=teachback)
    assert assessment.rubric_id == v2.pk
    assert set(assessment.scores.values_list("criterion__rubric_id", flat=True)) == {v2.pk}
    assert stored_scores(teachback)["complete"] == 5


def test_selectors_list_sentences_in_table_order_with_scores(
    open_session, teachbacks, teacher, django_assert_max_num_queries
):
    for teachback in teachbacks:
        services.assessment_save(teachback=teachback, scores=GOOD_SCORES, comment="", by=teacher)
    with django_assert_max_num_queries(5):
        rows = list(teachbacks_for_session(open_session))
        scores = [[s.score for s in tb.assessment.scores.all()] for tb in rows]
        titles = [[c.title for c in tb.assessment.rubric.criteria.all()] for tb in rows]
    assert [tb.team.number for tb in rows] == [1, 2, 3]
    assert scores == [[3, 2, 1, 0]] * 3
    assert titles[0][0] == "Complete"


def test_rubric_averages_per_criterion_ignore_skipped(teachbacks, teacher):
    services.assessment_save(teachback=teachbacks[0], scores=GOOD_SCORES, comment="", by=teacher)
    services.assessment_save(
        teachback=teachbacks[1],
        scores={"complete": 2, "right_jobs": 2, "mission_link": 3, "said_clearly": None},
        comment="",
        by=teacher,
    )
    averages = {row["key"]: row for row in rubric_averages(Assessment.objects.all())}
    assert averages["complete"]["average"] == pytest.approx(2.5)
    assert averages["complete"]["fraction"] == pytest.approx(2.5 / 3)
    assert averages["mission_link"]["average"] == pytest.approx(2.0)
    assert averages["said_clearly"]["count"] == 1
    assert [row["title"] for row in rubric_averages(Assessment.objects.all())] == [
        "Complete",
        "Right jobs",
        "Mission link",
        "Said clearly",
    ]
