"""Every write to classroom models goes through a function here: keyword-only arguments,
validated with full_clean(), inside one transaction."""

from django.db import IntegrityError, transaction
from django.utils import timezone

from classroom.models import (
    DeviceBinding,
    Role,
    School,
    Session,
    SessionStatus,
    Student,
    User,
)
from classroom.models.sessions import generate_room_code


@transaction.atomic
def teacher_signup(*, email: str, password: str, display_name: str, school_name: str) -> User:
    """A teacher who signs up on their own starts a new school of which they are the teacher."""
    school = School(name=school_name.strip())
    school.full_clean()
    school.save()
    user = User(
        email=User.objects.normalize_email(email).lower(),
        display_name=display_name.strip(),
        school=school,
        role=Role.TEACHER,
    )
    user.set_password(password)
    user.full_clean(exclude=["password"])
    user.save()
    return user


class ServiceError(Exception):
    """A request the rules refuse; the message is shown to the person as it is."""


_ROOM_CODE_ATTEMPTS = 20


def session_open(*, session: Session, by: User) -> Session:
    """Open a session for joining: give it a fresh room code, unique among open sessions."""
    if session.classroom.teacher_id != by.pk:
        raise ServiceError("Only the class's teacher can open this session.")
    if session.status == SessionStatus.CLOSED:
        raise ServiceError("This session is closed. Create a new session for another lesson.")
    if session.room_code:
        return session
    for _ in range(_ROOM_CODE_ATTEMPTS):
        try:
            with transaction.atomic():
                locked = Session.objects.select_for_update().get(pk=session.pk)
                if locked.room_code:  # opened meanwhile by a repeated request
                    return locked
                locked.room_code = generate_room_code()
                locked.status = SessionStatus.OPEN
                locked.opened_at = locked.opened_at or timezone.now()
                locked.save(update_fields=["room_code", "status", "opened_at"])
                return locked
        except IntegrityError:
            continue  # the code is in use by another open session: draw another
    raise ServiceError("Could not find a free room code. Try again in a moment.")


def session_close(*, session: Session, by: User) -> Session:
    if session.classroom.teacher_id != by.pk:
        raise ServiceError("Only the class's teacher can close this session.")
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if locked.status != SessionStatus.CLOSED:
            locked.status = SessionStatus.CLOSED
            locked.room_code = None
            locked.closed_at = timezone.now()
            locked.save(update_fields=["status", "room_code", "closed_at"])
        DeviceBinding.objects.filter(session=locked, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    return locked


def device_join(
    *, session: Session, student: Student, current: DeviceBinding | None = None
) -> DeviceBinding:
    """Bind a device to `student` in `session`.

    `current` is the binding this device already holds, if any: choosing the same student again
    returns it unchanged (a reload or a repeated tap), and a binding to any other session or
    student is released, since a device belongs to one session at a time.
    """
    if not session.is_joinable:
        raise ServiceError("This session is not open for joining. Ask your teacher for the code.")
    if student.classroom_id != session.classroom_id:
        raise ServiceError("That name is not on this class's list.")
    already_this = (
        current is not None
        and current.is_active
        and current.session_id == session.pk
        and current.student_id == student.pk
    )
    if already_this:
        return current
    try:
        with transaction.atomic():
            if current is not None and current.is_active:
                DeviceBinding.objects.filter(pk=current.pk).update(revoked_at=timezone.now())
            return DeviceBinding.objects.create(session=session, student=student)
    except IntegrityError:
        raise ServiceError(
            f"{student.name} has already joined on another device. "
            "If that was not you, ask your teacher to free your name."
        ) from None


def device_unbind(*, binding: DeviceBinding, by: User) -> None:
    """The teacher frees a student's name so they can join again from another device."""
    if binding.session.classroom.teacher_id != by.pk:
        raise ServiceError("Only the class's teacher can free a device.")
    DeviceBinding.objects.filter(pk=binding.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
