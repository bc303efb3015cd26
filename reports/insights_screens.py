"""The insights pages' context, in the reader's words: the selector's results turned into rows
of text the web page, the PDF and the CSV/XLSX files all show the same way (translated when
the context is built: in the page's language, or in the export's)."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils import translation
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, gettext_noop, ngettext

from classroom.models import Classroom, Session, Student
from games.engines.bot_builders.cards import CATEGORY_NAMES
from games.engines.three_laws import LAWS
from games.teachback.hints import BLANK_LABELS, CATEGORY_LABELS
from reports.insights import progress
from reports.insights import teach_next as rules
from reports.insights.blanks import BlankGroup
from reports.insights.misconceptions import NO_PURPOSE, NOT_ON_BENCH, WRONG_CATEGORY, Misconception
from reports.insights.sentences import Sentence
from reports.insights.teach_next import Suggestion
from reports.selectors import insights as selector
from reports.selectors.insights import HeatMap, Insights, Score

# The sentence frame the report pages use (templates/reports/tables/_teachbacks.html), worded
# once per language and filled once per sentence: a class's year holds hundreds of sentences,
# each behind several groups, and a template per appearance costs seconds.
SENTENCE_FRAME = gettext_noop(
    "My bot senses with <strong>%(senses)s</strong>, thinks with <strong>%(thinks)s</strong>, "
    "acts with <strong>%(acts)s</strong>, powered by <strong>%(powered)s</strong>, because "
    "<strong>%(because)s</strong>."
)
FRAME_VALUES = {
    "senses": "senses_with",
    "thinks": "thinks_with",
    "acts": "acts_with",
    "powered": "powered_by",
    "because": "because",
}


@dataclass(frozen=True)
class Shown:
    """A sentence as the page shows it: its frame in the language it was written in, and the
    spotlight URL of its session."""

    sentence: Sentence
    html: str
    spotlight_url: str


class SentenceShower:
    def __init__(self) -> None:
        self._frames: dict[str, str] = {}
        self._shown: dict[int, Shown] = {}
        self._urls: dict[int, str] = {}
        self._viewer = get_language() or "en"

    def _frame(self, language: str) -> str:
        if language not in self._frames:
            with translation.override(language):
                self._frames[language] = gettext(SENTENCE_FRAME)
        return self._frames[language]

    def __call__(self, sentence: Sentence) -> Shown:
        found = self._shown.get(sentence.id)
        if found is None:
            values = {
                key: conditional_escape(sentence.fields.get(blank) or "")
                for key, blank in FRAME_VALUES.items()
            }
            html = self._frame(sentence.language) % values
            if not self._viewer.startswith(sentence.language):
                html = format_html('<span lang="{}">{}</span>', sentence.language, mark_safe(html))  # noqa: S308
            if sentence.session_id not in self._urls:
                self._urls[sentence.session_id] = reverse(
                    "games:spotlight", args=[sentence.session_id]
                )
            found = Shown(sentence, mark_safe(html), self._urls[sentence.session_id])  # noqa: S308 -- escaped above
            self._shown[sentence.id] = found
        return found

    def all(self, sentences: list[Sentence]) -> list[Shown]:
        return [self(s) for s in sentences]


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def _names(names: list[str], limit: int = 6) -> str:
    shown = ", ".join(names[:limit])
    if len(names) > limit:
        shown += " " + gettext("and %(count)s more") % {"count": len(names) - limit}
    return shown


def blank_label(blank: str | None) -> str:
    return gettext(BLANK_LABELS[blank]) if blank else ""


def cards_text(item: Misconception) -> str:
    """ "Drive wheels ×4, Propeller ×2"."""
    return ", ".join(f"{gettext(card.name)} ×{count}" for card, count in item.card_counts)


def misconception_text(item: Misconception) -> str:
    values = {"count": item.count, "of": item.of}
    if item.kind == WRONG_CATEGORY:
        return ngettext(
            "%(count)s of %(of)s team named %(named)s where %(wanted)s belongs (“%(blank)s”)",
            "%(count)s of %(of)s teams named %(named)s where %(wanted)s belongs (“%(blank)s”)",
            item.of,
        ) % {
            **values,
            "named": gettext(CATEGORY_LABELS[item.named]),
            "wanted": gettext(CATEGORY_LABELS[item.wanted]),
            "blank": blank_label(item.blank),
        }
    if item.kind == NO_PURPOSE:
        return (
            ngettext(
                "%(count)s of %(of)s team wrote a “because” that names neither the Mission nor a "
                "purpose",
                "%(count)s of %(of)s teams wrote a “because” that names neither the Mission nor a "
                "purpose",
                item.of,
            )
            % values
        )
    return (
        ngettext(
            "%(count)s of %(of)s team named a part that is not on its own bench",
            "%(count)s of %(of)s teams named a part that is not on their own bench",
            item.of,
        )
        % values
    )


def _action(item: Misconception) -> str:
    if item.kind == WRONG_CATEGORY:
        return gettext(
            "Sort the cards by job again and ask what %(wanted)s does; the cards they named "
            "instead: %(cards)s."
        ) % {"wanted": gettext(CATEGORY_LABELS[item.wanted]), "cards": cards_text(item)}
    if item.kind == NO_PURPOSE:
        return gettext("Model a “because” that ties the parts to the Mission: “…so that it can…”.")
    if item.kind == NOT_ON_BENCH:
        return gettext(
            "Ask teams to check their sentence against their own bench before they send it."
        )
    return ""


def law_text(law: str | None) -> str:
    return gettext(LAWS[law]) if law in LAWS else (law or "")


@dataclass
class TeachNextRow:
    title: str
    action: str
    teams: str
    why: str


def teach_next_rows(suggestions: list[Suggestion]) -> list[TeachNextRow]:
    rows = []
    for s in suggestions:
        why = gettext("It concerns %(share)s (%(count)s of %(of)s).") % {
            "share": _pct(s.share),
            "count": s.count,
            "of": s.of,
        }
        if s.source == rules.MISCONCEPTION:
            title = misconception_text(s.misconception)
            action = _action(s.misconception)
        elif s.source == rules.CRITERION:
            title = ngettext(
                "%(count)s of %(of)s team scored under half on “%(criterion)s”",
                "%(count)s of %(of)s teams scored under half on “%(criterion)s”",
                s.of,
            ) % {"count": s.count, "of": s.of, "criterion": s.criterion.label}
            action = gettext("Go over what “%(criterion)s” asks for, with a strong example.") % {
                "criterion": s.criterion.label
            }
        else:
            title = ngettext(
                "%(count)s of %(of)s Error call naming “%(law)s” was wrong",
                "%(count)s of %(of)s Error calls naming “%(law)s” were wrong",
                s.of,
            ) % {"count": s.count, "of": s.of, "law": law_text(s.law.law)}
            action = gettext("Act out what breaking this law looks like, and what does not.")
        rows.append(TeachNextRow(title, action, _names(s.teams), why))
    return rows


def rules_text() -> str:
    return gettext(
        "Chosen by fixed rules: a misconception, a rubric criterion scored under half its "
        "maximum, or a law named by wrong Error calls; it must concern at least %(teams)s teams "
        "(or calls) and at least %(share)s of them; the largest share comes first and at most "
        "%(limit)s are shown."
    ) % {"teams": rules.MIN_TEAMS, "share": _pct(rules.MIN_SHARE), "limit": rules.LIMIT}


# -- blanks -----------------------------------------------------------------------------------


def group_answer(group: BlankGroup) -> str:
    if group.card is not None:
        return gettext(group.card.name)
    if group.category is not None:
        return gettext("%(kind)s (which one is not clear)") % {
            "kind": gettext(CATEGORY_LABELS[group.category])
        }
    return group.label


def group_category(group: BlankGroup) -> str:
    return gettext(CATEGORY_NAMES[group.category]) if group.category else ""


def group_verdict(group: BlankGroup) -> str:
    if group.right is None:
        return gettext("names no card") if group.blank != "because" else ""
    return gettext("right category") if group.right else gettext("wrong category")


@dataclass
class GroupRow:
    key: str
    answer: str
    category: str
    verdict: str
    right: bool | None
    count: int
    sentences: list[Sentence]
    shown: list[Shown]


@dataclass
class BlankTable:
    blank: str
    label: str
    wanted: str
    total: int
    wrong: int
    rows: list[GroupRow]


def blank_tables(insights: Insights, shower: SentenceShower) -> list[BlankTable]:
    return [
        BlankTable(
            summary.blank,
            blank_label(summary.blank),
            gettext(CATEGORY_NAMES[summary.wanted]) if summary.wanted else "",
            summary.total,
            summary.wrong,
            [
                GroupRow(
                    g.key,
                    group_answer(g),
                    group_category(g),
                    group_verdict(g),
                    g.right,
                    g.count,
                    g.sentences,
                    shower.all(g.sentences),
                )
                for g in summary.groups
            ],
        )
        for summary in insights.blanks
    ]


# -- heat maps --------------------------------------------------------------------------------


@dataclass
class Cell:
    text: str
    level: int | None
    # Words for a screen reader and the printout where the text alone is not enough.
    title: str = ""


def cell(score: Score | None) -> Cell:
    if score is None:
        return Cell("", None, gettext("no score"))
    if score.score is None and score.max_score is not None:
        return Cell("–", None, gettext("skipped"))
    if score.score is not None:
        return Cell(f"{score.score}/{score.max_score}", score.level)
    return Cell(_pct(score.fraction), score.level)


def criterion_heading(insights: Insights, criterion_id: str) -> str:
    criterion = next(c for c in insights.criteria if c.id == criterion_id)
    shared = sum(1 for c in insights.criteria if c.key == criterion.key) > 1
    if shared or len({v for c in insights.criteria for v in c.versions}) > 1:
        return gettext("%(title)s (max %(max)s, rubric %(versions)s)") % {
            "title": criterion.title,
            "max": criterion.max_score,
            "versions": criterion.version_label,
        }
    return criterion.title


@dataclass
class HeatTable:
    columns: list[str]
    rows: list[tuple[str, str, list[Cell]]]  # (label, sub-label, cells)


def heat_table(insights: Insights, heat: HeatMap, *, rows_are_criteria: bool = False) -> HeatTable:
    labels = {s.pk: s.label for s in insights.sessions}
    columns = (
        heat.columns
        if rows_are_criteria
        else [criterion_heading(insights, c) for c in heat.columns]
    )
    rows = []
    for row in heat.rows:
        label = criterion_heading(insights, row.label) if rows_are_criteria else row.label
        sub = labels.get(row.session_id, "") if row.session_id else ""
        rows.append((label, sub, [cell(c) for c in row.cells]))
    return HeatTable(columns, rows)


def levels_legend() -> list[tuple[int, str]]:
    return [
        (0, gettext("under a third of the maximum")),
        (1, gettext("a third to two thirds")),
        (2, gettext("two thirds or more")),
        (3, gettext("the maximum")),
    ]


# -- 3 Laws -----------------------------------------------------------------------------------


@dataclass
class LawRow:
    law: str
    broken: int
    wrong: int


def law_rows(insights: Insights) -> list[LawRow]:
    return [
        LawRow(law_text(t.law), t.broken, t.wrong)
        for t in sorted(insights.three_laws.laws, key=lambda t: (-t.wrong, -t.broken, t.law))
    ]


def call_outcome(call) -> str:
    if call.right:
        return gettext("stood: right")
    if call.status == "countered":
        return gettext("countered: wrong")
    return gettext("voided by the teacher: wrong")


# -- whole pages ------------------------------------------------------------------------------


def misconception_rows(insights: Insights, shower: SentenceShower) -> list[dict]:
    return [
        {
            "item": item,
            "text": misconception_text(item),
            "cards": cards_text(item),
            "shown": shower.all(item.sentences),
            "trend": [
                insights.by_session.get(item.key, {}).get(s.pk, 0)
                for s in insights.bot_builders_sessions
            ],
        }
        for item in insights.misconceptions
    ]


def _common(insights: Insights) -> dict:
    shower = SentenceShower()
    return {
        "insights": insights,
        "teach_next": teach_next_rows(insights.teach_next),
        "rules": rules_text(),
        "misconceptions": misconception_rows(insights, shower),
        "blank_tables": blank_tables(insights, shower),
        "law_rows": law_rows(insights),
        "legend": levels_legend(),
    }


def session_insights_screen(session: Session) -> dict:
    insights = selector.session_insights(session)
    return {
        **_common(insights),
        "session": session,
        "classroom": session.classroom,
        "school": session.classroom.school,
        "subject": str(session),
        "team_heat": heat_table(insights, selector.team_heat(insights)),
        "over_time": False,
    }


def class_insights_screen(classroom: Classroom) -> dict:
    insights = selector.class_insights(classroom)
    return {
        **_common(insights),
        "session": None,
        "classroom": classroom,
        "school": classroom.school,
        "subject": classroom.name,
        "session_heat": heat_table(
            insights, selector.session_heat(insights), rows_are_criteria=True
        ),
        "student_heat": heat_table(insights, selector.student_heat(insights)),
        "over_time": True,
    }


def group_sentences(context: dict, blank: str, key: str) -> tuple[BlankTable, GroupRow] | None:
    """One blank's group of an insights context, by the blank's name and the group's key."""
    for table in context["blank_tables"]:
        if table.blank == blank:
            for row in table.rows:
                if row.key == key:
                    return table, row
    return None


def student_misconception_text(item: Misconception) -> str:
    """What one team showed, without the class's counts."""
    if item.kind == WRONG_CATEGORY:
        return gettext("Named %(named)s where %(wanted)s belongs (“%(blank)s”)") % {
            "named": gettext(CATEGORY_LABELS[item.named]),
            "wanted": gettext(CATEGORY_LABELS[item.wanted]),
            "blank": blank_label(item.blank),
        }
    if item.kind == NO_PURPOSE:
        return gettext("A “because” that names neither the Mission nor a purpose")
    return gettext("Named a part that is not on the team's own bench")


def student_progress_screen(student: Student) -> dict:
    """Each criterion's level session by session for the student's teams, and the
    misconceptions their sentences showed, the ones that went away first."""
    insights = selector.student_insights(student)
    written = {s.session_id for s in insights.sentences}
    sessions = [(s.pk, s.label) for s in insights.bot_builders_sessions if s.pk in written]
    return {
        "criteria_over_time": heat_table(
            insights, selector.session_heat(insights), rows_are_criteria=True
        ),
        "misconception_trends": [
            {
                "text": student_misconception_text(trend.misconception),
                "shown_in": ", ".join(trend.shown_in),
                "gone_since": trend.gone_since,
            }
            for trend in progress.trends(insights.misconceptions, insights.by_session, sessions)
        ],
        "legend": levels_legend(),
    }
