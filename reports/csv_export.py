"""Every report table as a CSV file: UTF-8 with a byte-order mark, so spreadsheet programs that
guess the encoding (Excel) show names like "Zoë" or "José" correctly.

A table is declared once (`CsvTable`: report, slug, title, header, rows from the selector's
report); the report pages list the download links from the same declarations. Titles, headers and
the yes/no cells are in the language of the person downloading; the slugs (in the URLs and the
file names) stay English.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from games.engines.i18n import say

BOM = "\ufeff"


def _pct(value: float | None) -> str:
    return "" if value is None else f"{value * 100:.0f}%"


def _num(value: float | None, digits: int = 1) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _yes(flag: bool | None) -> str:
    return pgettext("csv cell", "yes") if flag else pgettext("csv cell", "no")


def safe_cell(value: Any) -> Any:
    """Spreadsheet programs run a cell that starts with = + - @ as a formula: a student's text
    must never do that, so such text gets a leading apostrophe (OWASP's CSV injection advice).
    Numbers are written as numbers and are left alone."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def write_csv(header: list[str], rows: Iterable[list[Any]]) -> bytes:
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([str(h) for h in header])
    for row in rows:
        writer.writerow([safe_cell(v) for v in row])
    return buffer.getvalue().encode("utf-8")


# -- rows for each table --------------------------------------------------------------------


def _session_results(report) -> Iterable[list]:
    for table in report.tables:
        for seat in table.seats:
            bench = seat.bench or {}
            # Card names are the engine's marked words: said in the reader's language.
            parts = [say(s["card"]["name"], gettext) for s in bench.get("slots", []) if s["card"]]
            yield [
                table.number,
                table.kind_label,
                seat.name,
                ", ".join(seat.members),
                (seat.place or "") if table.ranked else "",
                seat.score if seat.score is not None else "",
                "" if table.is_three_laws else _yes(seat.full_bot),
                "" if table.is_three_laws else _yes(seat.mission_match),
                seat.vp if seat.vp is not None else "",
                "; ".join(parts),
            ]


def _teachback_rows(teachbacks) -> Iterable[list]:
    for tb in teachbacks:
        assessment = getattr(tb, "assessment", None)
        scores = "; ".join(
            f"{s.criterion.shown_title}: {gettext('skipped') if s.score is None else s.score}/"
            f"{s.criterion.max_score}"
            for s in (assessment.scores.all() if assessment else [])
        )
        yield [
            tb.team.name,
            tb.senses_with,
            tb.thinks_with,
            tb.acts_with,
            tb.powered_by,
            tb.because,
            scores,
            assessment.comment if assessment else "",
        ]


def _session_teachbacks(report) -> Iterable[list]:
    return _teachback_rows(report.teachbacks)


def _class_sessions(report) -> Iterable[list]:
    for p in report.points:
        yield [
            p.session.date.isoformat(),
            p.session.get_game_display(),
            p.present,
            p.roster,
            _pct(p.participation),
            p.teams,
            _num(p.average_score),
            p.best_score if p.best_score is not None else "",
            _pct(p.full_bot_rate),
            _pct(p.mission_match_rate),
            p.vp_total if p.vp_total is not None else "",
            ", ".join(p.winners),
            p.teachbacks,
            _pct(p.rubric_fraction),
        ]


def _rubric(report) -> Iterable[list]:
    for r in report.rubric:
        yield [r["title"], r["count"], _num(r["average"], 2), _pct(r["fraction"])]


def _class_participation(report) -> Iterable[list]:
    for a in report.attendance:
        yield [a.student.name, a.sessions, a.of, _pct(a.rate)]


def _student_sessions(report) -> Iterable[list]:
    for r in report.rows:
        yield [
            r.session.date.isoformat(),
            r.session.get_game_display(),
            r.team.name,
            r.table or "",
            r.place or "",
            r.teams_at_table or "",
            r.score if r.score is not None else "",
            _yes(r.full_bot) if r.kind == "bot_builders" else "",
            r.vp if r.vp is not None else "",
        ]


def _student_teachbacks(report) -> Iterable[list]:
    return _teachback_rows([r.teachback for r in report.rows if r.teachback])


def _school_classes(report) -> Iterable[list]:
    for c in report.classes:
        yield [
            c.classroom.name,
            str(c.classroom.teacher),
            c.classroom.grade,
            c.students,
            c.sessions,
            _pct(c.participation),
            _num(c.average_score),
            _pct(c.full_bot_rate),
            _pct(c.rubric_fraction),
            _num(c.trend),
        ]


TEACHBACK_HEADER = [
    _("Team"),
    _("Senses with"),
    _("Thinks with"),
    _("Acts with"),
    _("Powered by"),
    _("Because"),
    _("Rubric scores"),
    _("Comment"),
]
RUBRIC_HEADER = [
    _("Criterion"),
    _("Scores"),
    _("Average"),
    # xgettext:no-python-format
    _("Average (% of maximum)"),
]


@dataclass(frozen=True)
class CsvTable:
    report: str
    slug: str
    title: str
    header: list[str]
    rows: Callable[[Any], Iterable[list]]

    def render(self, report: Any) -> bytes:
        return write_csv(self.header, self.rows(report))


TABLES: tuple[CsvTable, ...] = (
    CsvTable(
        "session",
        "results",
        _("Results by table"),
        [
            _("Table"),
            _("Game"),
            _("Team"),
            _("Members"),
            _("Place"),
            _("Score"),
            _("Full Bot"),
            _("Mission match"),
            _("Victory Points"),
            _("Final bench"),
        ],
        _session_results,
    ),
    CsvTable("session", "teachbacks", _("Teach-backs"), TEACHBACK_HEADER, _session_teachbacks),
    CsvTable("session", "rubric", _("Rubric averages"), RUBRIC_HEADER, _rubric),
    CsvTable(
        "class",
        "sessions",
        _("Sessions"),
        [
            _("Date"),
            _("Game"),
            _("Present"),
            _("Roster"),
            _("Participation"),
            _("Teams"),
            _("Average score"),
            _("Best score"),
            _("Full Bot rate"),
            _("Mission-match rate"),
            _("Victory Points"),
            _("3 Laws winners"),
            _("Teach-backs"),
            _("Rubric average"),
        ],
        _class_sessions,
    ),
    CsvTable("class", "rubric", _("Rubric averages"), RUBRIC_HEADER, _rubric),
    CsvTable(
        "class",
        "participation",
        _("Participation"),
        [_("Student"), _("Sessions present"), _("Sessions held"), _("Participation")],
        _class_participation,
    ),
    CsvTable(
        "student",
        "sessions",
        _("Sessions"),
        [
            _("Date"),
            _("Game"),
            _("Team"),
            _("Table"),
            _("Place"),
            _("Teams at table"),
            _("Score"),
            _("Full Bot"),
            _("Victory Points"),
        ],
        _student_sessions,
    ),
    CsvTable("student", "teachbacks", _("Teach-backs"), TEACHBACK_HEADER, _student_teachbacks),
    CsvTable(
        "school",
        "classes",
        _("Classes"),
        [
            _("Class"),
            _("Teacher"),
            _("Grade"),
            _("Students"),
            _("Sessions"),
            _("Participation"),
            _("Average score"),
            _("Full Bot rate"),
            _("Rubric average"),
            _("Score trend"),
        ],
        _school_classes,
    ),
    CsvTable("school", "rubric", _("Rubric averages"), RUBRIC_HEADER, _rubric),
)


def tables_for(report: str) -> list[CsvTable]:
    return [t for t in TABLES if t.report == report]


def get_table(report: str, slug: str) -> CsvTable | None:
    return next((t for t in TABLES if t.report == report and t.slug == slug), None)
