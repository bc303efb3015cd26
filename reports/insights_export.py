"""The insights as tables to download: one CSV file holding every table one after another
(each under its title), or one XLSX workbook with a sheet a table. Built from the same context
as the page, so the words and numbers are the page's, in the language of the report.

Student text goes through `csv_export.safe_cell` in both formats: a cell starting with = + - @
must never run as a formula in a spreadsheet.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.utils.translation import gettext

from games.teachback.hints import BLANK_LABELS
from reports.csv_export import BOM, safe_cell
from reports.insights.sentences import Sentence
from reports.insights_screens import call_outcome, law_text


@dataclass
class Table:
    title: str
    header: list[str]
    rows: list[list]


def sentence_text(sentence: Sentence) -> str:
    """ "Team 3 (Oct 1): senses with …; thinks with …; …; because …"."""
    blanks = "; ".join(
        f"{gettext(label)} {sentence.fields.get(blank, '')}"
        for blank, label in BLANK_LABELS.items()
    )
    return f"{sentence.team} ({sentence.session_label}): {blanks}"


def _heat_table(title: str, heat, first: str) -> Table | None:
    """A heat map as rows of text: each cell's score (or why it has none)."""
    if not heat or not heat.rows:
        return None
    rows = [[label, *[c.text or c.title for c in cells]] for label, _sub, cells in heat.rows]
    return Table(title, [first, *heat.columns], rows)


def tables(context: dict) -> list[Table]:
    insights = context["insights"]
    over_time = context.get("over_time", False)
    out = [
        Table(
            gettext("Teach next"),
            [gettext("Pattern"), gettext("What to do"), gettext("Start with"), gettext("Why")],
            [[r.title, r.action, r.teams, r.why] for r in context["teach_next"]],
        ),
        Table(
            gettext("Misconceptions"),
            [
                gettext("Misconception"),
                gettext("Teams"),
                gettext("Of"),
                gettext("Cards"),
                gettext("Sentences"),
            ],
            [
                [
                    row["text"],
                    row["item"].count,
                    row["item"].of,
                    row["cards"],
                    "\n".join(sentence_text(s) for s in row["item"].sentences),
                ]
                for row in context["misconceptions"]
            ],
        ),
        Table(
            gettext("What the class wrote, blank by blank"),
            [
                gettext("Blank"),
                gettext("What the class wrote"),
                gettext("Category"),
                gettext("Right category?"),
                gettext("Teams"),
                gettext("Sentences"),
            ],
            [
                [
                    table.label,
                    row.answer,
                    row.category,
                    row.verdict,
                    row.count,
                    "\n".join(sentence_text(s) for s in row.sentences),
                ]
                for table in context["blank_tables"]
                for row in table.rows
            ],
        ),
    ]
    heats = (
        [
            (gettext("Rubric by session"), context.get("session_heat"), gettext("Criterion")),
            (gettext("Rubric by student"), context.get("student_heat"), gettext("Student")),
        ]
        if over_time
        else [(gettext("Rubric by team"), context.get("team_heat"), gettext("Team"))]
    )
    for title, heat, first in heats:
        table = _heat_table(title, heat, first)
        if table is not None:
            out.append(table)
    evidence = insights.three_laws
    out.append(
        Table(
            gettext("3 Laws: calls by team"),
            [
                gettext("Team"),
                gettext("Session"),
                gettext("Error calls"),
                gettext("Right"),
                gettext("Wrong"),
                gettext("Counters"),
                gettext("Right counters"),
                gettext("Laws broken"),
            ],
            [
                [
                    t.team,
                    t.session_label,
                    len(t.errors),
                    t.errors_right,
                    t.errors_wrong,
                    len(t.counters),
                    t.counters_right,
                    len(t.broke),
                ]
                for t in evidence.teams
            ],
        )
    )
    out.append(
        Table(
            gettext("3 Laws: laws"),
            [gettext("Law"), gettext("Broken (calls that stood)"), gettext("Wrong calls")],
            [[r.law, r.broken, r.wrong] for r in context["law_rows"]],
        )
    )
    out.append(
        Table(
            gettext("3 Laws: every call"),
            [
                gettext("Session"),
                gettext("Table"),
                gettext("Call"),
                gettext("Kind"),
                gettext("Caller"),
                gettext("On"),
                gettext("Law"),
                gettext("Outcome"),
            ],
            [
                [
                    c.session_label,
                    c.table,
                    c.id,
                    gettext("Error") if c.kind == "error" else gettext("Counter"),
                    c.caller,
                    c.offender,
                    law_text(c.law),
                    call_outcome(c),
                ]
                for c in evidence.calls
            ],
        )
    )
    return out


def to_csv(context: dict) -> bytes:
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.writer(buffer, lineterminator="\r\n")
    for index, table in enumerate(tables(context)):
        if index:
            writer.writerow([])
        writer.writerow([table.title])
        writer.writerow(table.header)
        for row in table.rows:
            writer.writerow([safe_cell(value) for value in row])
    return buffer.getvalue().encode("utf-8")


def _sheet_title(title: str, used: set[str]) -> str:
    # Excel: at most 31 characters, none of []:*?/\ and unique within the workbook.
    clean = "".join(ch for ch in title if ch not in "[]:*?/\\")[:31] or "Sheet"
    name, n = clean, 2
    while name in used:
        suffix = f" {n}"
        name = clean[: 31 - len(suffix)] + suffix
        n += 1
    used.add(name)
    return name


def to_xlsx(context: dict) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    workbook = Workbook()
    workbook.remove(workbook.active)
    used: set[str] = set()
    for table in tables(context):
        sheet = workbook.create_sheet(_sheet_title(table.title, used))
        sheet.append(table.header)
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for row in table.rows:
            sheet.append([safe_cell(value) for value in row])
        for column in sheet.columns:
            longest = max(len(str(c.value or "").split("\n")[0]) for c in column)
            sheet.column_dimensions[column[0].column_letter].width = min(60, max(10, longest + 2))
            for c in column:
                c.alignment = Alignment(wrap_text=True, vertical="top")
        sheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
