"""Counting wrong room codes per client address in the shared cache (Redis in production), so
guessing codes is slow no matter which web process answers."""

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

JOIN_LIMIT = 10
JOIN_WINDOW_SECONDS = 5 * 60


def client_address(request: HttpRequest) -> str:
    """The student's address. Behind BOTBENCH_PROXY_HOPS trusted proxies it is that many entries
    from the right of X-Forwarded-For (entries further left are the client's to forge);
    otherwise every student would share the proxy's address and one class's typos would lock
    out the whole school."""
    hops = settings.BOTBENCH_PROXY_HOPS
    if hops:
        forwarded = [
            part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        ]
        forwarded = [part for part in forwarded if part]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return request.META.get("REMOTE_ADDR", "unknown")


def _key(request: HttpRequest) -> str:
    return f"join-miss:{client_address(request)}"


def join_blocked(request: HttpRequest) -> bool:
    return (cache.get(_key(request)) or 0) >= JOIN_LIMIT


def note_join_miss(request: HttpRequest) -> int:
    """Count one wrong code; the window starts with the first miss."""
    key = _key(request)
    cache.add(key, 0, timeout=JOIN_WINDOW_SECONDS)  # atomic: only the first miss creates it
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=JOIN_WINDOW_SECONDS)
        return 1
