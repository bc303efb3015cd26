"""Reads for the four reports. Each builder runs a fixed number of queries whatever the number of
sessions, tables or students (tests/reports/test_selectors.py holds them to it) and returns plain
dataclasses the web pages, the PDFs and the CSV files all draw from.

Results come from `TableGame.results`, the engine's `results()` (best first): Bot-Builders rows
carry score, full_bot, mission_match and four_loop; 3 Laws rows carry vp. Robot seats are shown at
their tables but left out of class averages: they are not the class.
"""

from reports.selectors.progress import (
    ClassReport,
    ClassSummary,
    SchoolReport,
    SessionPoint,
    StudentAttendance,
    class_report,
    school_classes_to_export,
    school_report,
    score_trend,
)
from reports.selectors.session import (
    SeatResult,
    SessionReport,
    TableReport,
    session_report,
)
from reports.selectors.student import StudentReport, StudentSession, student_report

__all__ = [
    "ClassReport",
    "ClassSummary",
    "SchoolReport",
    "SeatResult",
    "SessionPoint",
    "SessionReport",
    "StudentAttendance",
    "StudentReport",
    "StudentSession",
    "TableReport",
    "class_report",
    "school_classes_to_export",
    "school_report",
    "score_trend",
    "session_report",
    "student_report",
]
