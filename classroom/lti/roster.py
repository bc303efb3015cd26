"""Roster sync from the LMS course (LTI Names and Role Provisioning).

`roster_preview` reads the course's members and says what a sync would change: learners to add
(given name and initial, and the LMS id only hashed), departed learners to archive, archived
ones who came back. Instructors and other staff are never students. `roster_apply` makes exactly
the previewed changes in one transaction, or refuses when the course changed since the preview;
a sync with nothing changed writes nothing. Nobody is deleted: a departed learner's
`LtiPerson.departed_at` is set, and their work stays until the teacher deletes it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from classroom.access import is_class_teacher
from classroom.lti import connector
from classroom.lti.people import hash_subject, roster_name
from classroom.models import Classroom, LtiCourse, LtiPerson, Student, User
from classroom.roster import MAX_NAME_LENGTH
from classroom.services.errors import ServiceError
from classroom.validators import has_unstorable, normalise_name

# LIS roles (full URIs or the short names LTI allows): only a learner becomes a student, and
# anyone who is also staff in the course is not one.
_LEARNER = {"Learner", "Student"}
_STAFF = {
    "Instructor",
    "TeachingAssistant",
    "Administrator",
    "ContentDeveloper",
    "Mentor",
    "Manager",
    "Faculty",
    "Staff",
}
_ACTIVE = "Active"


def _role_names(roles: Iterable[object]) -> set[str]:
    names = set()
    for role in roles:
        text = str(role)
        # ".../membership#Learner", ".../membership/Instructor#TeachingAssistant", "Learner"
        names.add(text.rsplit("#", 1)[-1].rsplit("/", 1)[-1])
    return names


def is_learner(member: Mapping[str, object]) -> bool:
    roles = member.get("roles")
    names = _role_names(roles if isinstance(roles, list) else [])
    return bool(names & _LEARNER) and not names & _STAFF


@dataclass(frozen=True)
class Arrival:
    sub_hash: str
    name: str


@dataclass(frozen=True)
class Change:
    """A learner already known to the class: archived now, or back from the archive."""

    person_id: int
    name: str


@dataclass(frozen=True)
class RosterChanges:
    arrivals: list[Arrival] = field(default_factory=list)
    returns: list[Change] = field(default_factory=list)
    departures: list[Change] = field(default_factory=list)
    unchanged: int = 0
    staff: int = 0
    typed_by_hand: int = 0

    @property
    def is_empty(self) -> bool:
        return not (self.arrivals or self.returns or self.departures)

    @property
    def fingerprint(self) -> str:
        """Names the exact changes: apply refuses a preview that no longer holds."""
        plan = {
            "add": sorted((a.sub_hash, a.name) for a in self.arrivals),
            "return": sorted(c.person_id for c in self.returns),
            "archive": sorted(c.person_id for c in self.departures),
        }
        return hashlib.sha256(json.dumps(plan, sort_keys=True).encode()).hexdigest()[:32]


def course_members(course: LtiCourse) -> list[dict]:
    """Every member of the course as the LMS lists them (all pages), or ServiceError saying why
    the LMS could not be read. The names are read here and kept nowhere but the new roster
    entries' given name and initial."""
    if not course.memberships_url:
        raise ServiceError(
            gettext(
                "The LMS has not shared this course's roster with BotBench (Names and Role "
                "Provisioning is off). Ask your LMS administrator to turn it on for BotBench, "
                "then launch BotBench from the course again."
            )
        )
    try:
        members = connector.members_of(
            connector.connector_for(course.platform), course.memberships_url
        )
    except connector.SERVICE_ERRORS as exc:  # a message for the teacher
        failure = connector.classify(exc)
        if isinstance(failure, connector.ServiceUnavailable):
            raise ServiceError(
                gettext("The LMS did not answer (%(reason)s). Nothing was changed; try again.")
                % {"reason": failure}
            ) from None
        raise ServiceError(
            gettext("The LMS refused to share the roster (%(reason)s). Nothing was changed.")
            % {"reason": failure}
        ) from None
    return members


def _unique_name(name: str, taken: set[str]) -> str:
    name = normalise_name(name)[:MAX_NAME_LENGTH] or gettext("Student")
    candidate, number = name, 2
    while candidate.casefold() in taken:
        suffix = f" {number}"
        candidate = name[: MAX_NAME_LENGTH - len(suffix)] + suffix
        number += 1
    taken.add(candidate.casefold())
    return candidate


def _text(member: Mapping[str, object], key: str) -> str:
    value = member.get(key)
    text = value if isinstance(value, str) else ""
    return "" if has_unstorable(text) else text


def roster_changes(course: LtiCourse, members: Iterable[Mapping[str, object]]) -> RosterChanges:
    """What syncing `members` into the course's class would change (reads, writes nothing)."""
    platform = course.platform
    present: dict[str, Mapping[str, object]] = {}
    staff = 0
    for member in members:
        user_id = member.get("user_id")
        if isinstance(user_id, bool) or not isinstance(user_id, (str, int)) or user_id == "":
            continue
        user_id = str(user_id)
        if not is_learner(member):
            staff += 1
            continue
        if member.get("status", _ACTIVE) != _ACTIVE:
            continue  # inactive or deleted in the LMS: not in the course now
        present[hash_subject(platform, user_id)] = member
    people = {
        person.sub_hash: person
        for person in LtiPerson.objects.filter(course=course, student__isnull=False)
        .select_related("student")
        .order_by("pk")
    }
    # Someone who launched as a teacher of the course is never made a student of it.
    teachers = set(
        LtiPerson.objects.filter(course=course, user__isnull=False).values_list(
            "sub_hash", flat=True
        )
    )
    classroom = course.classroom
    taken = {name.casefold() for name in classroom.students.values_list("name", flat=True)}
    arrivals, returns, departures, unchanged = [], [], [], 0
    for number, (sub_hash, member) in enumerate(sorted(present.items()), start=1):
        person = people.get(sub_hash)
        if sub_hash in teachers:
            staff += 1
        elif person is None:
            fallback = gettext("Student %(number)s") % {"number": number}
            name = roster_name(
                _text(member, "given_name"), _text(member, "family_name"), fallback=fallback
            )
            arrivals.append(Arrival(sub_hash, _unique_name(name, taken)))
        elif person.departed_at is not None:
            returns.append(Change(person.pk, person.student.name))
        else:
            unchanged += 1
    for sub_hash, person in people.items():
        if sub_hash not in present and person.departed_at is None:
            departures.append(Change(person.pk, person.student.name))
    linked = {person.student_id for person in people.values()}
    return RosterChanges(
        arrivals=sorted(arrivals, key=lambda a: a.name.casefold()),
        returns=sorted(returns, key=lambda c: c.name.casefold()),
        departures=sorted(departures, key=lambda c: c.name.casefold()),
        unchanged=unchanged,
        staff=staff,
        typed_by_hand=classroom.students.exclude(pk__in=linked).count(),
    )


def roster_preview(*, course: LtiCourse) -> RosterChanges:
    return roster_changes(course, course_members(course))


def roster_apply(*, course: LtiCourse, by: User, fingerprint: str) -> RosterChanges:
    """Make the changes the teacher saw (`fingerprint` of their preview), all or none."""
    if not is_class_teacher(by, course.classroom):
        raise ServiceError(gettext("Only the class's teacher can change its roster."))
    members = course_members(course)
    now = timezone.now()
    with transaction.atomic():
        # The class row is the lock: two syncs (or a sync and a typed roster) take turns.
        Classroom.objects.select_for_update().filter(pk=course.classroom_id).first()
        changes = roster_changes(course, members)
        if changes.fingerprint != fingerprint:
            raise ServiceError(
                gettext(
                    "The course's roster changed since you looked. Nothing was changed: check "
                    "the changes below again."
                )
            )
        for arrival in changes.arrivals:
            student = Student(classroom_id=course.classroom_id, name=arrival.name)
            try:
                student.full_clean(validate_constraints=False)
                with transaction.atomic():
                    student.save()
            except (ValidationError, IntegrityError):
                # A name taken in the meantime (a student renamed by hand): all or nothing.
                raise ServiceError(
                    gettext(
                        "“%(name)s” could not be added (that name is taken). Nothing was "
                        "changed: check the changes again."
                    )
                    % {"name": arrival.name}
                ) from None
            LtiPerson.objects.create(
                platform_id=course.platform_id,
                course=course,
                sub_hash=arrival.sub_hash,
                student=student,
            )
        LtiPerson.objects.filter(pk__in=[c.person_id for c in changes.returns]).update(
            departed_at=None
        )
        LtiPerson.objects.filter(pk__in=[c.person_id for c in changes.departures]).update(
            departed_at=now
        )
    return changes
