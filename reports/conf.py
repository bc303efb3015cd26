"""The reports' tunables (config/settings.py reads them from the environment), read when used so
tests can override them with the `settings` fixture."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings


def render_delay() -> float:
    """Seconds a render waits before writing its file: 0 except in the killed-worker test."""
    return settings.REPORTS_RENDER_DELAY


def stuck_after() -> timedelta:
    """A rendering job with no progress for this long is marked failed by the sweeper."""
    return timedelta(minutes=settings.REPORTS_STUCK_MINUTES)
