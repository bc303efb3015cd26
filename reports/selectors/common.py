"""Helpers shared by the report builders."""

from __future__ import annotations

import statistics
from collections.abc import Iterable

from django.db.models import Avg, FloatField, Q
from django.db.models.functions import Cast

from classroom.models import SessionStatus

# Sessions still being prepared have nobody present and nothing played: reports skip them.
REPORTED = ~Q(status=SessionStatus.DRAFT)


def mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return statistics.fmean(values) if values else None


def rate(flags: Iterable[bool]) -> float | None:
    flags = list(flags)
    return sum(1 for f in flags if f) / len(flags) if flags else None


def score_fraction():
    return Avg(Cast("score", FloatField()) / Cast("criterion__max_score", FloatField()))
