"""What the test platform keeps: its registration of the tool, people, courses, activities
(resource links), line items, every score that arrived, and the fault switches.

One `Store` per platform, shared by the server's threads and the test's thread, so every change
goes through its lock. Tests set rosters and faults here and read scores back through the
platform's own HTTP pages (`app.py`); reading the store directly is the same data."""

from __future__ import annotations

import copy
import itertools
import secrets
import threading
from dataclasses import dataclass, field
from enum import StrEnum

from .keys import new_private_key, public_key_of

ROLE = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
INSTRUCTOR = ROLE + "Instructor"
LEARNER = ROLE + "Learner"
INSTITUTION_ADMIN = "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator"


class Kind(StrEnum):
    RESOURCE_LINK = "LtiResourceLinkRequest"
    DEEP_LINKING = "LtiDeepLinkingRequest"
    DATA_PRIVACY = "DataPrivacyLaunchRequest"  # the spec's name, as pylti1p3 reads it


class ScoreFault(StrEnum):
    NONE = "none"
    ERROR = "error"  # the score endpoint answers 500
    HANG = "hang"  # the score endpoint answers nothing until released (or hang_seconds pass)


class Tamper(StrEnum):
    """Ways a launch's id_token may be spoiled, for the refusal tests."""

    AUDIENCE = "audience"  # aud/azp name another tool's client id
    ISSUER = "issuer"  # iss names another platform
    DEPLOYMENT = "deployment"  # a deployment id the tool was never given
    EXPIRED = "expired"  # exp an hour ago
    OTHER_KEY = "other_key"  # signed by another key, under this platform's key id


@dataclass
class Person:
    id: str
    given_name: str
    family_name: str
    roles: list[str]

    @property
    def email(self) -> str:
        return f"{self.given_name}.{self.family_name}@lms.test".lower()

    @property
    def name(self) -> str:
        return f"{self.given_name} {self.family_name}"


@dataclass
class Course:
    id: str
    title: str
    label: str
    # person id -> NRPS status ("Active", "Inactive", "Deleted"); the roster a test sets
    members: dict[str, str] = field(default_factory=dict)


@dataclass
class Link:
    """An activity placed in a course by deep linking (a resource link)."""

    id: str
    course_id: str
    title: str
    url: str
    custom: dict[str, str]
    line_item_id: str | None = None


@dataclass
class LineItem:
    id: str
    course_id: str
    label: str
    score_maximum: float
    resource_id: str = ""
    tag: str = ""
    resource_link_id: str = ""

    def as_json(self, base: str) -> dict:
        data = {
            "id": f"{base}/courses/{self.course_id}/lineitems/{self.id}",
            "label": self.label,
            "scoreMaximum": self.score_maximum,
        }
        for key, value in (
            ("resourceId", self.resource_id),
            ("tag", self.tag),
            ("resourceLinkId", self.resource_link_id),
        ):
            if value:
                data[key] = value
        return data


@dataclass
class Launch:
    """A launch the platform was asked to start: who, where, what kind, spoiled how."""

    hint: str
    person_id: str
    course_id: str
    kind: Kind
    link_id: str | None = None
    target: str = "iframe"
    tamper: Tamper | None = None


@dataclass
class Issued:
    """An id_token the platform posted to the tool (kept so a test can post it again)."""

    hint: str
    launch_url: str
    id_token: str
    state: str


@dataclass
class ToolRegistration:
    """What the platform's administrator entered about the tool."""

    login_url: str = ""
    launch_url: str = ""
    deep_link_url: str = ""
    jwks_url: str = ""
    # A key set given inline (the self-tests' stand-in tool has no HTTP server of its own).
    jwks: dict | None = None


class Store:
    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.base_url = ""  # set by the server once its port is known
        self.client_id = "botbench-" + secrets.token_hex(4)
        self.deployment_id = "deployment-1"
        self.private_key = new_private_key()
        self.public_key = public_key_of(self.private_key)
        self.other_private_key = new_private_key()
        self.tool = ToolRegistration()
        self.people: dict[str, Person] = {}
        self.courses: dict[str, Course] = {}
        self.links: dict[str, Link] = {}
        self.line_items: dict[str, LineItem] = {}
        self.scores: dict[str, list[dict]] = {}  # line item id -> every score accepted, in order
        self.score_attempts = 0  # every POST to a scores endpoint, refused ones included
        self.score_fault = ScoreFault.NONE
        self.hang_seconds = 30.0
        self.release_hang = threading.Event()
        self.launches: dict[str, Launch] = {}
        self.issued: list[Issued] = []
        self.deep_link_returns: list[list[dict]] = []
        # LTI Dynamic Registration: the one-time token the platform hands the tool, and what
        # the tool registered with it.
        self.registration_token = secrets.token_urlsafe(24)
        self.registrations: list[dict] = []
        self._ids = itertools.count(1)

    @property
    def issuer(self) -> str:
        return self.base_url

    def next_id(self, prefix: str) -> str:
        return f"{prefix}-{next(self._ids)}"

    # People and courses -------------------------------------------------------------------

    def add_person(self, given_name: str, family_name: str, *roles: str) -> Person:
        with self.lock:
            person = Person(self.next_id("user"), given_name, family_name, list(roles))
            self.people[person.id] = person
            return person

    def add_course(self, title: str, label: str) -> Course:
        with self.lock:
            course = Course(self.next_id("course"), title, label)
            self.courses[course.id] = course
            return course

    def enrol(self, course: Course, *people: Person, status: str = "Active") -> None:
        with self.lock:
            for person in people:
                course.members[person.id] = status

    def unenrol(self, course: Course, person: Person) -> None:
        with self.lock:
            course.members.pop(person.id, None)

    def members_of(self, course_id: str) -> list[dict]:
        """The course's roster as NRPS members: the platform shares names and e-mail, as LMSs
        do; the tool must keep only what it needs."""
        with self.lock:
            course = self.courses[course_id]
            members = []
            for person_id, status in course.members.items():
                person = self.people[person_id]
                members.append(
                    {
                        "user_id": person.id,
                        "roles": list(person.roles),
                        "status": status,
                        "name": person.name,
                        "given_name": person.given_name,
                        "family_name": person.family_name,
                        "email": person.email,
                    }
                )
            return members

    # Launches -----------------------------------------------------------------------------

    def new_launch(
        self,
        person: Person,
        course: Course,
        kind: Kind = Kind.RESOURCE_LINK,
        link: Link | None = None,
        target: str = "iframe",
        tamper: Tamper | None = None,
    ) -> Launch:
        with self.lock:
            launch = Launch(
                hint=secrets.token_urlsafe(16),
                person_id=person.id,
                course_id=course.id,
                kind=kind,
                link_id=link.id if link else None,
                target=target,
                tamper=tamper,
            )
            self.launches[launch.hint] = launch
            return launch

    def record_issued(self, issued: Issued) -> None:
        with self.lock:
            self.issued.append(issued)

    # Deep linking and line items ----------------------------------------------------------

    def add_link(
        self,
        course_id: str,
        title: str,
        url: str,
        custom: dict[str, str] | None = None,
        line_item: dict | None = None,
    ) -> Link:
        with self.lock:
            link = Link(self.next_id("link"), course_id, title, url, dict(custom or {}))
            if line_item is not None:
                item = self.add_line_item(
                    course_id,
                    {**line_item, "resourceLinkId": link.id},
                )
                link.line_item_id = item.id
            self.links[link.id] = link
            return link

    def add_line_item(self, course_id: str, data: dict) -> LineItem:
        with self.lock:
            item = LineItem(
                id=self.next_id("lineitem"),
                course_id=course_id,
                label=str(data.get("label", "")),
                score_maximum=float(data.get("scoreMaximum", 1)),
                resource_id=str(data.get("resourceId", "")),
                tag=str(data.get("tag", "")),
                resource_link_id=str(data.get("resourceLinkId", "")),
            )
            self.line_items[item.id] = item
            self.scores[item.id] = []
            return item

    def links_of(self, course_id: str) -> list[Link]:
        with self.lock:
            return [link for link in self.links.values() if link.course_id == course_id]

    # Scores -------------------------------------------------------------------------------

    def add_score(self, line_item_id: str, score: dict) -> None:
        with self.lock:
            self.scores[line_item_id].append(copy.deepcopy(score))

    def results(self, line_item_id: str) -> dict[str, dict]:
        """The gradebook column: each user's latest score (by the score's timestamp, as AGS
        says a platform must; a score older than the last one kept changes nothing)."""
        with self.lock:
            latest: dict[str, dict] = {}
            for score in self.scores.get(line_item_id, []):
                user = str(score.get("userId"))
                if user not in latest or str(score.get("timestamp", "")) >= str(
                    latest[user].get("timestamp", "")
                ):
                    latest[user] = score
            return latest

    def grade(self, line_item_id: str, user_id: str) -> float | None:
        """What the gradebook shows: the latest score scaled to the column's maximum, as AGS
        asks of a platform (a tool may send 10 out of 12 to a column out of 100)."""
        with self.lock:
            score = self.results(line_item_id).get(user_id)
            item = self.line_items[line_item_id]
            if not score or score.get("scoreGiven") is None:
                return None
            given, maximum = float(score["scoreGiven"]), float(score.get("scoreMaximum") or 0)
            return round(given / maximum * item.score_maximum, 2) if maximum else None

    def set_score_fault(self, fault: ScoreFault, hang_seconds: float | None = None) -> None:
        with self.lock:
            self.score_fault = fault
            if hang_seconds is not None:
                self.hang_seconds = hang_seconds
            if fault is ScoreFault.HANG:
                self.release_hang.clear()
            else:
                self.release_hang.set()
