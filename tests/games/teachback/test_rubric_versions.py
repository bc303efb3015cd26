"""The class rubric: default version 1, edited in place while unused, a new version once used;
scores keep the version they were given under."""

import pytest

from classroom.services import ServiceError
from games.models import CriterionScore, Rubric, RubricCriterion
from games.teachback import services
from games.teachback.rubrics import DEFAULT_CRITERIA, rubric_for_class, rubric_update
from tests.games.conftest import (
    GOOD_SENTENCE,
    make_table,
)


def rows_of(rubric):
    return [
        {
            "key": c.key,
            "title": c.title,
            "description": c.description,
            "max_score": c.max_score,
            "optional": c.optional,
        }
        for c in rubric.criteria.order_by("position")
    ]


@pytest.fixture
def assessed(open_session, students, device_client, teacher):
    """A sentence assessed under the class's version 1."""
    finished = make_table(open_session, students)
    binding = device_client(open_session, finished.members[0]).binding
    teachback = services.teachback_submit(
        team=finished.teams[0], fields=GOOD_SENTENCE, by_device=binding
    )
    services.assessment_save(
        teachback=teachback,
        scores={"complete": 3, "right_jobs": 2, "mission_link": 1, "said_clearly": None},
        comment="Good",
        by=teacher,
    )
    return teachback


def test_first_use_creates_version_1_with_the_four_default_criteria(classroom):
    rubric = rubric_for_class(classroom)
    assert rubric.version == 1
    criteria = list(rubric.criteria.order_by("position"))
    assert [c.title for c in criteria] == ["Complete", "Right jobs", "Mission link", "Said clearly"]
    assert [c.max_score for c in criteria] == [3, 3, 3, 3]
    assert [c.optional for c in criteria] == [False, False, False, True]
    assert len(DEFAULT_CRITERIA) == 4


def test_second_use_returns_the_same_version(classroom):
    assert rubric_for_class(classroom).pk == rubric_for_class(classroom).pk
    assert Rubric.objects.filter(classroom=classroom).count() == 1


def test_each_class_has_its_own_rubric(classroom, teacher, school):
    from classroom.models import Classroom

    other = Classroom.objects.create(school=school, teacher=teacher, name="Room 14")
    assert rubric_for_class(classroom).pk != rubric_for_class(other).pk


def test_editing_an_unused_rubric_edits_it_in_place(classroom, teacher):
    rubric = rubric_for_class(classroom)
    rows = rows_of(rubric)
    rows[0]["title"] = "All blanks filled"
    rows[1]["max_score"] = 5
    saved = rubric_update(classroom=classroom, criteria=rows, by=teacher)
    assert saved.pk == rubric.pk
    assert saved.version == 1
    assert Rubric.objects.filter(classroom=classroom).count() == 1
    titles = list(rubric.criteria.order_by("position").values_list("title", "max_score"))
    assert titles[0] == ("All blanks filled", 3)
    assert titles[1] == ("Right jobs", 5)


def test_editing_a_used_rubric_makes_a_new_version_and_scores_keep_theirs(
    classroom, teacher, assessed
):
    v1 = rubric_for_class(classroom)
    rows = rows_of(v1)
    rows.append({"title": "Drew the bot", "description": "", "max_score": 2, "optional": True})
    saved = rubric_update(classroom=classroom, criteria=rows, by=teacher)
    assert saved.version == 2
    assert saved.created_by == teacher
    assert rubric_for_class(classroom).pk == saved.pk
    assert v1.criteria.count() == 4  # the used version is unchanged
    assert saved.criteria.count() == 5
    assessed.assessment.refresh_from_db()
    assert assessed.assessment.rubric_id == v1.pk
    assert set(
        CriterionScore.objects.filter(assessment=assessed.assessment).values_list(
            "criterion__rubric__version", flat=True
        )
    ) == {1}


def test_a_new_version_keeps_the_standard_codes_of_each_kept_criterion(
    classroom, teacher, assessed
):
    v1 = rubric_for_class(classroom)
    complete = v1.criteria.get(key="complete")
    complete.standards = ["1A-AP-15"]
    complete.save(update_fields=["standards"])
    rows = rows_of(v1)
    rows.append({"title": "Drew the bot", "description": "", "max_score": 2, "optional": True})
    saved = rubric_update(classroom=classroom, criteria=rows, by=teacher)
    assert saved.version == 2
    assert saved.criteria.get(key="complete").standards == ["1A-AP-15"]
    assert saved.criteria.get(key="drew_the_bot").standards == []


def test_saving_an_unchanged_rubric_makes_no_new_version(classroom, teacher, assessed):
    v1 = rubric_for_class(classroom)
    assert rubric_update(classroom=classroom, criteria=rows_of(v1), by=teacher).pk == v1.pk
    assert Rubric.objects.filter(classroom=classroom).count() == 1


def test_a_new_version_keeps_criterion_keys_so_reports_can_follow_them(
    classroom, teacher, assessed
):
    rows = rows_of(rubric_for_class(classroom))
    rows[2]["title"] = "Explains the Mission"
    saved = rubric_update(classroom=classroom, criteria=rows, by=teacher)
    keys = list(saved.criteria.order_by("position").values_list("key", flat=True))
    assert keys == ["complete", "right_jobs", "mission_link", "said_clearly"]


def test_reordering_and_removing_criteria(classroom, teacher):
    rows = rows_of(rubric_for_class(classroom))
    saved = rubric_update(classroom=classroom, criteria=[rows[2], rows[0]], by=teacher)
    assert list(saved.criteria.order_by("position").values_list("key", flat=True)) == [
        "mission_link",
        "complete",
    ]


def test_a_new_criterion_gets_a_key_from_its_title(classroom, teacher):
    rows = rows_of(rubric_for_class(classroom))
    rows.append({"title": "Used new words!", "max_score": 3})
    saved = rubric_update(classroom=classroom, criteria=rows, by=teacher)
    assert saved.criteria.get(position=5).key == "used_new_words"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"title": ""}, "needs a title"),
        ({"title": "x" * 81}, "longer than 80"),
        ({"description": "x" * 301}, "longer than 300"),
        ({"max_score": 0}, "from 1 to 5"),
        ({"max_score": 6}, "from 1 to 5"),
        ({"max_score": "three"}, "from 1 to 5"),
        ({"title": "right JOBS"}, "Two criteria"),
    ],
)
def test_bad_rows_are_refused_and_the_rubric_is_unchanged(classroom, teacher, change, message):
    rubric = rubric_for_class(classroom)
    rows = rows_of(rubric)
    rows[0].update(change)
    with pytest.raises(ServiceError, match=message):
        rubric_update(classroom=classroom, criteria=rows, by=teacher)
    assert list(rubric.criteria.order_by("position").values_list("title", flat=True)) == [
        "Complete",
        "Right jobs",
        "Mission link",
        "Said clearly",
    ]


def test_an_empty_rubric_is_refused(classroom, teacher):
    with pytest.raises(ServiceError, match="at least one"):
        rubric_update(classroom=classroom, criteria=[], by=teacher)


def test_only_the_class_teacher_can_edit_the_rubric(classroom, colleague, school_admin):
    rows = rows_of(rubric_for_class(classroom))
    rows[0]["title"] = "Changed"
    for user in (colleague, school_admin):
        with pytest.raises(ServiceError, match="Only the class's teacher"):
            rubric_update(classroom=classroom, criteria=rows, by=user)
    assert not RubricCriterion.objects.filter(title="Changed").exists()
