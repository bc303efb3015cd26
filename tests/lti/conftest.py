"""The LMS side of the LTI tests (the browser ones are in tests/e2e/test_lti_*.py, which import
these fixtures): a real LTI 1.3 platform (tests/lti/platform/) on
http://127.0.0.1:<port>, BotBench (the tool) on http://localhost:<port>, the platform registered
in BotBench through the tool's registration service, and browsers to launch with.

- `lti_platform`: the platform server, its tool registration pointing at the live server.
- `lms_course`: its cast. Course "Robotics 4B" (teacher Alice Rivera, learners Ava Moreno and Ben
  Okafor) and course "Robotics 5A" (teacher Bob Stone, learner Cleo Park), one resource link
  each placed without deep linking.
- `registered`: the platform registered in BotBench for `school` (an LtiPlatform).
- `lms_context(viewport)`: a browser whose profile lets third-party cookies through;
  `lms_context(viewport, third_party_cookies=False)` one that refuses BotBench's cookies inside
  the LMS's page, partitioned ones too (Safari's way). A plain `new_context` is Chromium's
  private mode: unpartitioned third-party cookies blocked, partitioned ones kept.
- `launch(page, person, course, ...)`: opens the platform's page that frames the launch and
  returns the iframe.
- `snapshot()`: row counts of every BotBench table a launch could write, to show a refused
  launch wrote nothing."""

import json
import os
from dataclasses import dataclass

import pytest
from django.apps import apps

from tests.e2e.a11y import audited_contexts

# Only constants: the browser fixtures (`browser`, `auditor`, `live_server`...) are tests/e2e's,
# and the LTI browser tests live there and import the fixtures below. Importing those fixtures
# here too would start a second Playwright in a run of both directories.
from tests.e2e.conftest import CHROMEBOOK, CHROMIUM, CHROMIUM_ARGS, LIVE_UPDATE, PAGE_LOAD
from tests.lti.platform import store as platform_store
from tests.lti.platform.server import PlatformServer
from tests.lti.platform.store import Course, Kind, Link, Person, Tamper
from tests.lti.signer import JsonServer
from tests.lti.signer import register_platform as register_signer

# Roles as the tool's own tests give them in signed launches.
INSTRUCTOR = ("http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",)
LEARNER = ("http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",)

# Written by the login's state handling, whatever the launch's fate; everything else counts.
NOT_CONTENT = {"classroom.ltilaunchstate", "sessions.session"}
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def lti_platform(live_server):
    server = PlatformServer()
    tool = server.store.tool
    tool.login_url = f"{live_server.url}/lti/login/"
    tool.launch_url = f"{live_server.url}/lti/launch/"
    tool.deep_link_url = f"{live_server.url}/lti/launch/"
    tool.jwks_url = f"{live_server.url}/lti/jwks.json"
    server.start()
    yield server
    server.stop()


@dataclass
class Lms:
    platform: PlatformServer
    course: Course
    other_course: Course
    teacher: Person
    ava: Person
    ben: Person
    other_teacher: Person
    cleo: Person
    link: Link
    other_link: Link

    @property
    def store(self):
        return self.platform.store


@pytest.fixture
def lms_course(lti_platform) -> Lms:
    store = lti_platform.store
    course = store.add_course("Robotics 4B", "ROB-4B")
    other_course = store.add_course("Robotics 5A", "ROB-5A")
    teacher = store.add_person("Alice", "Rivera", platform_store.INSTRUCTOR)
    ava = store.add_person("Ava", "Moreno", platform_store.LEARNER)
    ben = store.add_person("Ben", "Okafor", platform_store.LEARNER)
    other_teacher = store.add_person("Bob", "Stone", platform_store.INSTRUCTOR)
    cleo = store.add_person("Cleo", "Park", platform_store.LEARNER)
    store.enrol(course, teacher, ava, ben)
    store.enrol(other_course, other_teacher, cleo)
    # An activity placed by hand (a copied course, or a link typed into the LMS): BotBench
    # opens a Bot-Builders lesson with teach-back for it.
    teachback = {"label": "BotBench teach-back", "scoreMaximum": 100}
    link = store.add_link(course.id, "BotBench", store.tool.launch_url, None, teachback)
    other_link = store.add_link(other_course.id, "BotBench", store.tool.launch_url, None, None)
    return Lms(
        lti_platform, course, other_course, teacher, ava, ben, other_teacher, cleo, link, other_link
    )


def register_platform(platform: PlatformServer, *, school, by, name: str = "Test LMS"):
    """Register `platform` in BotBench through the tool's registration service."""
    from classroom.lti.registration import platform_register

    return platform_register(
        school=school,
        by=by,
        name=name,
        issuer=platform.issuer,
        client_id=platform.store.client_id,
        auth_url=platform.auth_url,
        token_url=platform.token_url,
        keyset_url=platform.jwks_url,
        deployment_ids=[platform.store.deployment_id],
    )


@pytest.fixture
def registered(lms_course, school, school_admin):
    return register_platform(lms_course.platform, school=school, by=school_admin)


def cookie_preferences(profile_dir, third_party_cookies: bool) -> None:
    """A Chromium profile whose cookie settings let third-party cookies through (Chromium's
    `cookie_controls_mode` 0), as an LMS's iframe needs; or, with `third_party_cookies=False`,
    one that refuses BotBench's (localhost's) cookies in a page of the LMS (127.0.0.1), even
    partitioned ones, as Safari refuses every third-party cookie. First-party ones still work."""
    default = profile_dir / "Default"
    default.mkdir(parents=True, exist_ok=True)
    profile: dict = {"cookie_controls_mode": 0, "block_third_party_cookies": False}
    if not third_party_cookies:
        profile["content_settings"] = {
            "exceptions": {"cookies": {"http://localhost:*,http://127.0.0.1:*": {"setting": 2}}}
        }
    (default / "Preferences").write_text(json.dumps({"profile": profile}))


@pytest.fixture
def lms_context(browser, auditor, tmp_path):
    """Open a browser (its own profile: one person's computer) that allows third-party cookies.
    Every page state it reaches is checked with axe; a violation fails the test."""

    def open_one(n: int, viewport: dict | None = None, third_party_cookies: bool = True):
        profile = tmp_path / f"profile-{n}"
        cookie_preferences(profile, third_party_cookies)
        return browser.browser_type.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport=viewport or CHROMEBOOK,
        )

    with audited_contexts(
        auditor, open_one, timeout=LIVE_UPDATE, navigation_timeout=PAGE_LOAD
    ) as open_context:
        yield open_context


@pytest.fixture
def launch(lti_platform):
    """Open the platform's page for a launch of `person` in `course` and return the frame
    locator of the iframe BotBench opens in (or the page, for `target="window"`)."""

    def start(
        page,
        person: Person,
        course: Course,
        link: Link | None = None,
        kind: Kind = Kind.RESOURCE_LINK,
        tamper: Tamper | None = None,
    ):
        store = lti_platform.store
        record = store.new_launch(person, course, kind, link, tamper=tamper)
        page.goto(lti_platform.frame_url(record))
        return page.frame_locator("iframe")

    return start


@pytest.fixture
def snapshot():
    """Row counts of every BotBench table but the login's state."""

    def counts() -> dict[str, int]:
        return {
            model._meta.label_lower: model.objects.count()
            for model in apps.get_models()
            if model._meta.label_lower not in NOT_CONTENT
            and model._meta.app_label in {"classroom", "games", "reports"}
        }

    return counts


# A keyset server and a registered LMS for the tool's own tests (tests/lti/signer.py signs their
# id_tokens by hand, to reach each check of a launch without a browser).


@pytest.fixture(autouse=True)
def _loopback_platforms(settings):
    """The test platforms listen on http://127.0.0.1 (production allows HTTPS only)."""
    settings.LTI_ALLOW_LOOPBACK_HTTP = True


@pytest.fixture
def lms_server():
    server = JsonServer()
    yield server
    server.close()


@pytest.fixture
def lms(lms_server, school):
    """A registered LMS with deployment `deployment-1`, its keyset served on 127.0.0.1."""
    return register_signer(lms_server, school)
