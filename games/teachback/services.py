"""Every write of the teach-back: a team's sentence, the teacher's assessment, the session's
lock and the projector spotlight. Keyword-only, validated, one transaction each; a refusal is a
ServiceError whose message is shown as it is."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from classroom import push
from classroom.access import is_class_teacher
from classroom.models import DeviceBinding, GameKind, Session, Team, User
from classroom.services import ServiceError
from classroom.validators import UNSTORABLE_MESSAGE, has_unstorable
from games.models import (
    Assessment,
    CriterionScore,
    Rubric,
    SentenceLanguage,
    TableStatus,
    TeachBack,
    TeachBackSpotlight,
)
from games.models.teachback import TEACHBACK_SLOTS
from games.teachback import passback
from games.teachback.hints import BLANK_LABELS
from games.teachback.rubrics import rubric_for_class
from games.teachback.selectors import BLANK_SLOT, card, final_bench_for, game_for

FIELDS = (*TEACHBACK_SLOTS, "because")
FIELD_MAX = {**dict.fromkeys(TEACHBACK_SLOTS, 120), "because": 600}
COMMENT_MAX = 1000


def teachback_initial(team: Team) -> dict[str, str]:
    """What the device form starts with: the team's sentence when sent, otherwise the names of
    the parts on its final bench (an empty slot stays blank) and an empty `because`."""
    existing = TeachBack.objects.filter(team=team).first()
    if existing is not None:
        return {field: getattr(existing, field) for field in FIELDS}
    bench = final_bench_for(team)
    initial = {}
    for field in TEACHBACK_SLOTS:
        part = card(bench.get(BLANK_SLOT[field]))
        # The part's name in the device's language, like the rest of its screen.
        initial[field] = gettext(part.name) if part else ""
    initial["because"] = ""
    return initial


def clean_fields(fields: Mapping[str, object]) -> dict[str, str]:
    """The five blanks, trimmed; every blank filled and within its length, or ServiceError."""
    cleaned = {}
    for field in FIELDS:
        value = " ".join(str(fields.get(field) or "").split())
        label = gettext(BLANK_LABELS[field])
        if not value:
            raise ServiceError(gettext("Fill in the blank after “%(label)s”.") % {"label": label})
        if len(value) > FIELD_MAX[field]:
            raise ServiceError(
                gettext("The blank after “%(label)s” is too long: at most %(max)s characters.")
                % {"label": label, "max": FIELD_MAX[field]}
            )
        if has_unstorable(value):
            raise ServiceError(
                gettext("The blank after “%(label)s”: %(problem)s")
                % {"label": label, "problem": UNSTORABLE_MESSAGE}
            )
        cleaned[field] = value
    return cleaned


def _locked_session(session_id: int) -> Session:
    return Session.objects.select_for_update().get(pk=session_id)


def teachback_submit(
    *,
    team: Team,
    fields: Mapping[str, object],
    by_device: DeviceBinding,
    language: str = SentenceLanguage.ENGLISH,
) -> TeachBack:
    """Send or revise the team's sentence. A resend of the same words changes nothing (a double
    tap); different words make the next revision. Refused once the teacher has locked the
    session's sentences, before the team's game is over, or from another team's device.
    `language`: the device's language, the frame the team wrote in (en or es)."""
    language = SentenceLanguage.SPANISH if language == "es" else SentenceLanguage.ENGLISH
    if (
        by_device.session_id != team.session_id
        or not team.memberships.filter(student_id=by_device.student_id).exists()
    ):
        raise ServiceError(gettext("This device can only send its own team's sentence."))
    if team.session.game != GameKind.BOT_BUILDERS:
        raise ServiceError(gettext("Teach-back sentences belong to Bot-Builders sessions."))
    game = game_for(team)
    if game is None or game.status != TableStatus.OVER:
        raise ServiceError(
            gettext("Your game is not over yet: finish it, then write your sentence.")
        )
    cleaned = clean_fields(fields)
    bench = final_bench_for(team, game)
    now = timezone.now()
    with transaction.atomic():
        # The session row is the lock: session_lock_teachbacks writes it, so a sentence sent
        # while the teacher locks is either in before the lock or refused after it.
        if _locked_session(team.session_id).teachbacks_locked_at is not None:
            raise ServiceError(
                gettext("Your teacher has locked the sentences: it can't be changed now.")
            )
        existing = TeachBack.objects.select_for_update().filter(team=team).first()
        if existing is None:
            try:
                with transaction.atomic():
                    return TeachBack.objects.create(
                        team=team,
                        game=game,
                        bench_snapshot=bench,
                        mission=bench.get("mission") or "",
                        language=language,
                        submitted_at=now,
                        updated_at=now,
                        **cleaned,
                    )
            except IntegrityError:
                # The same team sent from its other device at the same moment: revise that one.
                existing = TeachBack.objects.select_for_update().get(team=team)
        if existing.language == language and all(
            getattr(existing, f) == v for f, v in cleaned.items()
        ):
            return existing
        existing.language = language
        for field, value in cleaned.items():
            setattr(existing, field, value)
        existing.bench_snapshot = bench
        existing.mission = bench.get("mission") or ""
        existing.revision += 1
        existing.updated_at = now
        existing.save()
        # The projector's spotlight may show this sentence: its screens look again.
        push.touch_after_commit(push.spotlight_topic(team.session_id))
        return existing


def _parse_score(raw: object) -> int | None | str:
    """An int, None for "skip", or the raw text when it is neither (reported by the caller)."""
    if raw is None or raw == "" or raw == "skip":
        return None
    if isinstance(raw, bool):
        return str(raw)
    if isinstance(raw, int):
        return raw
    try:
        return int(str(raw).strip())
    except ValueError:
        return str(raw)


def assessment_save(
    *,
    teachback: TeachBack,
    scores: Mapping[str, object],
    comment: str,
    by: User,
    rubric_version: int | None = None,
) -> Assessment:
    """Score a sentence with the class's current rubric: `scores` maps each criterion key to
    0..its maximum, or to None ("skip") for an optional criterion. Saving again replaces the
    scores (one row per criterion). `rubric_version`, when given, is the version the form was
    built from: if the rubric changed since, the save is refused rather than mismatched."""
    session = teachback.team.session
    if not is_class_teacher(by, session.classroom):
        raise ServiceError(gettext("Only the class's teacher can assess its sentences."))
    comment = (comment or "").strip()
    if len(comment) > COMMENT_MAX:
        raise ServiceError(
            gettext("The comment is too long: at most %(max)s characters.") % {"max": COMMENT_MAX}
        )
    if has_unstorable(comment):
        raise ServiceError(UNSTORABLE_MESSAGE)
    rubric_for_class(session.classroom)
    with transaction.atomic():
        # Lock the rubric version (see rubric_update) and the sentence (two saves of one
        # assessment take turns; the unique constraints catch anything else).
        rubric = (
            Rubric.objects.select_for_update()
            .filter(classroom=session.classroom)
            .order_by("-version")[0]
        )
        if rubric_version is not None and rubric_version != rubric.version:
            raise ServiceError(
                gettext(
                    "The rubric changed (now version %(version)s) since this page was loaded. "
                    "Reload the page and score again."
                )
                % {"version": rubric.version}
            )
        TeachBack.objects.select_for_update().get(pk=teachback.pk)
        criteria = list(rubric.criteria.order_by("position"))
        unknown = set(scores) - {c.key for c in criteria}
        if unknown:
            raise ServiceError(
                gettext("Some scores are for criteria not in this rubric: reload the page.")
            )
        parsed: dict[int, int | None] = {}
        for criterion in criteria:
            value = _parse_score(scores.get(criterion.key))
            if value is None:
                if not criterion.optional:
                    raise ServiceError(
                        gettext("Choose a score for “%(title)s”.")
                        % {"title": criterion.shown_title}
                    )
            elif isinstance(value, str) or not 0 <= value <= criterion.max_score:
                raise ServiceError(
                    gettext("The score for “%(title)s” must be from 0 to %(max)s.")
                    % {"title": criterion.shown_title, "max": criterion.max_score}
                )
            parsed[criterion.pk] = value
        assessment, _ = Assessment.objects.update_or_create(
            teachback=teachback,
            defaults={
                "rubric": rubric,
                "comment": comment,
                "assessed_by": by,
                "assessed_at": timezone.now(),
            },
        )
        # Scores given under an earlier version go: the assessment now stands under this one.
        assessment.scores.exclude(criterion__rubric=rubric).delete()
        for criterion in criteria:
            CriterionScore.objects.update_or_create(
                assessment=assessment, criterion=criterion, defaults={"score": parsed[criterion.pk]}
            )
        # Once the sentences are locked, the LMS gradebook has this team's scores: a changed
        # assessment sends the new ones (after commit).
        session.refresh_from_db(fields=["teachbacks_locked_at"])
        passback.scores_pass_back(session=session, team_ids=[teachback.team_id])
        return assessment


def _require_teacher(session: Session, by: User) -> None:
    if not is_class_teacher(by, session.classroom):
        raise ServiceError(gettext("Only the class's teacher can do this."))


def session_lock_teachbacks(*, session: Session, by: User) -> Session:
    """Stop revisions of the session's sentences (idempotent: a second lock keeps the first
    time). Only `teachbacks_locked_at` is written, so nothing else of the session is touched.
    A session started from an LMS activity sends its assessed students' scores to the LMS
    gradebook after commit (games/teachback/passback.py)."""
    _require_teacher(session, by)
    with transaction.atomic():
        Session.objects.filter(pk=session.pk, teachbacks_locked_at__isnull=True).update(
            teachbacks_locked_at=timezone.now()
        )
        session.refresh_from_db(fields=["teachbacks_locked_at"])
        passback.scores_pass_back(session=session)
    return session


def session_unlock_teachbacks(*, session: Session, by: User) -> Session:
    _require_teacher(session, by)
    Session.objects.filter(pk=session.pk).update(teachbacks_locked_at=None)
    session.refresh_from_db(fields=["teachbacks_locked_at"])
    return session


def spotlight_set(*, session: Session, teachback: TeachBack | None, by: User) -> TeachBackSpotlight:
    """Put `teachback` on the session's projector, or clear it with None."""
    _require_teacher(session, by)
    if teachback is not None and teachback.team.session_id != session.pk:
        raise ServiceError(gettext("That sentence is not from this session."))
    with transaction.atomic():
        spotlight, _ = TeachBackSpotlight.objects.select_for_update().get_or_create(session=session)
        if spotlight.teachback_id == (teachback.pk if teachback else None):
            return spotlight
        spotlight.teachback = teachback
        spotlight.version += 1
        spotlight.changed_at = timezone.now()
        spotlight.save()
        push.touch_after_commit(push.spotlight_topic(session.pk))
        return spotlight
