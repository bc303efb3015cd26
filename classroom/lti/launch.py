"""A launch from an LMS: pylti1p3 checks the id_token (signature from the platform's keyset,
issuer, audience, nonce used once, expiry, deployment, message claims); then what it means here.

- An instructor's launch signs in (or creates) the teacher of the course's BotBench class,
  creating the class the first time the course launches.
- A learner's launch puts the student (a roster entry of given name and initial, found again by
  the hashed LMS id) on the class's open session, on this device, like the join page would.

A refused launch raises `Refusal` before anything is written."""

import logging
import uuid
from dataclasses import dataclass
from typing import Any

import requests
from django.contrib.auth.models import update_last_login
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from lti_tool.lti_core.constants import ContextRole
from lti_tool.lti_core.utils import normalize_role
from pylti1p3.contrib.django import DjangoMessageLaunch
from pylti1p3.contrib.django.request import DjangoRequest
from pylti1p3.exception import LtiException

from classroom import push, services
from classroom.lti.frame import IframeCookieService
from classroom.lti.params import storable
from classroom.lti.people import hash_subject, roster_name
from classroom.lti.storage import DatabaseLaunchDataStorage
from classroom.lti.tool_config import BotBenchToolConf
from classroom.models import (
    Classroom,
    DeviceBinding,
    GameKind,
    LtiActivity,
    LtiCourse,
    LtiDeployment,
    LtiPerson,
    LtiPlatform,
    LtiResourceLink,
    Role,
    Session,
    Student,
    User,
    Variant,
)

log = logging.getLogger(__name__)

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE = CLAIM + "message_type"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
ACTIVITY_PARAM = "botbench_activity"
# How long pylti1p3 may wait for a platform's keyset (it sets no timeout of its own).
KEYSET_TIMEOUT = 5


class Refusal(Exception):
    """A launch BotBench does not accept; `reason` names it for tests and logs."""

    MESSAGES = {
        "malformed": _("This launch is incomplete. Start it again from your course."),
        "unknown_issuer": _(
            "This learning platform is not registered with BotBench. Ask your school's "
            "administrator to register it."
        ),
        "wrong_audience": _(
            "This launch was meant for another tool (its audience is not BotBench's client ID "
            "on this platform)."
        ),
        "unknown_deployment": _(
            "This deployment of BotBench is not registered. Ask your school's administrator "
            "to add its deployment ID."
        ),
        "replayed": _(
            "This launch was already used, or took too long. Start it again from your course."
        ),
        "expired": _("This launch has expired. Start it again from your course."),
        "bad_signature": _(
            "This launch's signature does not match the platform's registered keys, so "
            "BotBench cannot trust it."
        ),
        "keyset_unreachable": _(
            "BotBench could not read the platform's keys. Try again in a moment; if it keeps "
            "happening, ask your administrator to check the keyset URL."
        ),
        "no_course": _("BotBench opens from a course. Add it to a course and launch it there."),
        "role": _("BotBench is for a course's teachers and learners; your role here is neither."),
        "not_set_up": _(
            "Your teacher has not opened BotBench in this course yet. Try again after they do."
        ),
        "other_course": _("This activity belongs to another course. Open it from your own course."),
        "other_teacher": _(
            "This course's BotBench class belongs to another teacher's account. Ask them to "
            "share the lesson, or use your own course."
        ),
        "archived": _("This course's BotBench class is archived. Ask your teacher."),
        "account": _("Your BotBench account cannot sign in this way. Ask your administrator."),
        "wrong_message": _("BotBench does not answer this kind of launch."),
    }

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason

    @property
    def message(self) -> str:
        return str(self.MESSAGES[self.reason])


class _TimeoutSession(requests.Session):
    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", KEYSET_TIMEOUT)
        return super().request(*args, **kwargs)


def _reason_for(error: LtiException, claims: dict) -> str:
    text = str(error)
    if "Invalid Nonce" in text or "nonce" in text:
        return "replayed"
    if "Registration not found" in text or "Client id not registered" in text:
        issuer_known = LtiPlatform.objects.filter(
            issuer=str(claims.get("iss", "")), is_active=True
        ).exists()
        return "wrong_audience" if issuer_known else "unknown_issuer"
    if "deployment" in text:
        return "unknown_deployment"
    if "expired" in text.lower():
        return "expired"
    if "public key" in text or "Can't decode id_token" in text:
        return "bad_signature"
    if "Error during fetch URL" in text or "Invalid response from" in text:
        return "keyset_unreachable"
    if "State not found" in text or "state" in text:
        return "replayed"
    return "malformed"


@dataclass
class CheckedLaunch:
    message_launch: DjangoMessageLaunch
    platform: LtiPlatform
    deployment: LtiDeployment
    claims: dict

    @property
    def message_type(self) -> str:
        return self.claims.get(MESSAGE_TYPE, "")

    @property
    def launch_id(self) -> str:
        return self.message_launch.get_launch_id()

    @property
    def context(self) -> dict:
        context = self.claims.get(CLAIM + "context")
        return context if isinstance(context, dict) else {}

    @property
    def roles(self) -> set[str]:
        roles = self.claims.get(CLAIM + "roles")
        return (
            {normalize_role(r) for r in roles if isinstance(r, str)}
            if isinstance(roles, list)
            else set()
        )

    @property
    def is_instructor(self) -> bool:
        return bool(self.roles & {ContextRole.INSTRUCTOR, ContextRole.ADMINISTRATOR})

    @property
    def is_learner(self) -> bool:
        return ContextRole.LEARNER in self.roles and not self.is_instructor

    @property
    def custom(self) -> dict:
        custom = self.claims.get(CLAIM + "custom")
        return custom if isinstance(custom, dict) else {}

    @property
    def sub_hash(self) -> str:
        sub = self.claims.get("sub")
        if not sub or not storable(sub, 255):
            raise Refusal("malformed")
        return hash_subject(self.platform, sub)


def state_cookie_missing(request: HttpRequest) -> bool:
    """True when the browser did not send back the login's state cookie (third-party cookies
    blocked in the iframe), unless this exact id_token already launched (a replay, which the
    nonce check refuses)."""
    state = request.POST.get("state", "")
    if not state or request.COOKIES.get(f"lti1p3-{state}") == state:
        return False
    return not LtiLaunchStateKeys.launched(state)


class LtiLaunchStateKeys:
    @staticmethod
    def launched(state: str) -> bool:
        storage = DatabaseLaunchDataStorage()
        return storage.get_value(f"lti1p3-{state}-id-token-hash") is not None

    @staticmethod
    def login_params(state: str) -> dict | None:
        value = DatabaseLaunchDataStorage().get_value(f"lti1p3-{state}")
        return value if isinstance(value, dict) else None


def message_launch_for(request: HttpRequest) -> tuple[DjangoMessageLaunch, BotBenchToolConf]:
    tool_conf = BotBenchToolConf()
    django_request = DjangoRequest(request, post_only=True)
    message_launch = DjangoMessageLaunch(
        django_request,
        tool_conf,
        cookie_service=IframeCookieService(django_request),
        launch_data_storage=DatabaseLaunchDataStorage(),
        requests_session=_TimeoutSession(),
    )
    return message_launch, tool_conf


def check_launch(request: HttpRequest) -> CheckedLaunch:
    """The launch's claims, checked by pylti1p3, or `Refusal`."""
    id_token, state = request.POST.get("id_token"), request.POST.get("state")
    if not id_token or not state or not storable(id_token, 20000) or not storable(state, 200):
        raise Refusal("malformed")
    message_launch, tool_conf = message_launch_for(request)
    try:
        message_launch.validate()
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        # A token whose claims have the wrong shapes: pylti1p3 reads them before it refuses.
        log.info("LTI launch refused (malformed): %r", exc)
        raise Refusal("malformed") from None
    except LtiException as exc:
        claims = (
            message_launch._jwt.get("body", {}) if isinstance(message_launch._jwt, dict) else {}
        )
        reason = _reason_for(exc, claims)
        log.info("LTI launch refused (%s): %s", reason, exc)
        raise Refusal(reason) from None
    claims = message_launch.get_launch_data()
    if tool_conf.platform is None or tool_conf.deployment is None:
        raise Refusal("unknown_deployment")
    return CheckedLaunch(message_launch, tool_conf.platform, tool_conf.deployment, claims)


# --- What an instructor's launch writes ------------------------------------------------------


def _service_urls(launch: CheckedLaunch) -> dict[str, Any]:
    ags = launch.claims.get(AGS_CLAIM) or {}
    nrps = launch.claims.get(NRPS_CLAIM) or {}
    ags = ags if isinstance(ags, dict) else {}
    nrps = nrps if isinstance(nrps, dict) else {}
    scopes = ags.get("scope") if isinstance(ags.get("scope"), list) else []
    return {
        "memberships_url": text(nrps.get("context_memberships_url"), 500),
        "lineitems_url": text(ags.get("lineitems"), 500),
        "ags_scopes": [text(scope, 200) for scope in scopes if text(scope, 200)],
    }


def _course_title(launch: CheckedLaunch) -> str:
    context = launch.context
    title = text(context.get("title"), 120) or text(context.get("label"), 120)
    return title or gettext("LMS course")


def _teacher_for(launch: CheckedLaunch) -> User | None:
    person = (
        LtiPerson.objects.select_related("user")
        .filter(platform=launch.platform, sub_hash=launch.sub_hash, user__isnull=False)
        .first()
    )
    return None if person is None else person.user


def _new_teacher(launch: CheckedLaunch) -> User:
    claims = launch.claims
    name = " ".join(
        str(
            claims.get("name") or f"{claims.get('given_name', '')} {claims.get('family_name', '')}"
        ).split()
    )[:120]
    user = User(
        email=f"lti-{launch.sub_hash[:32]}@lti.invalid",
        display_name=name,
        school=launch.platform.school,
        role=Role.TEACHER,
    )
    user.set_unusable_password()
    user.save()
    return user


def text(value: object, limit: int) -> str:
    """A claim's text, or "" when it is not text the database can hold (even a registered
    platform's claims are checked before they are stored)."""
    value = " ".join(value.split()) if isinstance(value, str) else ""
    return value[:limit] if storable(value, 100_000) else ""


def _check_context(launch: CheckedLaunch) -> str:
    context_id = launch.context.get("id") if isinstance(launch.context, dict) else None
    if not context_id or not storable(context_id, 255):
        raise Refusal("no_course")
    return context_id


def instructor_arrive(*, launch: CheckedLaunch) -> tuple[User, LtiCourse]:
    """The teacher of the launch's course, and the course (with its class), created on the
    course's first launch. Another instructor of a course already taught here is refused."""
    if not launch.is_instructor:
        raise Refusal("role")
    context_id = _check_context(launch)
    teacher = _teacher_for(launch)
    if teacher is not None and (
        not teacher.is_active or teacher.school_id != launch.platform.school_id
    ):
        raise Refusal("account")
    course = (
        LtiCourse.objects.select_related("classroom")
        .filter(platform=launch.platform, context_id=context_id)
        .first()
    )
    if course is not None and (teacher is None or course.classroom.teacher_id != teacher.pk):
        raise Refusal("other_teacher")
    try:
        with transaction.atomic():
            if teacher is None:
                teacher = _new_teacher(launch)
            if course is None:
                classroom = Classroom.objects.create(
                    school=launch.platform.school, teacher=teacher, name=_course_title(launch)
                )
                course = LtiCourse.objects.create(
                    platform=launch.platform,
                    deployment=launch.deployment,
                    context_id=context_id,
                    classroom=classroom,
                    title=_course_title(launch),
                    **_service_urls(launch),
                )
            else:
                LtiCourse.objects.filter(pk=course.pk).update(
                    deployment=launch.deployment,
                    title=_course_title(launch),
                    updated_at=timezone.now(),
                    **_service_urls(launch),
                )
            LtiPerson.objects.update_or_create(
                course=course,
                sub_hash=launch.sub_hash,
                defaults={
                    "platform": launch.platform,
                    "user": teacher,
                    "student": None,
                    "last_launch_at": timezone.now(),
                },
            )
    except IntegrityError:
        # A second launch of the same new course at the same moment: the first one made it.
        raise Refusal("replayed") from None
    update_last_login(None, teacher)
    course.refresh_from_db()
    return teacher, course


def _activity_from(launch: CheckedLaunch) -> LtiActivity | None:
    try:
        key = uuid.UUID(text(launch.custom.get(ACTIVITY_PARAM), 64))
    except ValueError:  # absent, or not a UUID: a link BotBench did not make
        return None
    return LtiActivity.objects.filter(key=key, course__platform=launch.platform).first()


def _line_item_url(launch: CheckedLaunch) -> str:
    ags = launch.claims.get(AGS_CLAIM)
    return text(ags.get("lineitem"), 500) if isinstance(ags, dict) else ""


def link_arrive(
    *, launch: CheckedLaunch, course: LtiCourse, by_instructor: bool
) -> LtiResourceLink:
    """The course's resource link of this launch. Its first launch records the activity the
    teacher picked by deep linking (a copied course's links copy it); a link BotBench did not
    make opens Bot-Builders with teach-back. Learners only use links of their own course."""
    claim = launch.claims.get(CLAIM + "resource_link")
    claim = claim if isinstance(claim, dict) else {}
    link_id = claim.get("id")
    if not link_id or not storable(link_id, 255):
        raise Refusal("malformed")
    link = LtiResourceLink.objects.filter(course=course, resource_link_id=link_id).first()
    activity = _activity_from(launch)
    foreign = link is None and activity is not None and activity.course_id != course.pk
    if foreign and not by_instructor:
        raise Refusal("other_course")
    if link is not None:
        line_item_url = _line_item_url(launch)
        if line_item_url and line_item_url != link.line_item_url:
            LtiResourceLink.objects.filter(pk=link.pk).update(line_item_url=line_item_url)
            link.line_item_url = line_item_url
        return link
    if activity is None and not by_instructor:
        raise Refusal("not_set_up")
    game, variant = (
        (activity.game, activity.variant)
        if activity is not None
        else (GameKind.BOT_BUILDERS, Variant.CLASSROOM)
    )
    link, _created = LtiResourceLink.objects.get_or_create(
        course=course,
        resource_link_id=link_id,
        defaults={
            "activity": activity,
            "game": game,
            "variant": variant,
            "title": text(claim.get("title"), 255),
            "line_item_url": _line_item_url(launch),
        },
    )
    return link


# --- What a learner's launch writes -----------------------------------------------------------


def _learner_course(launch: CheckedLaunch) -> LtiCourse:
    context_id = _check_context(launch)
    course = (
        LtiCourse.objects.select_related("classroom")
        .filter(platform=launch.platform, context_id=context_id)
        .first()
    )
    if course is None:
        raise Refusal("not_set_up")
    if course.classroom.is_archived:
        raise Refusal("archived")
    return course


def _free_roster_name(classroom: Classroom, name: str) -> str:
    taken = {n.lower() for n in classroom.students.values_list("name", flat=True)}
    if name.lower() not in taken:
        return name
    number = 2
    while f"{name} {number}".lower() in taken:
        number += 1
    return f"{name} {number}"


def _student_for(launch: CheckedLaunch, course: LtiCourse) -> Student:
    person = (
        LtiPerson.objects.select_related("student")
        .filter(course=course, sub_hash=launch.sub_hash)
        .first()
    )
    if person is not None:
        if person.student is None:
            raise Refusal("role")
        LtiPerson.objects.filter(pk=person.pk).update(
            last_launch_at=timezone.now(), departed_at=None
        )
        return person.student
    count = course.classroom.students.count() + 1
    name = roster_name(
        text(launch.claims.get("given_name"), 60),
        text(launch.claims.get("family_name"), 60),
        fallback=gettext("Student %(number)s") % {"number": count},
    )
    student = Student.objects.create(
        classroom=course.classroom, name=_free_roster_name(course.classroom, name)
    )
    LtiPerson.objects.create(
        platform=launch.platform,
        course=course,
        sub_hash=launch.sub_hash,
        student=student,
        last_launch_at=timezone.now(),
    )
    return student


def open_session_of(classroom: Classroom) -> Session | None:
    return (
        classroom.sessions.filter(status__in=Session.JOINABLE_STATUSES, room_code__isnull=False)
        .order_by("-opened_at", "-pk")
        .first()
    )


def learner_arrive(
    *, launch: CheckedLaunch, current: DeviceBinding | None
) -> tuple[Student, LtiCourse, DeviceBinding | None]:
    """The learner's roster entry in the course's class and, when a session is open, this
    device joined to it. The LMS vouches for who the learner is, so a launch takes the name over
    from another device the learner used before (the join page would ask the teacher)."""
    if not launch.is_learner:
        raise Refusal("role")
    course = _learner_course(launch)
    for attempt in range(2):
        try:
            with transaction.atomic():
                link_arrive(launch=launch, course=course, by_instructor=False)
                student = _student_for(launch, course)
                session = open_session_of(course.classroom)
                if session is None:
                    return student, course, None
                try:
                    with transaction.atomic():
                        binding = _join(session, student, current)
                except services.ServiceError:
                    # The learner's page says why and offers to try again.
                    binding = None
                return student, course, binding
        except IntegrityError:
            # The same learner's two launches at once: the other one made the roster entry.
            if attempt:
                raise Refusal("replayed") from None
    raise Refusal("replayed")


def _join(session: Session, student: Student, current: DeviceBinding | None) -> DeviceBinding:
    stale = DeviceBinding.objects.filter(session=session, student=student, revoked_at__isnull=True)
    if current is not None:
        stale = stale.exclude(pk=current.pk)
    if stale.update(revoked_at=timezone.now()):
        topic = push.lobby_topic(session.pk)
        transaction.on_commit(lambda: push.touch(topic))
    return services.device_join(session=session, student=student, current=current)
