"""Reading roster input (pasted lines or a CSV file) into names and birth months: pure
functions, no database. Every problem is reported with its line number, and a caller saves
nothing unless the whole input is good."""

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext

from classroom.validators import has_unstorable, normalise_name

MAX_NAME_LENGTH = 60
MAX_CSV_BYTES = 200 * 1024
MAX_ROWS = 200
_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
# The header row may be written in English or in Spanish (the roster page names both). A header
# is compared lowercased, with single spaces and underscores taken as the same.
_NAME_HEADERS = {"name", "first name", "nickname", "nombre", "primer nombre", "apodo"}
_MONTH_HEADERS = {
    "birth month",
    "birthmonth",
    "mes de nacimiento",
    "mes nacimiento",
    "mesdenacimiento",
}


def _header(cell: str) -> str:
    return " ".join(cell.replace("_", " ").lower().split())


@dataclass(frozen=True)
class RosterEntry:
    line: int
    name: str
    birth_month: str = ""


class RosterError(ValueError):
    """The input is refused; `problems` lists each one in plain words."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def _entry(line: int, name: str, month: str, problems: list[str]) -> RosterEntry | None:
    name = normalise_name(name)
    month = month.strip()
    if not name:
        problems.append(gettext("Line %(line)s: the name is empty.") % {"line": line})
        return None
    if has_unstorable(name) or has_unstorable(month):
        problems.append(
            gettext(
                "Line %(line)s: the line holds a character that cannot be saved (a NUL or a "
                "broken one). Retype it."
            )
            % {"line": line}
        )
        return None
    if len(name) > MAX_NAME_LENGTH:
        problems.append(
            gettext("Line %(line)s: “%(name)s…” is longer than %(max)s letters.")
            % {"line": line, "name": name[:20], "max": MAX_NAME_LENGTH}
        )
        return None
    if month and not _MONTH.match(month):
        problems.append(
            gettext("Line %(line)s: birth month “%(month)s” is not YYYY-MM (for example 2015-04).")
            % {"line": line, "month": month}
        )
        return None
    return RosterEntry(line=line, name=name, birth_month=month)


def parse_pasted(text: str) -> list[RosterEntry]:
    """One student a line: `Name` or `Name, YYYY-MM`. Blank lines are skipped."""
    problems: list[str] = []
    entries = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        name, _, month = raw.partition(",")
        entry = _entry(number, name, month, problems)
        if entry:
            entries.append(entry)
    if not entries and not problems:
        problems.append(gettext("Type or paste at least one name, one a line."))
    if len(entries) > MAX_ROWS:
        problems.append(
            gettext("That is %(count)s names; add at most %(max)s at a time.")
            % {"count": len(entries), "max": MAX_ROWS}
        )
    if problems:
        raise RosterError(problems)
    return entries


def too_big_message(size: int) -> str:
    return gettext("The file is %(size)s KB; a roster file may be at most 200 KB.") % {
        "size": size // 1024
    }


def decode_csv(data: bytes) -> str:
    if len(data) > MAX_CSV_BYTES:
        raise RosterError([too_big_message(len(data))])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RosterError(
            [gettext("The file is not UTF-8 text. Save it as “CSV UTF-8” and upload it again.")]
        ) from None


def parse_csv(data: bytes) -> list[RosterEntry]:
    """Columns `name` and optional `birth_month` (YYYY-MM), or in Spanish `nombre` and
    `mes_de_nacimiento`; the header row is optional."""
    text = decode_csv(data)
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        raise RosterError(
            [gettext("The file is not a readable CSV file: %(error)s.") % {"error": exc}]
        ) from None
    problems: list[str] = []
    name_col, month_col, start = 0, 1, 0
    header = [_header(cell) for cell in rows[0]] if rows else []
    if set(header) & (_NAME_HEADERS | _MONTH_HEADERS):
        known = _NAME_HEADERS | _MONTH_HEADERS
        unknown = [
            cell.strip() for cell, h in zip(rows[0], header, strict=True) if h and h not in known
        ]
        if unknown:
            # Students are minors: only the columns BotBench keeps are accepted.
            raise RosterError(
                [
                    gettext(
                        "Line 1: unknown column “%(column)s”. Only name and birth_month (in "
                        "Spanish nombre and mes_de_nacimiento) are kept; remove the other "
                        "columns and upload again."
                    )
                    % {"column": unknown[0]}
                ]
            )
        name_col = next((i for i, h in enumerate(header) if h in _NAME_HEADERS), None)
        if name_col is None:
            raise RosterError([gettext("Line 1: the header has no name column.")])
        month_col = next((i for i, h in enumerate(header) if h in _MONTH_HEADERS), None)
        start = 1
    entries = []
    for number, row in enumerate(rows[start:], start=start + 1):
        if not any(cell.strip() for cell in row):
            continue
        if start == 0 and len(row) > 2:
            problems.append(
                gettext(
                    "Line %(line)s: %(count)s columns; expected a name and an optional birth month."
                )
                % {"line": number, "count": len(row)}
            )
            continue
        name = row[name_col] if name_col < len(row) else ""
        month = row[month_col] if month_col is not None and month_col < len(row) else ""
        entry = _entry(number, name, month, problems)
        if entry:
            entries.append(entry)
    if len(entries) + len(problems) > MAX_ROWS:
        raise RosterError(
            [
                gettext("The file has more than %(max)s students; split it in two.")
                % {"max": MAX_ROWS}
            ]
        )
    if not entries and not problems:
        problems.append(gettext("The file has no names in it."))
    if problems:
        raise RosterError(problems)
    return entries


def duplicate_problems(entries: Iterable[RosterEntry], existing: Iterable[str]) -> list[str]:
    """Names repeated in the input, or already on the roster (case-insensitive)."""
    on_roster = {name.casefold() for name in existing}
    seen: dict[str, int] = {}
    problems = []
    for entry in entries:
        key = entry.name.casefold()
        if key in on_roster:
            problems.append(
                gettext("Line %(line)s: %(name)s is already in this class.")
                % {"line": entry.line, "name": entry.name}
            )
        elif key in seen:
            problems.append(
                gettext(
                    "Line %(line)s: %(name)s is also on line %(other)s. Add an initial or a "
                    "nickname to tell them apart."
                )
                % {"line": entry.line, "name": entry.name, "other": seen[key]}
            )
        else:
            seen[key] = entry.line
    return problems
