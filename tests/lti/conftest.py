import pytest

from tests.lti.signer import JsonServer, register_platform

INSTRUCTOR = ("http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",)
LEARNER = ("http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",)


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
    return register_platform(lms_server, school)
