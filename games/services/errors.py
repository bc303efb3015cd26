"""Refusals raised by the games services; the message is shown to the person as it is."""

from classroom.services import ServiceError

STALE_MESSAGE = "The table has moved on since your screen was drawn — here is the new state."


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


__all__ = ["STALE_MESSAGE", "MoveRefused", "ServiceError"]
