"""Text that can be stored: one place that decides what a database text or jsonb column can
hold, and how a name typed by a person is normalised.

PostgreSQL's text cannot hold NUL ("\\x00", `DataError`), jsonb cannot hold "\\u0000"
(`UntranslatableCharacter`), and neither can hold a lone UTF-16 surrogate, which a JSON string
can spell as "\\ud800" (psycopg cannot encode it). Django's form `CharField` already refuses NUL;
these helpers cover the rest: JSON payloads, file contents, values read without a form.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
UNSTORABLE_MESSAGE = _("That text holds a character that cannot be saved (a NUL or a broken one).")
# Deeper than any move or payload BotBench makes; json.loads itself fails near 1,000 levels.
MAX_JSON_DEPTH = 20


def has_unstorable(text: str) -> bool:
    return UNSTORABLE.search(text) is not None


def validate_storable_text(value: str) -> None:
    """A validator for form and model fields (Django's own stops NUL only)."""
    if isinstance(value, str) and has_unstorable(value):
        raise ValidationError(UNSTORABLE_MESSAGE, code="unstorable")


def storable_json_problem(value: Any, *, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """Why `value` (already parsed JSON) cannot go into a jsonb column, or None if it can.
    Walks without recursion, so a deep value cannot exhaust the stack here either."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            return str(_("That data is nested too deeply."))
        if isinstance(item, str):
            if has_unstorable(item):
                return str(UNSTORABLE_MESSAGE)
        elif isinstance(item, dict):
            for key, child in item.items():
                if has_unstorable(key):
                    return str(UNSTORABLE_MESSAGE)
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return None


def parse_json(text: str, *, max_chars: int, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON sent by a client and check that it can be stored; ValidationError otherwise.
    Size is checked before parsing; `RecursionError` (brackets nested thousands deep) is caught
    because `json.loads` raises it rather than `ValueError`."""
    if len(text) > max_chars:
        raise ValidationError(_("That data is too long."), code="too_long")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise ValidationError(_("That data could not be read."), code="invalid") from None
    problem = storable_json_problem(value, max_depth=max_depth)
    if problem:
        raise ValidationError(problem, code="unstorable")
    return value


class StorableJSONField(forms.Field):
    """A form field holding a JSON object sent by our own pages (a move's action)."""

    default_error_messages = {"not_object": _("That data could not be read.")}

    def __init__(self, *, max_chars: int, **kwargs):
        self.max_chars = max_chars
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Any:
        if value in self.empty_values:
            return None
        value = parse_json(str(value), max_chars=self.max_chars)
        if not isinstance(value, dict):
            raise ValidationError(self.error_messages["not_object"], code="not_object")
        return value


def normalise_name(name: str) -> str:
    """A person's name as stored: Unicode NFC (so "Zoë" typed with a combining diaeresis is
    the same student as "Zoë" typed with one key) and single spaces."""
    return " ".join(unicodedata.normalize("NFC", name).split())
