"""The reports' tunables (config/settings.py reads them from the environment), read when used so
tests can override them with the `settings` fixture."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings


def stuck_after() -> timedelta:
    """A rendering job with no progress for this long is marked failed by the sweeper."""
    return timedelta(minutes=settings.REPORTS_STUCK_MINUTES)


def heartbeat_seconds() -> float:
    """How often a rendering worker shows it is alive (touches the export's row)."""
    return settings.REPORTS_HEARTBEAT_SECONDS


def abandoned_after() -> timedelta:
    """A rendering export whose worker missed three heartbeats: its worker is gone."""
    return timedelta(seconds=3 * settings.REPORTS_HEARTBEAT_SECONDS)


def resend_after() -> timedelta:
    """A queued export no worker started for this long: its task may never have been sent."""
    return timedelta(seconds=settings.REPORTS_RESEND_SECONDS)


def max_attempts() -> int:
    """Attempts the sweeper makes before an export whose workers keep dying is marked failed."""
    return settings.REPORTS_MAX_ATTEMPTS
