"""Talking to a platform's LTI Advantage services (NRPS, AGS) with pylti1p3's clients and the
tool's client-credentials token, every request bounded by a timeout: a platform that hangs
costs a lesson a few seconds, never a stuck worker or page."""

from __future__ import annotations

import requests
from django.conf import settings
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.service_connector import REQUESTS_USER_AGENT, ServiceConnector

from classroom.lti.keys import tool_registration
from classroom.models import LtiPlatform

# A course's roster is read a page at a time; an LMS that keeps answering "next page" is cut off
# here rather than holding a page or a worker for ever.
MAX_MEMBER_PAGES = 50
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"


class TimeoutSession(requests.Session):
    """requests has no session-wide timeout; pylti1p3 passes none, so one is put on every
    request here (connect, read)."""

    def __init__(self, timeout: float):
        super().__init__()
        self.timeout = timeout
        self.headers["User-Agent"] = REQUESTS_USER_AGENT

    def request(self, method, url, **kwargs):  # type: ignore[override]
        kwargs.setdefault("timeout", self.timeout)
        return super().request(method, url, **kwargs)


# What a call to a platform's service may raise: its refusal, the network, an unreadable answer.
# Anything else is a bug here and is left to surface.
SERVICE_ERRORS = (LtiException, requests.RequestException, OSError, ValueError, KeyError, TypeError)


class ServiceUnavailable(Exception):
    """The platform did not answer, timed out, or answered 5xx / 429: try again later."""


class ServiceRefused(Exception):
    """The platform answered a request with a refusal (4xx): sending it again will not help."""


def connector_for(platform: LtiPlatform) -> ServiceConnector:
    session = TimeoutSession(settings.LTI_SERVICE_TIMEOUT_SECONDS)
    return ServiceConnector(tool_registration(platform), requests_session=session)


def platform_message(exc: BaseException) -> str:
    """What the platform said, short enough for the teacher's page."""
    if isinstance(exc, LtiServiceException):
        # The status and the platform's words; never the URL (it may carry a token).
        text = " ".join(exc.response.text.split())
        return f"HTTP {exc.response.status_code}: {text}"[:500]
    if isinstance(exc, requests.Timeout):
        return "The LMS did not answer in time."
    if isinstance(exc, requests.ConnectionError):
        return "The LMS could not be reached."
    return " ".join(str(exc).split())[:500] or exc.__class__.__name__


def classify(exc: BaseException) -> Exception:
    """A failed service call as ServiceUnavailable (retry) or ServiceRefused (give up)."""
    message = platform_message(exc)
    if isinstance(exc, LtiServiceException):
        status = getattr(exc, "response", None)
        code = status.status_code if status is not None else 0
        if code >= 500 or code in (408, 429):
            return ServiceUnavailable(message)
        return ServiceRefused(message)
    if isinstance(exc, (requests.RequestException, OSError)):
        return ServiceUnavailable(message)
    if isinstance(exc, (LtiException, ValueError, KeyError)):
        return ServiceRefused(message)
    return ServiceUnavailable(message)


def members_of(service: ServiceConnector, memberships_url: str) -> list[dict]:
    """Every member of a course (NRPS, page after page, at most MAX_MEMBER_PAGES pages)."""
    nrps = NamesRolesProvisioningService(service, {"context_memberships_url": memberships_url})
    members: list[dict] = []
    url: str | None = memberships_url
    for _page in range(MAX_MEMBER_PAGES):
        if not url:
            return members
        page, url = nrps.get_members_page(url)
        members += [dict(member) for member in page if isinstance(member, dict)]
    raise LtiException(f"The course's roster has more than {MAX_MEMBER_PAGES} pages.")
