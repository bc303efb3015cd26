"""English words no Spanish page shows, and the data a test typed that either language may show."""

from __future__ import annotations

import re

from reports.demo import COMMENTS
from tests.games.conftest import GOOD_SENTENCE

# Data the test typed, and names that are the same in both languages.
DATA = [
    "Room 12 Robotics",
    "Maple Street Elementary",
    "BotBench",
    "Bot-Builders",
    "English + Español",
    "English",
    "Lovely link to the Mission.",
    *GOOD_SENTENCE.values(),
    "it rescues kittens from tall trees",
    *COMMENTS,  # the seeded teacher's comments
]


def english_in(text: str) -> list[str]:
    return sorted({match.group(0) for match in ENGLISH.finditer(text)})


# Whole words (any case) that no Spanish page shows: the categories, the rubric's criteria,
# the lobby's words, and the small words of any English sentence.
ENGLISH_WORDS = [
    "sense",
    "think",
    "act",
    "power",
    "mission",
    "prefers",
    "complete",
    "jobs",
    "link",
    "said",
    "clearly",
    "criterion",
    "join",
    "joined",
    "type",
    "room",
    "code",
    "projector",
    "language",
    "start",
    "tables",
    "playing",
    "phones",
    "cannot",
    "open",
    "address",
    "lobby",
    "the",
    "and",
    "you",
    "your",
    "with",
    "for",
    "of",
    "to",
    "is",
    "are",
    "not",
    "this",
    "that",
    "here",
    "yet",
    "team's",
    "average",
    "scores",
    "maximum",
    "skipped",
    "comment",
    "page",
    "report",
    "session",
    "sessions",
    "assessed",
    "bench",
    "empty",
    "hints",
    "sentence",
    "because",
    "senses",
    "thinks",
    "acts",
    "powered",
]
ENGLISH = re.compile(r"\b(" + "|".join(map(re.escape, ENGLISH_WORDS)) + r")\b", re.IGNORECASE)
