"""The small pieces every app's views share: the request type with django-htmx's details, the
one ending of a POST that htmx and plain forms both make, and the safe `next` address."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's middleware (django-htmx `example/`)."""

    htmx: HtmxDetails


def htmx_or_redirect(
    request: HtmxHttpRequest,
    partial: Callable[[], HttpResponse],
    to: str,
    *,
    success: str = "",
    error: str = "",
    info: str = "",
) -> HttpResponse:
    """End a POST: htmx gets the re-drawn partial (which shows its own notice or error), a
    plain form gets the outcome as a message and a redirect to `to` (a URL or a URL name)."""
    if request.htmx:
        return partial()
    if error:
        messages.error(request, error)
    elif success:
        messages.success(request, success)
    if info:
        messages.info(request, info)
    return redirect(to)


def safe_next(request: HttpRequest, default: str | None = None) -> str | None:
    """The `next` address a form carries (POST, else the query), only when it stays on this
    site; otherwise `default`."""
    target = request.POST.get("next") or request.GET.get("next")
    # A path only: redirect() takes a bare word for a URL name and fails to find it (a 500).
    if (
        target
        and target.startswith("/")
        and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        return target
    return default
