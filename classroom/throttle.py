"""Counting wrong room codes per client address in the shared cache (Redis in production), so
guessing codes is slow no matter which web process answers."""

from django.core.cache import cache
from django.http import HttpRequest

JOIN_LIMIT = 10
JOIN_WINDOW_SECONDS = 5 * 60


def _key(request: HttpRequest) -> str:
    return f"join-miss:{request.META.get('REMOTE_ADDR', 'unknown')}"


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
