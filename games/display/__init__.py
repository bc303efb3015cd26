"""Turning engine views and events into what a page shows, one module per game."""

from collections.abc import Callable, Iterable


def narrate_moves(
    moves: Iterable, names: dict[str, str], narrate: Callable[[dict, dict[str, str]], str | None]
) -> list[str]:
    """The plain-words lines for `moves` (newest first), newest line first, using one game's
    `narrate(event, names)`; events it has nothing to say about are left out."""
    lines = []
    for move in moves:
        for event in reversed(move.events):
            line = narrate(event, names)
            if line:
                lines.append(line)
    return lines
