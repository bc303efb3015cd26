"""A device's language toggle (students): remembered on that device in Django's
`django_language` cookie, so one class can have English and Spanish devices at once. The cookie
holds only "en" or "es": nothing about the student."""

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from classroom.http import HtmxHttpRequest, safe_next
from classroom.language import LANGUAGE_CODES


@require_POST
def set_language(request: HtmxHttpRequest) -> HttpResponse:
    """Remember `language` on this device and go back to `next` (a path on this site; else the
    join page). A plain form gets a redirect, htmx a full reload (every word on the page
    changes)."""
    to = safe_next(request, default=reverse("classroom:join"))
    response = HttpResponseClientRedirect(to) if request.htmx else redirect(to)
    language = request.POST.get("language", "")
    if language in LANGUAGE_CODES:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE or request.is_secure(),
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response
