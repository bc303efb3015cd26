"""Standards alignment: the school picks codes from the shipped list (codes and links only),
criteria and games carry codes, and the class and student reports group results by them."""

import pytest
from django.urls import reverse

from classroom.services import ServiceError
from games.models import RubricCriterion
from reports.models import SchoolStandards
from reports.selectors.standards import by_standard, picked
from reports.services.standards import school_standards_set
from reports.standards import BY_CODE, STANDARDS, criterion_codes
from tests.reports.insights_world import plant_class


@pytest.fixture
def planted(classroom):
    return plant_class(classroom)


def test_every_shipped_standard_has_a_link_and_no_words():
    for standard in STANDARDS:
        assert standard.url.startswith("https://")
        assert standard.framework in ("CSTA", "NGSS")
    assert {"1A-CS-01", "1B-CS-01", "2-CS-02", "4-LS1-2", "K-2-ETS1-2"} <= set(BY_CODE)


def test_a_criterion_own_codes_win_over_its_key_default():
    assert criterion_codes("right_jobs", []) == ["1A-CS-02", "1B-CS-01", "4-LS1-2"]
    assert criterion_codes("right_jobs", ["2-CS-02", "not-a-code"]) == ["2-CS-02"]
    assert criterion_codes("own_words", None) == []


def test_only_the_school_administrator_picks_and_only_known_codes(school, teacher, school_admin):
    with pytest.raises(ServiceError):
        school_standards_set(school=school, codes=["1A-CS-02"], by=teacher)
    with pytest.raises(ServiceError):
        school_standards_set(school=school, codes=["XX-99"], by=school_admin)
    assert not SchoolStandards.objects.exists()
    school_standards_set(school=school, codes=["4-LS1-2", "1A-CS-02"], by=school_admin)
    assert [s.code for s in picked(school)] == ["1A-CS-02", "4-LS1-2"]


def test_class_results_group_by_the_picked_standards(planted, school_admin):
    results = {r.standard.code: r for r in by_standard(planted.classroom)}
    right_jobs = results["1B-CS-01"]
    assert right_jobs.criteria == ["Right jobs"]
    assert right_jobs.scores == planted.first_count + planted.second_count
    assert results["1A-AP-08"].sessions == 1 and results["1A-AP-08"].criteria == []
    assert results["4-LS1-2"].sessions == 2
    school_standards_set(school=planted.classroom.school, codes=["2-CS-02"], by=school_admin)
    (only,) = by_standard(planted.classroom)
    assert only.standard.code == "2-CS-02"
    assert only.criteria == ["Mission link", "Link to the Mission"]


def test_a_criterion_with_its_own_codes_is_counted_under_them(planted):
    RubricCriterion.objects.filter(key="complete").update(standards=["3-5-ETS1-1"])
    results = {r.standard.code: r for r in by_standard(planted.classroom)}
    assert results["3-5-ETS1-1"].criteria == ["Complete"]
    assert "Complete" not in results["1A-CS-02"].criteria


def test_class_and_student_pages_show_results_by_standard(teacher_client, planted):
    page = teacher_client.get(reverse("reports:class_progress", args=[planted.classroom.pk]))
    assert "Results by standard" in page.content.decode()
    assert "CSTA 1B-CS-01" in page.content.decode()
    student = planted.classroom.students.order_by("pk").first()
    page = teacher_client.get(reverse("reports:student_progress", args=[student.pk]))
    html = page.content.decode()
    assert "Results by standard" in html and "Progress on the rubric" in html


def test_administrator_saves_the_pick_on_the_standards_page(school_admin_client, planted):
    url = reverse("reports:standards")
    assert school_admin_client.get(url).status_code == 200
    response = school_admin_client.post(url, {"codes": ["4-LS1-2", "2-CS-02"]})
    assert response.status_code == 302
    row = SchoolStandards.objects.get(school=planted.classroom.school)
    assert row.codes == ["2-CS-02", "4-LS1-2"]
    assert school_admin_client.post(url, {"codes": ["nope"]}).status_code == 400
    row.refresh_from_db()
    assert row.codes == ["2-CS-02", "4-LS1-2"]


# -- picking the codes of a criterion (the class's teacher) and of a game (the administrator) --


def _codes_of(classroom):
    from games.teachback.rubrics import current_rubric

    rubric = current_rubric(classroom)
    return rubric.version, {c.key: c.standards for c in rubric.criteria.all()}


def test_teacher_picks_the_codes_of_one_criterion_on_the_class_page(teacher_client, planted):
    classroom = planted.classroom
    version, before = _codes_of(classroom)
    scores_before = {r.standard.code: r.scores for r in by_standard(classroom)}
    url = reverse("reports:class_standards", args=[classroom.pk])
    html = teacher_client.get(url).content.decode()
    assert "Link to the Mission" in html and 'name="codes" value="2-CS-02" checked' in html
    response = teacher_client.post(
        url, {"criterion": "complete", "version": version, "codes": ["4-LS1-2", "1B-CS-01"]}
    )
    assert response.status_code == 302
    after_version, after = _codes_of(classroom)
    # Codes are not scoring: the used version changes in place, no new version.
    assert after_version == version
    assert after["complete"] == ["1B-CS-01", "4-LS1-2"]
    assert {k: v for k, v in after.items() if k != "complete"} == {
        k: v for k, v in before.items() if k != "complete"
    }
    results = {r.standard.code: r for r in by_standard(classroom)}
    # Only the current version's scores move: version 1's "Complete" keeps its default code.
    assert "Complete" in results["4-LS1-2"].criteria
    assert results["4-LS1-2"].scores == scores_before["4-LS1-2"] + planted.second_count
    assert results["1A-CS-02"].scores == scores_before["1A-CS-02"] - planted.second_count


@pytest.mark.parametrize(
    ("posted", "message"),
    [
        ({"criterion": "complete", "codes": ["1B-CS-01", "XX-99"]}, "XX-99 is not on the list"),
        ({"criterion": "drew_the_bot", "codes": ["1B-CS-01"]}, "not in this class"),
        ({"criterion": "complete", "version": "1", "codes": ["1B-CS-01"]}, "rubric changed"),
    ],
    ids=["unknown code", "criterion of another rubric", "stale version"],
)
def test_bad_criterion_pick_says_why_and_changes_nothing(teacher_client, planted, posted, message):
    classroom = planted.classroom
    version, before = _codes_of(classroom)
    data = {"version": version, **posted}
    response = teacher_client.post(reverse("reports:class_standards", args=[classroom.pk]), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert _codes_of(classroom) == (version, before)


def test_criterion_of_another_school_cannot_be_given_codes(
    other_teacher_client, other_teacher, planted, school_admin_client
):
    from classroom.models import Classroom
    from games.teachback.rubrics import rubric_for_class

    classroom = planted.classroom
    version, before = _codes_of(classroom)
    url = reverse("reports:class_standards", args=[classroom.pk])
    data = {"criterion": "complete", "version": version, "codes": ["4-LS1-2"]}
    # Another school's teacher does not learn the class exists; the administrator reads only.
    assert other_teacher_client.post(url, data).status_code == 404
    assert school_admin_client.post(url, data).status_code == 403
    page = school_admin_client.get(url).content.decode()
    assert 'name="codes"' not in page and "CSTA 1A-CS-02" in page
    assert _codes_of(classroom) == (version, before)
    # Their own class's page never reaches this one's criteria.
    theirs = Classroom.objects.create(
        school=other_teacher.school, teacher=other_teacher, name="Elsewhere"
    )
    rubric_for_class(theirs)
    response = other_teacher_client.post(
        reverse("reports:class_standards", args=[theirs.pk]),
        {"criterion": "link_to_the_mission", "version": 1, "codes": ["4-LS1-2"]},
    )
    assert response.status_code == 400
    assert "That criterion is not in this class" in response.content.decode()
    assert _codes_of(classroom) == (version, before)


def test_a_class_without_a_saved_rubric_gets_version_one_with_the_codes(teacher_client, classroom):
    from games.models import Rubric

    url = reverse("reports:class_standards", args=[classroom.pk])
    assert teacher_client.get(url).status_code == 200
    assert not Rubric.objects.filter(classroom=classroom).exists()
    data = {"criterion": "mission_link", "version": 1, "codes": ["3-5-ETS1-1"]}
    assert teacher_client.post(url, data).status_code == 302
    assert _codes_of(classroom)[1]["mission_link"] == ["3-5-ETS1-1"]


def test_rubric_page_links_to_the_criteria_standards(teacher_client, classroom):
    html = teacher_client.get(reverse("games:rubric_edit", args=[classroom.pk])).content.decode()
    assert reverse("reports:class_standards", args=[classroom.pk]) in html


def test_administrator_picks_the_codes_of_a_game(school_admin_client, planted):
    url = reverse("reports:standards")
    school = planted.classroom.school
    response = school_admin_client.post(url, {"game": "three_laws", "codes": ["3-5-ETS1-1"]})
    assert response.status_code == 302
    assert SchoolStandards.objects.get(school=school).games == {"three_laws": ["3-5-ETS1-1"]}
    results = {r.standard.code: r for r in by_standard(planted.classroom)}
    assert results["3-5-ETS1-1"].sessions == 1
    assert "1A-AP-08" not in results
    for bad, message in (
        ({"game": "chess", "codes": ["3-5-ETS1-1"]}, "There is no such game"),
        ({"game": "bot_builders", "codes": ["Q"]}, "Q is not on the list"),
    ):
        response = school_admin_client.post(url, bad)
        assert response.status_code == 400
        assert message in response.content.decode()
    assert SchoolStandards.objects.get(school=school).games == {"three_laws": ["3-5-ETS1-1"]}
    # Nothing ticked: the game's default codes again.
    assert school_admin_client.post(url, {"game": "three_laws"}).status_code == 302
    assert SchoolStandards.objects.get(school=school).games == {}
    assert {r.standard.code for r in by_standard(planted.classroom)} >= {"1A-AP-08"}


def test_a_teacher_cannot_pick_a_game_codes(teacher, school):
    from reports.services.standards import school_game_standards_set

    with pytest.raises(ServiceError):
        school_game_standards_set(school=school, game="three_laws", codes=["1A-CS-01"], by=teacher)
    assert not SchoolStandards.objects.exists()
