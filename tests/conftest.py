"""The cast every test can call on.

- `teacher` (Alice) teaches `classroom` at `school`; `other_teacher` (Bob) teaches at another
  school; `school_admin` (Carol) administers `school`; `outsider` is an anonymous client.
- `device_client(session, student)` returns a client whose device has joined `session` as
  `student`, exactly as the join page would leave it.
"""

import os
import socket
import time
import uuid
from collections.abc import Callable

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import Client
from django.utils import translation

from classroom import services
from classroom.devices import DEVICE_COOKIE, set_device_cookie
from classroom.models import Classroom, GameKind, Role, School, Session, Student, User

PASSWORD = "correct-horse-battery-staple"
STUDENT_NAMES = ["Ava", "Ben", "Chloe", "Diego", "Emma", "Finn", "Grace", "Hugo"]


def _required(*values: str) -> bool:
    return os.environ.get("BOTBENCH_REQUIRE_ALL", "").lower() in values


def skip_or_fail(reason: str) -> None:
    """A tool the tests drive (Chromium, pdftoppm) is missing. `.ci/run` installs them, so under
    CI (`BOTBENCH_REQUIRE_ALL` = 1 or `tools`) a missing one fails instead of skipping."""
    if _required("1", "true", "yes", "tools"):
        pytest.fail(f"{reason} (BOTBENCH_REQUIRE_ALL is set, so this cannot be skipped)")
    pytest.skip(reason)


SERVER_SKIP = "needs a server: "


def skip_without_server(reason: str) -> None:
    """A test that needs PostgreSQL or Redis skips on the embedded default, which is how a
    newcomer's first `make test` runs; the server run of `.ci/run` (`BOTBENCH_REQUIRE_ALL=1`)
    fails instead."""
    if _required("1", "true", "yes"):
        pytest.fail(f"{reason} (BOTBENCH_REQUIRE_ALL is set, so this cannot be skipped)")
    pytest.skip(SERVER_SKIP + reason)


def wait_until(condition: Callable[[], object], timeout: float, what: str) -> object:
    """Poll `condition` until it returns something true; fail naming `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.05)


def free_port() -> int:
    """A loopback port nothing listens on (the system's pick): for a server a test starts, or a
    store that must be unreachable."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session", autouse=True)
def _private_embedded_broker(tmp_path_factory):
    """Without Redis, tests use a broker file of their own so a `make run` worker on this
    machine never takes their tasks. Worker subprocesses inherit it through the environment."""
    if settings.REDIS_URL:
        yield
        return
    from config.celery import app as celery_app

    url = f"sqla+sqlite:///{tmp_path_factory.mktemp('broker') / 'broker.sqlite3'}"
    previous = celery_app.conf.broker_url
    celery_app.conf.broker_url = url
    os.environ["BOTBENCH_BROKER_URL"] = url
    yield
    celery_app.conf.broker_url = previous
    os.environ.pop("BOTBENCH_BROKER_URL", None)


@pytest.fixture(autouse=True)
def _english_to_start_with():
    """A request leaves its language active in the thread (LocaleMiddleware sets it on the way
    in and never resets it): each test starts in English, so a Spanish page drawn by one test
    cannot turn the next test's services (team names, refusals) Spanish."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _isolated_cache(settings):
    """Each test sees an empty cache without flushing a shared one (Redis also holds the broker
    queues, and other test runs may share the file cache): give it a key prefix of its own.

    Through the setting, not the test thread's cache object: Django keeps one cache object a
    thread, and a browser test's live server answers in threads of its own. A change a test
    makes through a service must reach those threads' caches and streams under the same prefix
    (changing CACHES makes every thread build its cache again)."""
    empty_cache(settings)


def empty_cache(settings) -> None:
    """From here on the test's cache is empty: a key prefix never used before, in every thread.
    Never `cache.clear()`: on Redis that empties the whole database, other runs' keys and the
    broker's queues included."""
    prefix = f"test-{uuid.uuid4().hex}"
    settings.CACHES = {
        name: {**config, "KEY_PREFIX": prefix} for name, config in settings.CACHES.items()
    }


@pytest.fixture
def school(db) -> School:
    return School.objects.create(name="Maple Street Elementary")


@pytest.fixture
def other_school(db) -> School:
    return School.objects.create(name="Hilltop Academy")


def make_user(email: str, school: School, role: str = Role.TEACHER, name: str = "") -> User:
    return User.objects.create_user(
        email, PASSWORD, school=school, role=role, display_name=name or email.split("@")[0]
    )


@pytest.fixture
def teacher(school) -> User:
    return make_user("alice@maple.test", school, name="Alice Rivera")


@pytest.fixture
def other_teacher(other_school) -> User:
    return make_user("bob@hilltop.test", other_school, name="Bob Stone")


@pytest.fixture
def colleague(school) -> User:
    """Another teacher of the same school: may not touch Alice's classes."""
    return make_user("dana@maple.test", school, name="Dana Cole")


@pytest.fixture
def school_admin(school) -> User:
    return make_user("carol@maple.test", school, role=Role.ADMINISTRATOR, name="Carol Okafor")


def _client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def teacher_client(teacher) -> Client:
    return _client_for(teacher)


@pytest.fixture
def other_teacher_client(other_teacher) -> Client:
    return _client_for(other_teacher)


@pytest.fixture
def colleague_client(colleague) -> Client:
    return _client_for(colleague)


@pytest.fixture
def school_admin_client(school_admin) -> Client:
    return _client_for(school_admin)


@pytest.fixture
def outsider() -> Client:
    return Client()


@pytest.fixture
def classroom(teacher, school) -> Classroom:
    classroom = Classroom.objects.create(
        school=school,
        teacher=teacher,
        name="Room 12 Robotics",
        grade="Grade 4",
        school_year="2026-27",
    )
    for name in STUDENT_NAMES:
        Student.objects.create(classroom=classroom, name=name)
    return classroom


@pytest.fixture
def students(classroom) -> list[Student]:
    return list(classroom.students.order_by("pk"))


@pytest.fixture
def bb_session(classroom) -> Session:
    import datetime

    return Session.objects.create(
        classroom=classroom, date=datetime.date(2026, 11, 30), game=GameKind.BOT_BUILDERS
    )


@pytest.fixture
def open_session(bb_session, teacher) -> Session:
    return services.session_open(session=bb_session, by=teacher)


@pytest.fixture
def device_client() -> Callable[[Session, Student], Client]:
    def join(session: Session, student: Student) -> Client:
        binding = services.device_join(session=session, student=student)
        client = Client()
        response = HttpResponse()
        set_device_cookie(response, binding, secure=False)
        client.cookies[DEVICE_COOKIE] = response.cookies[DEVICE_COOKIE].value
        client.binding = binding
        return client

    return join


def pytest_report_header(config) -> list[str]:
    db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    return [f"botbench: database={db} broker={settings.CELERY_BROKER_URL.split(':', 1)[0]}"]


def pytest_configure(config) -> None:
    # Accounts are made by the dozen in tests; the production hasher would cost ~0.3 s each.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_sessionfinish(session, exitstatus) -> None:
    """Under CI a skipped test is a failed requirement, whatever skipped it; in the embedded run
    (`tools`) only the tests that need PostgreSQL or Redis may skip."""
    if _required("1", "true", "yes"):
        allowed = ()
    elif _required("tools"):
        allowed = (SERVER_SKIP,)
    else:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = [
        report
        for report in (reporter.stats.get("skipped", []) if reporter else [])
        if not any(marker in str(report.longrepr) for marker in allowed)
    ]
    if skipped and session.exitstatus == 0:
        names = ", ".join(report.nodeid for report in skipped[:10])
        print(f"\nBOTBENCH_REQUIRE_ALL: {len(skipped)} test(s) skipped: {names}")
        session.exitstatus = 1


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """pytest-django's test database, with PostgreSQL's connection pool closed before the
    database is dropped: idle pooled connections (threads in the concurrency tests, the live
    server) would otherwise keep it "in use by other users"."""
    yield
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        if hasattr(conn, "close_pool"):  # PostgreSQL only
            conn.close_pool()
