"""The unchanged poll, answered before the rest of the middleware.

Every live screen polls (on its stream's word, and on a fallback): in a school, most requests are
polls whose answer is "nothing changed" (204, no body), decided from the signed watch token and
one cache read (`games.live.quick_answer`). Sessions, the language, CSRF, authentication,
messages and the content security policy all work for a page; an empty 204 needs none of them,
and running them is most of what such a poll costs. So this middleware sits right after the
security, static-file and no-store layers (config/settings.py) and answers those polls itself; a
poll that has something to draw goes on through the whole stack to the view, which checks
permissions as for any page and draws from the same read of the cache (`live.one_read_a_poll`).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from games import live


class UnchangedPollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response
        self._poll_path: str | None = None

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "GET" or request.path != self.poll_path():
            return self.get_response(request)
        with live.one_read_a_poll():
            answer = live.quick_answer(request.GET.get("t", ""), request.GET.get("v", ""))
            if isinstance(answer, HttpResponse):
                return answer
            return self.get_response(request)

    def poll_path(self) -> str:
        # Reversed on first use (the URLconf is not loaded when middleware is built), with the
        # script prefix, so it compares with `request.path`.
        if self._poll_path is None:
            self._poll_path = reverse("games:poll")
        return self._poll_path
