"""With the cache unreachable (Redis down), the throttles step aside rather than turning every
login and join into a server error: counting resumes when the cache is back."""

import pytest
from django.test import Client

from tests.conftest import PASSWORD

# Nothing listens on this port: every cache call fails with "connection refused".
DEAD_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
    }
}


@pytest.fixture
def cache_down(settings):
    settings.CACHES = DEAD_REDIS


def test_logins_still_work_without_the_cache(cache_down, teacher):
    wrong = Client().post("/accounts/login/", {"username": teacher.email, "password": "nope"})
    assert wrong.status_code == 200
    assert "Please enter a correct" in wrong.content.decode()
    right = Client().post("/accounts/login/", {"username": teacher.email, "password": PASSWORD})
    assert right.status_code == 302


def test_joining_still_works_without_the_cache(cache_down, open_session):
    assert Client().get("/join", {"code": "ZZZZZZ"}).status_code == 400
    assert Client().get("/join", {"code": open_session.room_code}).status_code == 200
