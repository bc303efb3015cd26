"""Each report's template context: the selector's data plus its charts. The web page and the PDF
render the same context (and the same table partials), so what is exported is what was seen.
Chart words are translated when the context is built: in the page's language, or in the
export's (the worker builds it under `translation.override`)."""

from __future__ import annotations

from django.utils.translation import gettext

from classroom.models import Classroom, School, Session, Student
from games.engines.bot_builders import MAX_SCORE
from reports import charts, selectors
from reports.csv_export import tables_for


def _chart_list(*items: charts.Chart | None) -> list[charts.Chart]:
    return [c for c in items if c is not None]


def session_screen(session: Session) -> dict:
    report = selectors.session_report(session)
    rubric_chart = None
    if report.rubric:
        rubric_chart = charts.bar_chart(
            gettext("Rubric averages by criterion"),
            [r["title"] for r in report.rubric],
            [(gettext("Average"), [r["fraction"] for r in report.rubric])],
            description=gettext(
                "Average teach-back rubric score for each criterion, as a percentage of its "
                "maximum."
            ),
            percent=True,
            horizontal=True,
        )
    return {
        "report": report,
        "classroom": report.classroom,
        "school": report.school,
        "subject": str(session),
        "charts": _chart_list(rubric_chart),
        "csv_tables": tables_for("session"),
        "csv_args": [session.pk],
    }


def class_charts(report: selectors.ClassReport) -> list[charts.Chart]:
    points = report.points
    labels = [p.label for p in points]
    bb = report.bot_builders_points
    bb_labels = [p.label for p in bb]
    out: list[charts.Chart | None] = []
    if bb:
        out.append(
            charts.line_chart(
                gettext("Bot-Builders score over sessions"),
                bb_labels,
                [
                    (gettext("Average score"), [p.average_score for p in bb]),
                    (gettext("Best score"), [p.best_score for p in bb]),
                ],
                description=gettext(
                    "Average and best Bot-Builders score of the class's teams at each session."
                ),
                y_max=MAX_SCORE,
            )
        )
        out.append(
            charts.line_chart(
                gettext("Full Bot and Mission-match rate"),
                bb_labels,
                [
                    (gettext("Full Bot"), [p.full_bot_rate for p in bb]),
                    (gettext("Mission match"), [p.mission_match_rate for p in bb]),
                ],
                description=gettext(
                    "Share of teams that finished with a Full Bot, and with a Mission matching "
                    "their parts, at each session."
                ),
                percent=True,
            )
        )
    if report.three_laws_points:
        tl = report.three_laws_points
        out.append(
            charts.bar_chart(
                gettext("3 Laws: Victory Points per session"),
                [p.label for p in tl],
                [(gettext("Average VP per team"), [round(p.vp_average or 0, 1) for p in tl])],
                description=gettext("Average Victory Points per team at each 3 Laws session."),
            )
        )
    if report.rubric:
        out.append(
            charts.bar_chart(
                gettext("Rubric averages by criterion"),
                [r["title"] for r in report.rubric],
                [(gettext("Average"), [r["fraction"] for r in report.rubric])],
                description=gettext(
                    "Average teach-back rubric score for each criterion over every session, as "
                    "a percentage of its maximum."
                ),
                percent=True,
                horizontal=True,
            )
        )
    if points:
        out.append(
            charts.bar_chart(
                gettext("Participation"),
                labels,
                [(gettext("Present"), [p.participation for p in points])],
                description=gettext("Share of the class present at each session."),
                percent=True,
            )
        )
    return _chart_list(*out)


def class_screen(classroom: Classroom) -> dict:
    report = selectors.class_report(classroom)
    return {
        "report": report,
        "classroom": classroom,
        "school": report.school,
        "subject": classroom.name,
        "charts": class_charts(report),
        "csv_tables": tables_for("class"),
        "csv_args": [classroom.pk],
    }


def student_screen(student: Student) -> dict:
    report = selectors.student_report(student)
    scored = report.scored
    chart = None
    if len(scored) >= 2:
        chart = charts.line_chart(
            gettext("%(name)s's team score over sessions") % {"name": student.name},
            [r.label for r in scored],
            [(gettext("Team score"), [r.score for r in scored])],
            description=gettext("Bot-Builders score of %(name)s's team at each session.")
            % {"name": student.name},
            y_max=MAX_SCORE,
        )
    return {
        "report": report,
        "classroom": report.classroom,
        "school": report.school,
        "subject": student.name,
        "teachbacks": [r.teachback for r in report.rows if r.teachback],
        "charts": _chart_list(chart),
        "csv_tables": tables_for("student"),
        "csv_args": [student.pk],
    }


def school_screen(school: School) -> dict:
    report = selectors.school_report(school)
    active = [c for c in report.classes if c.sessions]
    out: list[charts.Chart | None] = []
    if active:
        names = [c.classroom.name for c in active]
        out.append(
            charts.bar_chart(
                gettext("Sessions run per class"),
                names,
                [(gettext("Sessions"), [c.sessions for c in active])],
                description=gettext("Number of sessions each class has run."),
                horizontal=True,
            )
        )
        out.append(
            charts.bar_chart(
                gettext("Participation and rubric average per class"),
                names,
                [
                    (gettext("Participation"), [c.participation for c in active]),
                    (gettext("Rubric average"), [c.rubric_fraction for c in active]),
                ],
                description=gettext(
                    "Average share of each class present at its sessions, and its average "
                    "teach-back rubric score as a percentage of the maximum."
                ),
                percent=True,
                horizontal=True,
            )
        )
    return {
        "report": report,
        "classroom": None,
        "school": school,
        "subject": school.name,
        "charts": _chart_list(*out),
        "csv_tables": tables_for("school"),
        "csv_args": [],
    }
