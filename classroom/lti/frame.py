"""BotBench inside an LMS's iframe.

A page in a cross-site iframe only gets cookies marked `SameSite=None; Secure`, and is only shown
if the site allows that frame. Browsers now block such third-party cookies unless they are also
`Partitioned` (CHIPS: a cookie jar of their own for each top-level site, here the LMS); Chromium
does by default in a private context. So the LTI cookies are partitioned: BotBench inside school
A's LMS never sees the cookies it set inside school B's, nor those of a window of its own. Where
a browser blocks even those (Safari), the launch offers a new window.

The rest of the site keeps `SameSite=Lax` cookies, `X-Frame-Options: DENY` and
`frame-ancestors 'none'`. Only a browser that arrived by a valid launch carries the signed
`botbench_lti` cookie, and only its responses are changed: the site's own cookies are sent
`SameSite=None; Secure; Partitioned` (CSRF stays enforced: Django checks the token and the Origin
header of every POST), and the pages may be framed by that launch's LMS origins, no other.
Chromium treats http://localhost as a secure context, so `Secure` cookies work there in tests."""

import http.cookies
import re
from urllib.parse import urlsplit

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from pylti1p3.contrib.django.cookie import DjangoCookieService

from classroom.devices import DEVICE_COOKIE

# Python learns the Partitioned attribute in 3.14; Django's set_cookie has no argument for it.
if "partitioned" not in http.cookies.Morsel._reserved:
    http.cookies.Morsel._reserved["partitioned"] = "Partitioned"
    http.cookies.Morsel._flags.add("partitioned")

FRAME_COOKIE = "botbench_lti"
_SALT = "botbench.lti.frame"
_MAX_AGE = 60 * 60 * 16
_FRAME_ANCESTORS = re.compile(r"frame-ancestors [^;]*")


_HOST = re.compile(r"^[a-z0-9.-]{1,253}$")


def origin_of(url: object) -> str | None:
    """The origin of `url` (scheme, host, port), rebuilt from its parts so nothing else of it
    can reach a header; None when it is not an http(s) URL with a plain host name."""
    if not isinstance(url, str) or not url or len(url) > 2000:
        return None
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if parts.scheme not in ("http", "https") or not _HOST.match(host):
        return None
    return f"{parts.scheme}://{host}" + (f":{port}" if port else "")


def _iframe_cookies() -> tuple[str, ...]:
    return (
        settings.SESSION_COOKIE_NAME,
        settings.CSRF_COOKIE_NAME,
        settings.LANGUAGE_COOKIE_NAME,
        DEVICE_COOKIE,
        FRAME_COOKIE,
    )


def mark_framed(response: HttpResponse, origins: list[str]) -> None:
    """After a valid launch: this browser is in `origins`' frame from now on."""
    value = signing.dumps(sorted(set(origins))[:4], salt=_SALT, compress=True)
    response.set_cookie(
        FRAME_COOKIE, value, max_age=_MAX_AGE, secure=True, httponly=True, samesite="None"
    )
    response.cookies[FRAME_COOKIE]["partitioned"] = True
    response._lti_frame_origins = origins


def frame_origins(request: HttpRequest) -> list[str] | None:
    raw = request.COOKIES.get(FRAME_COOKIE)
    if not raw:
        return None
    try:
        origins = signing.loads(raw, salt=_SALT, max_age=_MAX_AGE)
    except signing.BadSignature:
        return None
    return [o for o in origins if isinstance(o, str) and origin_of(o) == o] or None


def allow_frame(response: HttpResponse, origins: list[str]) -> None:
    """Let `origins` frame this response (and nobody else). Applied by LtiFrameMiddleware,
    after the clickjacking and CSP layers have set their headers."""
    response._lti_allow_frame = origins


def _frame_headers(response: HttpResponse, origins: list[str]) -> None:
    ancestors = "frame-ancestors " + " ".join(origins) if origins else "frame-ancestors 'none'"
    if "Content-Security-Policy" in response:
        response["Content-Security-Policy"] = _FRAME_ANCESTORS.sub(
            ancestors, response["Content-Security-Policy"]
        )
    if origins and "X-Frame-Options" in response:
        del response["X-Frame-Options"]


def cookies_for_iframe(response: HttpResponse) -> None:
    for name in _iframe_cookies():
        if name in response.cookies:
            response.cookies[name]["samesite"] = "None"
            response.cookies[name]["secure"] = True
            response.cookies[name]["partitioned"] = True


class LtiFrameMiddleware:
    """Placed before the session, CSRF, clickjacking and CSP layers, so it sees their cookies and
    headers last."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        origins = getattr(response, "_lti_frame_origins", None) or frame_origins(request)
        if origins is not None:
            cookies_for_iframe(response)
        framing = getattr(response, "_lti_allow_frame", None)
        if framing is None:
            framing = origins
        if framing is not None:
            _frame_headers(response, framing)
        return response


class IframeCookieService(DjangoCookieService):
    """pylti1p3's state cookie, `SameSite=None; Secure; Partitioned` also on http://localhost
    (pylti1p3 only sets SameSite=None over HTTPS), so a login in an iframe reaches its launch."""

    def update_response(self, response):
        for key, data in self._cookie_data_to_set.items():
            response.set_cookie(
                key,
                data["value"],
                max_age=data["exp"],
                secure=True,
                httponly=True,
                samesite="None",
                path="/lti/",
            )
            response.cookies[key]["partitioned"] = True
