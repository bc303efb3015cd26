"""Student devices joining a session and being freed by the teacher."""

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from classroom import push
from classroom.access import is_class_teacher
from classroom.models import DeviceBinding, Session, Student, User
from classroom.services.errors import ServiceError


def device_join(
    *, session: Session, student: Student, current: DeviceBinding | None = None
) -> DeviceBinding:
    """Bind a device to `student` in `session`.

    `current` is the binding this device already holds, if any: choosing the same student again
    returns it unchanged (a reload or a repeated tap), and a binding to any other session or
    student is released, since a device belongs to one session at a time. A student who joins
    is marked present.
    """
    if not session.is_joinable:
        raise ServiceError(
            gettext("This session is not open for joining. Ask your teacher for the code.")
        )
    if student.classroom_id != session.classroom_id:
        raise ServiceError(gettext("That name is not on this class's list."))
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
                _announce_freed(current)
            binding = DeviceBinding.objects.create(session=session, student=student)
            session.present.add(student)
            transaction.on_commit(lambda: push.touch(push.lobby_topic(session.pk)))
            return binding
    except IntegrityError:
        raise ServiceError(
            gettext(
                "%(name)s has already joined on another device. If that was not you, ask your "
                "teacher to free your name."
            )
            % {"name": student.name}
        ) from None


def device_unbind(*, binding: DeviceBinding, by: User) -> None:
    """The teacher frees a student's name so they can join again from another device."""
    if not is_class_teacher(by, binding.session.classroom):
        raise ServiceError(gettext("Only the class's teacher can free a device."))
    DeviceBinding.objects.filter(pk=binding.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    _announce_freed(binding)


def _announce_freed(binding: DeviceBinding) -> None:
    """The freed device's live screens lose their streams; the lobby shows the free name."""
    binding_id, session_id = binding.pk, binding.session_id

    def notify() -> None:
        push.touch(push.binding_topic(binding_id))
        push.touch(push.lobby_topic(session_id))

    transaction.on_commit(notify)


def device_seen(*, binding: DeviceBinding) -> None:
    """Note that the device is still there (at most once a minute, to spare the database)."""
    now = timezone.now()
    if (now - binding.last_seen_at).total_seconds() >= 60:
        DeviceBinding.objects.filter(pk=binding.pk).update(last_seen_at=now)
        binding.last_seen_at = now


def device_leave(*, binding: DeviceBinding) -> None:
    """A student leaves from their own device (\"Not you?\"): the name is free again."""
    DeviceBinding.objects.filter(pk=binding.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    _announce_freed(binding)
