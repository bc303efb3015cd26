"""The reports' tunables (config/settings.py reads them from the environment), read when used so
tests can override them with the `settings` fixture."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings


def stuck_after() -> timedelta:
    """A rendering job with no progress for this long is marked failed by the sweeper."""
    return timedelta(minutes=settings.REPORTS_STUCK_MINUTES)
