"""Who chooses the language of a page, in one place (docs/i18n.md).

1. A signed-in adult who chose a language on their account page (`User.language`): it wins on
   every computer they sign in on, over the cookie and the browser.
2. Otherwise Django's LocaleMiddleware has already chosen: the device's remembered choice (the
   `django_language` cookie, set by the students' toggle) or else the browser's languages.

The adult is looked up only when the request needs them: the middleware wraps `request.user` so
that resolving it (every adult's view does, through `classroom.access`) also activates their
language, and the `context` processor resolves it before any page is drawn when a session cookie
is there. A request that never needs the user (an unchanged live poll's 204, a student's device)
costs no database query for it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import auth
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.functional import SimpleLazyObject

LANGUAGE_CODES = frozenset(code for code, _ in settings.LANGUAGES)


def user_language(user) -> str:
    """The adult's own language, or "" (follow the device and the browser)."""
    if user is None or not user.is_authenticated:
        return ""
    language = getattr(user, "language", "")
    return language if language in LANGUAGE_CODES else ""


def projector_language(session) -> str | None:
    """The one language a session's projector pages speak (the lobby's choice), or None when
    they speak both: each line in English, then in Spanish, with `{% bilingual %}`."""
    from classroom.models import ProjectorLanguage

    language = session.projector_language
    return None if language == ProjectorLanguage.BOTH else language


def _activate(request: HttpRequest, user) -> None:
    language = user_language(user)
    if language:
        translation.activate(language)
        request.LANGUAGE_CODE = language


class UserLanguageMiddleware:
    """After AuthenticationMiddleware: the signed-in adult's language, when they chose one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Without a session cookie nobody is signed in: nothing to look up.
        if settings.SESSION_COOKIE_NAME in request.COOKIES:

            def load_user():
                # Django's lookup, as AuthenticationMiddleware's lazy `request.user` (replaced
                # here) would make it: once a request, when first needed.
                user = auth.get_user(request)
                _activate(request, user)
                return user

            request.user = SimpleLazyObject(load_user)
        return self.get_response(request)


def context(request: HttpRequest) -> dict:
    """A template context processor: the page's language, settled before anything is drawn
    (it resolves the signed-in adult first, so their choice covers the whole page)."""
    if settings.SESSION_COOKIE_NAME in request.COOKIES and hasattr(request, "user"):
        request.user.is_authenticated  # noqa: B018 - resolving the user activates their language
    return {"LANGUAGE_CODE": translation.get_language() or settings.LANGUAGE_CODE}
