"""Absolute addresses for phones and e-mails: BOTBENCH_SITE_URL when it is set, else the
address the teacher's browser used (which phones may not be able to reach)."""

from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse

from classroom.models import Session

# Addresses that name the teacher's own computer: a phone that opens them reaches itself.
LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0"}  # noqa: S104 (a name, not a bind)


def site_url(request: HttpRequest) -> str:
    """The site's origin, without a trailing slash."""
    return settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")


def join_link(request: HttpRequest, session: Session) -> str:
    return f"{site_url(request)}{reverse('classroom:join')}?code={session.room_code}"


def join_link_parts(link: str) -> list[str]:
    """The link in the two pieces a page may wrap it between: the origin, and the path with
    the room code (which must never be cut)."""
    origin, found, rest = link.partition("/join")
    return [origin, found + rest] if found else [link]


def unreachable_from_phones(link: str) -> bool:
    """True when `link` names the teacher's own computer (phones cannot reach it)."""
    host = (urlsplit(link).hostname or "").lower()
    return host in LOOPBACK_HOSTS or host.startswith("127.") or host.endswith(".localhost")
