"""Classes and their rosters."""

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from classroom.access import is_class_teacher
from classroom.models import Classroom, Session, SessionStatus, Student, User
from classroom.roster import RosterEntry, duplicate_problems
from classroom.services.errors import ServiceError
from classroom.services.teams import drop_empty_teams
from classroom.validators import normalise_name


def _require_owner(classroom: Classroom, by: User) -> None:
    if not is_class_teacher(by, classroom):
        raise ServiceError(gettext("Only the class's teacher can change it."))


def _validation_message(exc: ValidationError) -> str:
    return " ".join(exc.messages)


def class_create(*, by: User, name: str, grade: str = "", school_year: str = "") -> Classroom:
    if not by.is_teacher:
        raise ServiceError(gettext("Only teachers can create classes."))
    classroom = Classroom(
        school_id=by.school_id,
        teacher=by,
        name=name.strip(),
        grade=grade.strip(),
        school_year=school_year.strip(),
    )
    try:
        classroom.full_clean()
    except ValidationError as exc:
        raise ServiceError(_validation_message(exc)) from None
    classroom.save()
    return classroom


def class_update(
    *, classroom: Classroom, by: User, name: str, grade: str = "", school_year: str = ""
) -> Classroom:
    _require_owner(classroom, by)
    classroom.name, classroom.grade, classroom.school_year = (
        name.strip(),
        grade.strip(),
        school_year.strip(),
    )
    try:
        classroom.full_clean()
    except ValidationError as exc:
        raise ServiceError(_validation_message(exc)) from None
    classroom.save(update_fields=["name", "grade", "school_year"])
    return classroom


def class_archive(*, classroom: Classroom, by: User) -> Classroom:
    """Hide the class from the dashboard and refuse new sessions; nothing is deleted."""
    _require_owner(classroom, by)
    Classroom.objects.filter(pk=classroom.pk, archived_at__isnull=True).update(
        archived_at=timezone.now()
    )
    classroom.refresh_from_db(fields=["archived_at"])
    return classroom


def class_unarchive(*, classroom: Classroom, by: User) -> Classroom:
    _require_owner(classroom, by)
    Classroom.objects.filter(pk=classroom.pk).update(archived_at=None)
    classroom.refresh_from_db(fields=["archived_at"])
    return classroom


def class_delete(*, classroom: Classroom, by: User) -> None:
    """Delete the class and everything about its students: roster, sessions, teams, devices
    and, by cascade, the games' data."""
    _require_owner(classroom, by)
    with transaction.atomic():
        locked = Classroom.objects.select_for_update().filter(pk=classroom.pk).first()
        if locked is None:
            return  # already deleted by a repeated request
        # Sessions first: their assessments protect the class's rubrics from a one-step
        # cascade, so they must be gone before the class (and its rubrics) is deleted.
        for session in locked.sessions.all():
            session.delete()
        locked.delete()


@transaction.atomic
def roster_add(*, classroom: Classroom, entries: Sequence[RosterEntry], by: User) -> list[Student]:
    """Add students; all of them or, if any name is refused, none."""
    _require_owner(classroom, by)
    # Lock the class so two uploads at once cannot both pass the duplicate check.
    Classroom.objects.select_for_update().filter(pk=classroom.pk).first()
    existing = classroom.students.values_list("name", flat=True)
    problems = duplicate_problems(entries, existing)
    if problems:
        raise ServiceError(" ".join(problems))
    students = [
        Student(classroom=classroom, name=normalise_name(entry.name), birth_month=entry.birth_month)
        for entry in entries
    ]
    for student in students:
        try:
            student.full_clean(validate_constraints=False)
        except ValidationError as exc:
            raise ServiceError(f"{student.name}: {_validation_message(exc)}") from None
    try:
        with transaction.atomic():
            return Student.objects.bulk_create(students)
    except IntegrityError:
        raise ServiceError(gettext("One of these names is already in this class.")) from None


def student_update(*, student: Student, by: User, name: str, birth_month: str = "") -> Student:
    _require_owner(student.classroom, by)
    student.name = normalise_name(name)
    student.birth_month = birth_month.strip()
    if not student.name:
        raise ServiceError(gettext("The name is empty."))
    try:
        student.full_clean()
    except ValidationError as exc:
        raise ServiceError(_validation_message(exc)) from None
    try:
        with transaction.atomic():
            student.save(update_fields=["name", "birth_month"])
    except IntegrityError:
        raise ServiceError(gettext("This class already has a student with that name.")) from None
    return student


def student_delete(*, student: Student, by: User) -> None:
    """Remove a student and everything about them (memberships, devices)."""
    _require_owner(student.classroom, by)
    with transaction.atomic():
        sessions = list(
            Session.objects.filter(
                teams__memberships__student=student,
                status__in=[SessionStatus.DRAFT, SessionStatus.OPEN],
            ).distinct()
        )
        Student.objects.filter(pk=student.pk).delete()
        for session in sessions:
            drop_empty_teams(session)
