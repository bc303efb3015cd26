"""Sessions (lessons): creating, presence, opening for joining, starting and closing."""

import datetime
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_

from classroom import push
from classroom.access import is_class_teacher
from classroom.language import user_language
from classroom.models import (
    Classroom,
    DeviceBinding,
    ProjectorLanguage,
    Session,
    SessionStatus,
    User,
)
from classroom.models.sessions import generate_room_code
from classroom.services.errors import ServiceError

_ROOM_CODE_ATTEMPTS = 20


def require_session_teacher(
    session: Session, by: User, doing: str = N_("run this session")
) -> None:
    """Refuse anyone but the class's teacher. `doing` is what they tried, a phrase marked with
    `gettext_noop` where it is written ("open this session"), translated here."""
    if not is_class_teacher(by, session.classroom):
        raise ServiceError(
            gettext("Only the class's teacher can %(doing)s.") % {"doing": gettext(doing)}
        )


def _clean(session: Session) -> None:
    try:
        session.full_clean()
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages)) from None


def teacher_projector_language(teacher: User) -> str:
    """The language a teacher's new session shows on the projector: their account's own
    language, else the one their pages are shown in now (their browser's), which the lobby lets
    them change. A Spanish-speaking teacher's lobby, opened right after "Open for joining", is
    then in Spanish without a step they would have to know about."""
    language = (user_language(teacher) or translation.get_language() or "").split("-")[0]
    if language in (ProjectorLanguage.ENGLISH, ProjectorLanguage.SPANISH):
        return language
    return ProjectorLanguage.ENGLISH


def session_create(
    *,
    classroom: Classroom,
    by: User,
    date: datetime.date,
    game: str,
    variant: str = "standard",
    team_size: int = 2,
    skip_first_round: bool = False,
    title: str = "",
    projector_language: str = "",
) -> Session:
    """Plan a session. `projector_language`: the teacher's pick, else
    `teacher_projector_language`."""
    if not is_class_teacher(by, classroom):
        raise ServiceError(gettext("Only the class's teacher can plan its sessions."))
    if classroom.is_archived:
        raise ServiceError(gettext("This class is archived. Unarchive it to plan a new session."))
    session = Session(
        classroom=classroom,
        date=date,
        game=game,
        variant=variant,
        team_size=team_size,
        skip_first_round=skip_first_round,
        title=title.strip(),
        projector_language=projector_language or teacher_projector_language(by),
    )
    _clean(session)
    session.save()
    return session


def session_update(
    *,
    session: Session,
    by: User,
    date: datetime.date,
    game: str,
    variant: str,
    team_size: int,
    skip_first_round: bool = False,
    title: str = "",
) -> Session:
    require_session_teacher(session, by, N_("change this session"))
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if locked.status in (SessionStatus.PLAYING, SessionStatus.CLOSED):
            raise ServiceError(gettext("The tables have started: the game can no longer change."))
        game_changed = (locked.game, locked.variant) != (game, variant)
        locked.date, locked.game, locked.variant = date, game, variant
        locked.team_size, locked.skip_first_round, locked.title = (
            team_size,
            skip_first_round,
            title.strip(),
        )
        _clean(locked)
        locked.save()
        if game_changed:
            # Seat limits depend on the game: tables made for the old one no longer fit.
            locked.tables.all().delete()
    return locked


def session_set_present(*, session: Session, student_ids: Iterable[int], by: User) -> Session:
    """Mark exactly these students present (the others absent)."""
    require_session_teacher(session, by, N_("take attendance"))
    if session.status == SessionStatus.CLOSED:
        raise ServiceError(gettext("This session is closed."))
    ids = set(student_ids)
    roster = set(session.classroom.students.values_list("pk", flat=True))
    if not ids <= roster:
        raise ServiceError(gettext("Some of those students are not in this class."))
    with transaction.atomic():
        session.present.set(ids)
    return session


def session_open(*, session: Session, by: User) -> Session:
    """Open a session for joining: give it a fresh room code, unique among open sessions."""
    require_session_teacher(session, by, N_("open this session"))
    if session.status == SessionStatus.CLOSED:
        raise ServiceError(
            gettext("This session is closed. Create a new session for another lesson.")
        )
    if session.room_code:
        return session
    for _ in range(_ROOM_CODE_ATTEMPTS):
        try:
            with transaction.atomic():
                locked = Session.objects.select_for_update().get(pk=session.pk)
                if locked.room_code:  # opened meanwhile by a repeated request
                    return locked
                if locked.status == SessionStatus.CLOSED:
                    raise ServiceError(gettext("This session is closed."))
                locked.room_code = generate_room_code()
                if locked.status == SessionStatus.DRAFT:
                    locked.status = SessionStatus.OPEN
                locked.opened_at = locked.opened_at or timezone.now()
                locked.save(update_fields=["room_code", "status", "opened_at"])
                return locked
        except IntegrityError:
            continue  # the code is in use by another open session: draw another
    raise ServiceError(gettext("Could not find a free room code. Try again in a moment."))


def session_mark_playing(*, session: Session, by: User) -> Session:
    """The tables have started (called by the games app's start-tables service). The room code
    stays valid so a late or dropped device can still join. Repeating it changes nothing."""
    require_session_teacher(session, by, N_("start the tables"))
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if locked.status == SessionStatus.CLOSED:
            raise ServiceError(gettext("This session is closed."))
        if locked.status != SessionStatus.PLAYING:
            locked.status = SessionStatus.PLAYING
            locked.started_at = locked.started_at or timezone.now()
            locked.save(update_fields=["status", "started_at"])
    return locked


def session_close(*, session: Session, by: User) -> Session:
    """End the lesson: the room code stops working and every device is released."""
    require_session_teacher(session, by, N_("close this session"))
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if locked.status != SessionStatus.CLOSED:
            locked.status = SessionStatus.CLOSED
            locked.room_code = None
            locked.closed_at = timezone.now()
            locked.save(update_fields=["status", "room_code", "closed_at"])
        live = DeviceBinding.objects.filter(session=locked, revoked_at__isnull=True)
        freed = list(live.values_list("pk", flat=True))
        live.update(revoked_at=timezone.now())
        # Their screens' streams end, as when the teacher frees one device (device_unbind).
        push.touch_after_commit(*[push.binding_topic(pk) for pk in freed])
    return locked


def session_set_projector_language(*, session: Session, language: str, by: User) -> Session:
    """What the projector's pages speak: English, Spanish, or both lines (bilingual rooms).
    Students' devices keep their own language; this changes only the projector."""
    require_session_teacher(session, by, N_("choose the projector's language"))
    if language not in ProjectorLanguage.values:
        raise ServiceError(
            gettext("Choose English, Español or both for the projector; nothing was changed.")
        )
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        if locked.projector_language != language:
            locked.projector_language = language
            locked.save(update_fields=["projector_language"])
            # Open projector screens re-draw in the new language.
            push.touch_after_commit(push.lobby_topic(locked.pk))
    return locked
