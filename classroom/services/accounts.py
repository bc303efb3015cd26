"""Accounts: teachers signing up, administrators inviting and (de)activating teachers."""

import datetime
import logging
import smtplib
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from classroom.models import Invitation, Role, School, User
from classroom.services.errors import ServiceError

INVITATION_DAYS = 14
logger = logging.getLogger(__name__)


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


def _require_admin_of(by: User, school_id: int | None) -> None:
    if not (by.is_active and by.is_school_admin and by.school_id == school_id):
        raise ServiceError(gettext("Only the school's administrators can manage its teachers."))


def invitation_link(invitation: Invitation, *, base_url: str | None = None) -> str:
    path = reverse("classroom:invitation_accept", args=[invitation.token])
    base = base_url or settings.SITE_URL or "http://127.0.0.1:8000"
    return f"{base.rstrip('/')}{path}"


@dataclass(frozen=True)
class InvitationSent:
    """A saved invitation, its link, and whether the e-mail went out: when the mail server
    cannot be reached the invitation still stands, and the administrator passes on the link."""

    invitation: Invitation
    link: str
    mailed: bool


def invitation_create(
    *, school: School, email: str, by: User, base_url: str | None = None
) -> InvitationSent:
    """Invite a teacher to `school`: an invitation row, then an e-mail with the link."""
    _require_admin_of(by, school.pk)
    email = User.objects.normalize_email(email.strip()).lower()
    if User.objects.filter(email__iexact=email).exists():
        raise ServiceError(gettext("%(email)s already has a BotBench account.") % {"email": email})
    invitation = Invitation(
        school=school,
        email=email,
        invited_by=by,
        expires_at=timezone.now() + datetime.timedelta(days=INVITATION_DAYS),
    )
    invitation.full_clean()
    link = invitation_link(invitation, base_url=base_url)
    with transaction.atomic():
        invitation.save()
    # Sent once the row is committed, so the link in the mail always works; outside the
    # transaction, so a mail server that is down cannot undo (or 500) a saved invitation.
    try:
        # In the administrator's language: the one they read the invitation page in.
        send_mail(
            subject=gettext("Join %(school)s on BotBench") % {"school": school.name},
            message=gettext(
                "%(by)s invites you to run robot card games with your classes at "
                "%(school)s.\n\nCreate your teacher account here (the link works for "
                "%(days)s days):\n%(link)s\n"
            )
            % {"by": by, "school": school.name, "days": INVITATION_DAYS, "link": link},
            from_email=None,
            recipient_list=[email],
        )
    except (smtplib.SMTPException, OSError):
        logger.warning("Invitation %s: the e-mail could not be sent", invitation.pk, exc_info=True)
        return InvitationSent(invitation=invitation, link=link, mailed=False)
    return InvitationSent(invitation=invitation, link=link, mailed=True)


def invitation_accept(*, token: str, display_name: str, password: str) -> User:
    """Create the invited teacher's account. A link works once: a second use is refused."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update().select_related("school").filter(token=token)
        ).first()
        if invitation is None or not invitation.is_usable:
            raise ServiceError(gettext("This invitation link has expired or was already used."))
        user = User(
            email=invitation.email,
            display_name=display_name.strip(),
            school=invitation.school,
            role=Role.TEACHER,
        )
        user.set_password(password)
        user.full_clean(exclude=["password"])
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            raise ServiceError(
                gettext("%(email)s already has an account. Log in.") % {"email": invitation.email}
            ) from None
        invitation.accepted_at = timezone.now()
        invitation.save(update_fields=["accepted_at"])
    return user


def school_retention_set(*, school: School, months: int | None, by: User) -> School:
    """How many months an archived class keeps its students' data (None: until deleted)."""
    _require_admin_of(by, school.pk)
    school.retention_months = months
    try:
        school.full_clean()
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages)) from None
    school.save(update_fields=["retention_months"])
    return school


def teacher_set_active(*, teacher: User, active: bool, by: User) -> User:
    """Deactivate (cannot log in any more; classes stay) or reactivate a teacher."""
    _require_admin_of(by, teacher.school_id)
    if teacher.role != Role.TEACHER:
        raise ServiceError(gettext("Only teachers' accounts can be changed here."))
    User.objects.filter(pk=teacher.pk).update(is_active=active)
    teacher.refresh_from_db(fields=["is_active"])
    return teacher


def user_language_set(*, user: User, language: str, by: User) -> User:
    """An adult's own language ("" follows the browser); it wins on every device they sign in
    on (classroom.language)."""
    if by.pk != user.pk:
        raise ServiceError(gettext("Only you can choose your own language."))
    user.language = language
    try:
        user.full_clean(exclude=["password"])
    except ValidationError:
        raise ServiceError(gettext("Choose one of the languages in the list.")) from None
    user.save(update_fields=["language"])
    return user


def password_reset_request(
    *, email: str, domain: str, use_https: bool, language: str | None = None
) -> None:
    """Queue the reset e-mail for `email` and return at once: the request neither looks the
    address up nor talks to the mail server, so how long it takes (or whether it fails) cannot
    tell anyone whether the address has an account. The worker does both. `language` is the
    page's language, used unless the account chose its own."""
    from classroom import tasks

    language = language or translation.get_language() or settings.LANGUAGE_CODE
    # `robust`: a broker that is down must not turn the page into a 500 (which would again
    # say something); the failure is logged.
    transaction.on_commit(
        lambda: tasks.password_reset_send.delay(
            email=email, domain=domain, use_https=use_https, language=language
        ),
        robust=True,
    )


def password_reset_mail_send(
    *, email: str, domain: str, use_https: bool, language: str | None = None
) -> None:
    """In the worker: Django's own reset e-mail (its token, templates and rules: active users
    with a usable password only), sent if the address has an account, else nothing. Written in
    the account's own language if it chose one, else in the language of the page it was asked
    from."""
    from django.contrib.auth.forms import PasswordResetForm

    form = PasswordResetForm(data={"email": email})
    if not form.is_valid():
        return
    chosen = (
        User.objects.filter(email__iexact=form.cleaned_data["email"])
        .exclude(language="")
        .values_list("language", flat=True)
        .first()
    )
    with translation.override(chosen or language or settings.LANGUAGE_CODE):
        form.save(domain_override=domain, use_https=use_https)
