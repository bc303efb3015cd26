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
