"""Roster sync from the LMS course (NRPS) against the real test platform: the preview says what
will change and writes nothing; applying adds new learners (given name and initial, the LMS id
only hashed), archives departed ones without deleting anybody, ignores instructors and staff;
a re-sync with nothing changed changes nothing; a roster that changed since the preview, or an
LMS that does not answer, changes nothing."""

import pytest
from django.test import Client
from django.urls import reverse

from classroom.lti import roster
from classroom.lti.people import hash_subject
from classroom.models import LtiPerson, Student
from classroom.services import ServiceError
from tests.lti.platform.store import INSTRUCTOR, LEARNER
from tests.lti.services.conftest import enrol_learner

TA = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"


def snapshot(classroom):
    students = sorted(classroom.students.values_list("pk", "name"))
    people = sorted(LtiPerson.objects.values_list("pk", "sub_hash", "student_id", "departed_at"))
    return students, people


def test_preview_lists_new_learners_by_given_name_and_initial_and_writes_nothing(lms, classroom):
    enrol_learner(lms, "Maya", "Robinson")
    enrol_learner(lms, "Leo", "de la Cruz")
    helper = lms.store.add_person("Tom", "Baker", TA)
    lms.store.enrol(lms.course, helper)
    before = snapshot(classroom)
    changes = roster.roster_preview(course=lms.lti_course)
    assert [a.name for a in changes.arrivals] == ["Leo D.", "Maya R."]
    assert changes.departures == [] and changes.returns == []
    # Alice (instructor, already a teacher of the course) and the teaching assistant.
    assert changes.staff == 2
    assert changes.typed_by_hand == 8
    assert snapshot(classroom) == before


def test_apply_adds_learners_keeping_only_given_name_initial_and_hashed_id(lms, classroom, teacher):
    maya = enrol_learner(lms, "Maya", "Robinson")
    preview = roster.roster_preview(course=lms.lti_course)
    roster.roster_apply(course=lms.lti_course, by=teacher, fingerprint=preview.fingerprint)
    student = Student.objects.get(classroom=classroom, name="Maya R.")
    person = LtiPerson.objects.get(student=student)
    assert person.sub_hash == hash_subject(lms.platform, maya.id) != maya.id
    assert person.course == lms.lti_course and person.departed_at is None
    # Nothing else of the LMS's record is kept: no family name, no e-mail, no raw id.
    stored = " ".join(str(v) for v in Student.objects.filter(pk=student.pk).values().get().values())
    assert "Robinson" not in stored and "@" not in stored and maya.id not in stored
    assert classroom.students.count() == 9


def test_a_resync_with_nothing_changed_changes_nothing(lms, classroom, teacher):
    enrol_learner(lms, "Maya", "Robinson")
    enrol_learner(lms, "Sam", "Kim")
    first = roster.roster_preview(course=lms.lti_course)
    roster.roster_apply(course=lms.lti_course, by=teacher, fingerprint=first.fingerprint)
    after_first = snapshot(classroom)
    again = roster.roster_preview(course=lms.lti_course)
    assert again.is_empty and again.unchanged == 2
    applied = roster.roster_apply(course=lms.lti_course, by=teacher, fingerprint=again.fingerprint)
    assert applied.is_empty
    assert snapshot(classroom) == after_first


def test_departed_learners_are_archived_never_deleted_and_come_back(lms, classroom, teacher):
    maya = enrol_learner(lms, "Maya", "Robinson")
    sam = enrol_learner(lms, "Sam", "Kim")
    preview = roster.roster_preview(course=lms.lti_course)
    roster.roster_apply(course=lms.lti_course, by=teacher, fingerprint=preview.fingerprint)
    lms.store.unenrol(lms.course, maya)
    lms.store.enrol(lms.course, sam, status="Inactive")
    preview = roster.roster_preview(course=lms.lti_course)
    assert sorted(c.name for c in preview.departures) == ["Maya R.", "Sam K."]
    assert preview.arrivals == []
    roster.roster_apply(course=lms.lti_course, by=teacher, fingerprint=preview.fingerprint)
    assert classroom.students.filter(name__in=["Maya R.", "Sam K."]).count() == 2
    departed = LtiPerson.objects.filter(student__classroom=classroom, departed_at__isnull=False)
    assert departed.count() == 2
    # The class page marks them.
    client = Client()
    client.force_login(teacher)
    page = client.get(classroom.get_absolute_url()).content.decode()
    assert page.count("Left the LMS course") == 2
    # Maya enrols again: she comes back from the archive, not as a new student.
    lms.store.enrol(lms.course, maya)
    preview = roster.roster_preview(course=lms.lti_course)
    assert [c.name for c in preview.returns] == ["Maya R."] and preview.arrivals == []
    roster.roster_apply(course=lms.lti_course, by=teacher, fingerprint=preview.fingerprint)
    assert LtiPerson.objects.get(student__name="Maya R.").departed_at is None
    assert classroom.students.count() == 10


def test_learners_with_the_same_name_and_initial_get_told_apart(lms, classroom, teacher):
    enrol_learner(lms, "Sam", "Kim")
    enrol_learner(lms, "Sam", "Khan")
    enrol_learner(lms, "Ava", "")  # "Ava" is already on the roster, typed by hand
    preview = roster.roster_preview(course=lms.lti_course)
    assert sorted(a.name for a in preview.arrivals) == ["Ava 2", "Sam K.", "Sam K. 2"]
    roster.roster_apply(course=lms.lti_course, by=teacher, fingerprint=preview.fingerprint)
    assert classroom.students.filter(name__startswith="Sam K.").count() == 2


def test_someone_both_learner_and_instructor_is_not_a_student(lms, classroom):
    both = lms.store.add_person("Pat", "Lee", LEARNER, INSTRUCTOR)
    lms.store.enrol(lms.course, both)
    preview = roster.roster_preview(course=lms.lti_course)
    assert preview.arrivals == [] and preview.staff == 2


def test_apply_refuses_a_preview_the_course_no_longer_matches(lms, classroom, teacher):
    enrol_learner(lms, "Maya", "Robinson")
    preview = roster.roster_preview(course=lms.lti_course)
    enrol_learner(lms, "Sam", "Kim")
    before = snapshot(classroom)
    with pytest.raises(ServiceError, match="changed since you looked"):
        roster.roster_apply(course=lms.lti_course, by=teacher, fingerprint=preview.fingerprint)
    assert snapshot(classroom) == before


def test_an_lms_that_does_not_answer_changes_nothing(
    own_platform, lms, classroom, teacher, settings
):
    settings.LTI_SERVICE_TIMEOUT_SECONDS = 1.0
    enrol_learner(lms, "Maya", "Robinson")
    preview = roster.roster_preview(course=lms.lti_course)
    lms.server.stop()
    before = snapshot(classroom)
    with pytest.raises(ServiceError, match="did not answer"):
        roster.roster_apply(course=lms.lti_course, by=teacher, fingerprint=preview.fingerprint)
    assert snapshot(classroom) == before


def test_only_the_class_teacher_applies(lms, classroom, school_admin):
    enrol_learner(lms, "Maya", "Robinson")
    preview = roster.roster_preview(course=lms.lti_course)
    with pytest.raises(ServiceError):
        roster.roster_apply(course=lms.lti_course, by=school_admin, fingerprint=preview.fingerprint)
    assert not classroom.students.filter(name="Maya R.").exists()


def test_the_page_previews_then_applies(lms, classroom, teacher_client):
    enrol_learner(lms, "Maya", "Robinson")
    url = reverse("lti:roster", args=[classroom.pk])
    page = teacher_client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Maya R." in text and "Robinson" not in text and "Make these changes" in text
    assert not classroom.students.filter(name="Maya R.").exists()
    fingerprint = page.context["changes"].fingerprint
    done = teacher_client.post(url, {"fingerprint": fingerprint})
    assert done.status_code == 302 and done["Location"] == classroom.get_absolute_url()
    assert classroom.students.filter(name="Maya R.").exists()
    # The class page offers the sync; a stale or forged fingerprint changes nothing.
    assert url in teacher_client.get(classroom.get_absolute_url()).content.decode()
    enrol_learner(lms, "Sam", "Kim")
    refused = teacher_client.post(url, {"fingerprint": "forged"})
    assert refused.status_code == 400 and "changed since you looked" in refused.content.decode()
    assert not classroom.students.filter(name="Sam K.").exists()


def test_the_page_says_so_when_the_lms_does_not_answer(
    own_platform, lms, classroom, teacher_client, settings
):
    settings.LTI_SERVICE_TIMEOUT_SECONDS = 1.0
    lms.server.stop()
    page = teacher_client.get(reverse("lti:roster", args=[classroom.pk]))
    assert page.status_code == 200 and "did not answer" in page.content.decode()


def test_a_class_without_an_lms_course_has_no_sync(classroom, teacher_client):
    assert teacher_client.get(reverse("lti:roster", args=[classroom.pk])).status_code == 404
