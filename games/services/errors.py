"""Refusals raised by the games services; the message is shown to the person as it is."""

from django.utils.translation import gettext, gettext_lazy

from classroom.services import ServiceError
from games.engines.i18n import say

STALE_MESSAGE = gettext_lazy(
    "The table has moved on since your screen was drawn — here is the new state."
)


class MoveRefused(ServiceError):
    """A move or control the table does not accept now. `reason` lets a view pick how to
    answer (a stale screen is re-drawn; an illegal move shows the engine's words)."""

    STALE = "stale"
    ILLEGAL = "illegal"
    PAUSED = "paused"
    OVER = "over"
    INVALID = "invalid"

    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def refusal_text(exc: Exception) -> str:
    """An engine's refusal (IllegalAction, or a bad setup's ValueError) in the language of the
    request: its `Reason` translated, or its plain words. The one place a refusal is put into
    words: the services raise their refusal with them, and the views show it as it is."""
    message = exc.args[0] if exc.args else ""
    return say(message, gettext) if isinstance(message, str) else str(exc)


__all__ = ["STALE_MESSAGE", "MoveRefused", "ServiceError", "refusal_text"]
