"""The reports' tunables, read when used (never at import time).

Each is a Django setting with a default here; the render delay also reads the environment
because the killed-worker test sets it for a worker *subprocess*, whose settings module it
cannot reach any other way. config/settings.py may name any of them to override the default.
"""

from __future__ import annotations

import os
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


def _number(name: str, default: float) -> float:
    value = getattr(settings, name, None)
    if value is None:
        value = os.environ.get(name, default)
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ImproperlyConfigured(f"{name} must be a number, not {value!r}.") from None


def render_delay() -> float:
    """Seconds a render waits before writing its file: 0 except in the killed-worker test."""
    return _number("REPORTS_RENDER_DELAY", 0)


def stuck_after() -> timedelta:
    """A rendering job with no progress for this long is marked failed by the sweeper. Keep it
    longer than the broker's visibility timeout (10 minutes): Redis must first get the chance to
    hand a killed worker's task to another worker, which finishes the job."""
    return timedelta(minutes=_number("REPORTS_STUCK_MINUTES", 15))
