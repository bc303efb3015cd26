"""Insights of a session, of a class over time, and of one student: every teach-back, rubric
score and 3 Laws call of the sessions read in a fixed number of queries (six, whatever the number
of sessions, teams or students: tests/reports/test_insights_selectors.py holds it), then handed
to the pure analysis in `reports.insights`.

Rubric criteria are told apart by version: a criterion keeps one column only while its key,
title and maximum stay the same; renamed or re-weighted, it is a column of its own.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import F, Q
from django.utils import translation
from django.utils.translation import gettext

from classroom.models import Classroom, GameKind, Session, Student, Team, TeamMembership
from classroom.models.sessions import seat_name
from games.engine_registry import engine_for
from games.engines.bot_builders.cards import CARDS
from games.models import CriterionScore, RubricCriterion, TableGame, TeachBack
from games.models.teachback import TEACHBACK_SLOTS
from games.teachback.screens import in_language
from reports.insights.blanks import BlankSummary, group_blanks
from reports.insights.misconceptions import Misconception, find_misconceptions
from reports.insights.sentences import Reader, Sentence, Translate
from reports.insights.teach_next import CriterionLevels, Suggestion, teach_next
from reports.insights.three_laws import GameCalls, ThreeLawsEvidence, read_calls
from reports.selectors.common import REPORTED
from reports.templatetags.report_format import format_day

FIELDS = (*TEACHBACK_SLOTS, "because")


@dataclass(frozen=True)
class SessionInfo:
    pk: int
    date: object
    game: str

    @property
    def label(self) -> str:
        return format_day(self.date, "short_day")


@dataclass(frozen=True)
class Criterion:
    """One heat-map column: a criterion as one or more rubric versions gave it, unchanged."""

    key: str
    title: str
    max_score: int
    position: int
    versions: tuple[int, ...]
    # The title as stored: `title` is the one shown, which is Spanish on a Spanish page, and a
    # criterion is the same column in every language.
    stored_title: str = ""

    @property
    def id(self) -> str:
        return f"{self.key}|{self.stored_title or self.title}|{self.max_score}"

    @property
    def version_label(self) -> str:
        return ", ".join(f"v{v}" for v in self.versions)


@dataclass(frozen=True)
class Score:
    """A score, or the average of several, as a fraction of the maximum. `score` is set for a
    single score (None: skipped); `count` is how many scores an average holds."""

    fraction: float | None
    score: int | None = None
    max_score: int | None = None
    count: int = 1

    @property
    def level(self) -> int | None:
        """0 to 3, for the cell's shade and pattern: under a third, under two thirds, under
        the maximum, the maximum."""
        if self.fraction is None:
            return None
        if self.fraction >= 1:
            return 3
        return 2 if self.fraction >= 2 / 3 else 1 if self.fraction >= 1 / 3 else 0


@dataclass
class HeatRow:
    label: str
    cells: list[Score | None]
    session_id: int | None = None


@dataclass
class HeatMap:
    columns: list[str]
    rows: list[HeatRow]


@dataclass
class Insights:
    sessions: list[SessionInfo]
    sentences: list[Sentence]
    criteria: list[Criterion]
    blanks: list[BlankSummary]
    misconceptions: list[Misconception]
    three_laws: ThreeLawsEvidence
    teach_next: list[Suggestion]
    # Sentence id -> {criterion id: Score}.
    scores: dict[int, dict[str, Score]] = field(default_factory=dict)
    # Misconception key -> {session id: teams showing it}, for the class over time.
    by_session: dict[str, dict[int, int]] = field(default_factory=dict)
    # Student id -> name, of every student in a team of these sessions.
    students: dict[int, str] = field(default_factory=dict)

    @property
    def bot_builders_sessions(self) -> list[SessionInfo]:
        return [s for s in self.sessions if s.game == GameKind.BOT_BUILDERS]

    @property
    def three_laws_sessions(self) -> list[SessionInfo]:
        return [s for s in self.sessions if s.game == GameKind.THREE_LAWS]


def _translator(language: str) -> Translate:
    """The sentence language's gettext for the words the hints translate (card names and
    texts), looked up once per language: switching languages costs milliseconds a call, and a
    class's year of sentences asks for the same names thousands of times."""
    translate = in_language(language)
    with translation.override(language):
        table = {text: gettext(text) for card in CARDS.values() for text in (card.name, card.text)}

    def cached(text: str) -> str:
        if text not in table:
            table[text] = translate(text)
        return table[text]

    return cached


def _sessions(sessions_filter: Q) -> list[SessionInfo]:
    rows = (
        Session.objects.filter(sessions_filter & REPORTED)
        .order_by("date", "created_at", "pk")
        .values_list("pk", "date", "game")
    )
    return [SessionInfo(pk, date, game) for pk, date, game in rows]


def _sentences(ids: list[int], teachbacks: Q, labels: dict[int, str], members) -> list[Sentence]:
    rows = (
        TeachBack.objects.filter(teachbacks, team__session_id__in=ids)
        .order_by(
            "team__session__date",
            "team__session_id",
            F("team__table__number").asc(nulls_last=True),
            "team__seat_position",
            "team__number",
        )
        .values(
            "pk",
            "team_id",
            "team__name",
            "team__session_id",
            "bench_snapshot",
            "mission",
            "language",
            *FIELDS,
        )
    )
    return [
        Sentence(
            id=row["pk"],
            team=row["team__name"],
            session_id=row["team__session_id"],
            session_label=labels[row["team__session_id"]],
            fields={f: row[f] for f in FIELDS},
            mission=row["mission"] or None,
            language=row["language"] or "en",
            bench=row["bench_snapshot"] or {},
            students=tuple(members.get(row["team_id"], ())),
        )
        for row in rows
    ]


def _scores(sentence_ids: list[int]) -> tuple[list[Criterion], dict[int, dict[str, Score]]]:
    rows = (
        CriterionScore.objects.filter(assessment__teachback_id__in=sentence_ids)
        .order_by("criterion__rubric__version", "criterion__position")
        .values(
            "score",
            "assessment__teachback_id",
            "criterion__key",
            "criterion__title",
            "criterion__title_es",
            "criterion__max_score",
            "criterion__position",
            "criterion__rubric__version",
        )
    )
    columns: dict[tuple, dict] = {}
    scores: dict[int, dict[str, Score]] = defaultdict(dict)
    titles: dict[tuple[str, str], str] = {}
    for row in rows:
        # The title a reader sees, by the criterion's own rule (the class's Spanish wording).
        wording = (row["criterion__title"], row["criterion__title_es"])
        if wording not in titles:
            titles[wording] = RubricCriterion(title=wording[0], title_es=wording[1]).shown_title
        title = titles[wording]
        identity = (row["criterion__key"], row["criterion__title"], row["criterion__max_score"])
        column = columns.setdefault(
            identity,
            {"title": title, "position": row["criterion__position"], "versions": []},
        )
        if row["criterion__rubric__version"] not in column["versions"]:
            column["versions"].append(row["criterion__rubric__version"])
        maximum = row["criterion__max_score"]
        score = row["score"]
        scores[row["assessment__teachback_id"]]["|".join(map(str, identity))] = Score(
            None if score is None else score / maximum, score, maximum
        )
    criteria = [
        Criterion(key, info["title"], maximum, info["position"], tuple(info["versions"]), stored)
        for (key, stored, maximum), info in columns.items()
    ]
    criteria.sort(key=lambda c: (c.position, c.versions, c.title))
    return criteria, dict(scores)


def _games(ids: list[int], labels: dict[int, str]) -> list[GameCalls]:
    games = list(
        TableGame.objects.filter(session_id__in=ids, kind=GameKind.THREE_LAWS)
        .exclude(state={})
        .only("session_id", "kind", "mode", "state", "table__number")
        .select_related("table")
    )
    names: dict[tuple[int, str], str] = {}
    if games:
        for session_id, number, name in Team.objects.filter(
            session_id__in={g.session_id for g in games}
        ).values_list("session_id", "number", "name"):
            names[(session_id, seat_name(number))] = name
    out = []
    for game in games:
        engine = engine_for(game)
        view = engine.load(game.state).view(None)
        seats = {seat: names.get((game.session_id, seat), seat) for seat in view["seats"]}
        out.append(
            GameCalls(
                game.session_id, labels[game.session_id], game.table.number, seats, view["calls"]
            )
        )
    return out


def _memberships(ids: list[int]) -> tuple[dict[int, list[int]], dict[int, str]]:
    members: dict[int, list[int]] = defaultdict(list)
    students: dict[int, str] = {}
    for team_id, student_id, name in (
        TeamMembership.objects.filter(session_id__in=ids)
        .order_by("student__name", "student_id")
        .values_list("team_id", "student_id", "student__name")
    ):
        members[team_id].append(student_id)
        students[student_id] = name
    return members, students


def criterion_levels(insights: Insights) -> list[CriterionLevels]:
    """Each criterion's scores over the sentences, for "teach next"."""
    out = []
    for criterion in insights.criteria:
        scored = tuple(
            (s.team, cell.fraction)
            for s in insights.sentences
            if (cell := insights.scores.get(s.id, {}).get(criterion.id)) is not None
            and cell.fraction is not None
        )
        if scored:
            out.append(CriterionLevels(criterion.title, scored))
    return out


def build_insights(sessions_filter: Q, *, teachbacks: Q | None = None) -> Insights:
    sessions = _sessions(sessions_filter)
    ids = [s.pk for s in sessions]
    labels = {s.pk: s.label for s in sessions}
    members, students = _memberships(ids)
    sentences = _sentences(ids, teachbacks or Q(), labels, members)
    criteria, scores = _scores([s.id for s in sentences])
    evidence = read_calls(_games([s.pk for s in sessions if s.game == GameKind.THREE_LAWS], labels))
    reader = Reader(_translator)
    misconceptions = find_misconceptions(sentences, reader)
    insights = Insights(
        sessions=sessions,
        sentences=sentences,
        criteria=criteria,
        blanks=group_blanks(sentences, reader),
        misconceptions=misconceptions,
        three_laws=evidence,
        teach_next=[],
        scores=scores,
        students=students,
    )
    # A misconception counts each sentence once, so its count at a session is the number of
    # its sentences from that session.
    for item in misconceptions:
        counts = insights.by_session.setdefault(item.key, {})
        for sentence in item.sentences:
            counts[sentence.session_id] = counts.get(sentence.session_id, 0) + 1
    insights.teach_next = teach_next(
        misconceptions, criterion_levels(insights), evidence.most_misunderstood
    )
    return insights


def session_insights(session: Session) -> Insights:
    return build_insights(Q(pk=session.pk))


def class_insights(classroom: Classroom) -> Insights:
    return build_insights(Q(classroom=classroom))


def student_insights(student: Student) -> Insights:
    """The sentences of the teams `student` was in, over the class's sessions."""
    return build_insights(
        Q(classroom_id=student.classroom_id),
        teachbacks=Q(team__memberships__student=student),
    )


# -- heat maps --------------------------------------------------------------------------------


def _mean(cells: list[Score]) -> Score | None:
    if len(cells) == 1:
        # One score (a student's team at one session): shown as the score itself.
        return cells[0]
    values = [c.fraction for c in cells if c.fraction is not None]
    if not values:
        return None
    return Score(sum(values) / len(values), count=len(values))


def team_heat(insights: Insights) -> HeatMap:
    """Teams (one row a sentence) x criteria: each team's score."""
    rows = [
        HeatRow(
            sentence.team,
            [insights.scores.get(sentence.id, {}).get(c.id) for c in insights.criteria],
            sentence.session_id,
        )
        for sentence in insights.sentences
    ]
    return HeatMap([c.id for c in insights.criteria], rows)


def session_heat(insights: Insights) -> HeatMap:
    """Criteria x sessions with sentences: the average on each criterion at each session."""
    by_session: dict[int, list[Sentence]] = defaultdict(list)
    for sentence in insights.sentences:
        by_session[sentence.session_id].append(sentence)
    sessions = [s for s in insights.bot_builders_sessions if s.pk in by_session]
    rows = []
    for criterion in insights.criteria:
        cells = []
        for session in sessions:
            found = [
                cell
                for s in by_session.get(session.pk, [])
                if (cell := insights.scores.get(s.id, {}).get(criterion.id)) is not None
            ]
            cells.append(_mean(found))
        rows.append(HeatRow(criterion.id, cells))
    return HeatMap([s.label for s in sessions], rows)


def student_heat(insights: Insights) -> HeatMap:
    """Students x criteria: each student's average over the sessions their team was scored."""
    by_student: dict[int, list[Sentence]] = defaultdict(list)
    for sentence in insights.sentences:
        for student_id in sentence.students:
            by_student[student_id].append(sentence)
    rows = []
    for student_id, name in sorted(insights.students.items(), key=lambda item: item[1]):
        cells = []
        for criterion in insights.criteria:
            found = [
                cell
                for s in by_student.get(student_id, [])
                if (cell := insights.scores.get(s.id, {}).get(criterion.id)) is not None
            ]
            cells.append(_mean(found))
        rows.append(HeatRow(name, cells))
    return HeatMap([c.id for c in insights.criteria], rows)
