"""Pages are never kept in a browser's cache unless their view says otherwise.

Students share Chromebooks: a device page, a roster or a report left in the cache can be
brought back with the Back button or read from disk by the next person on the machine. Every
dynamic page of BotBench either shows a student's data or belongs to a signed-in adult or a
joined device, so "no-store" is the default rather than a decorator each new view must
remember. A view that sets its own Cache-Control (the printable cards, the same for everyone)
keeps it; static files are answered by WhiteNoise before this middleware runs.
"""

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.http import http_date

# What django.utils.cache.add_never_cache_headers writes on a response without Cache-Control,
# written directly: it parses and rebuilds the header twice, about a tenth of what an unchanged
# live poll costs, and every response passes here.
NEVER_CACHE = "max-age=0, no-cache, no-store, must-revalidate, private"


class NoStoreMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not response.has_header("Cache-Control"):
            response.headers["Cache-Control"] = NEVER_CACHE
            response.headers.setdefault("Expires", http_date(time.time()))
        return response
