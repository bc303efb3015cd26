"""NoStoreMiddleware writes what Django's add_never_cache_headers would, without its parsing,
and leaves a view's own caching alone."""

import time

from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers
from django.utils.http import parse_http_date

from classroom.middleware import NoStoreMiddleware


def _through(response: HttpResponse) -> HttpResponse:
    return NoStoreMiddleware(lambda request: response)(HttpRequest())


def test_a_response_without_caching_headers_gets_djangos_never_cache_headers():
    expected = HttpResponse()
    add_never_cache_headers(expected)
    before = int(time.time())
    served = _through(HttpResponse())
    assert served["Cache-Control"] == expected["Cache-Control"]
    assert before <= parse_http_date(served["Expires"]) <= time.time() + 1


def test_a_views_own_cache_control_is_kept():
    response = HttpResponse()
    response["Cache-Control"] = "public, max-age=3600"
    assert _through(response)["Cache-Control"] == "public, max-age=3600"
    assert not _through(response).has_header("Expires")


def test_a_views_own_expires_is_kept():
    response = HttpResponse()
    response["Expires"] = "Thu, 01 Jan 1970 00:00:00 GMT"
    served = _through(response)
    assert served["Expires"] == "Thu, 01 Jan 1970 00:00:00 GMT"
    assert "no-store" in served["Cache-Control"]
