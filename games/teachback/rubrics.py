"""The class rubric and its versions.

A rubric version never changes once a score points at it (after edx-ora2): editing a
used rubric makes a new version and the old scores keep theirs; an unused one is edited in place
so trying out wordings does not pile up versions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from classroom.access import is_class_teacher
from classroom.models import Classroom, User
from classroom.services import ServiceError
from games.models import Assessment, Rubric, RubricCriterion

MAX_CRITERIA = 8
MIN_MAX_SCORE = 1
MAX_MAX_SCORE = 5
TITLE_MAX = 80
DESCRIPTION_MAX = 300

DEFAULT_CRITERIA: tuple[dict, ...] = (
    {
        "key": "complete",
        "title": "Complete",
        "description": "All five blanks filled with meaningful words.",
        "max_score": 3,
        "optional": False,
    },
    {
        "key": "right_jobs",
        "title": "Right jobs",
        "description": "Each blank names something that really senses, thinks, acts or powers.",
        "max_score": 3,
        "optional": False,
    },
    {
        "key": "mission_link",
        "title": "Mission link",
        "description": "“because” explains how the parts serve the bot's Mission.",
        "max_score": 3,
        "optional": False,
    },
    {
        "key": "said_clearly",
        "title": "Said clearly",
        "description": "The team said it aloud clearly (observed by you; may be skipped).",
        "max_score": 3,
        "optional": True,
    },
)


@dataclass(frozen=True, slots=True)
class CriterionSpec:
    key: str
    title: str
    description: str
    max_score: int
    optional: bool
    # The class's Spanish wording ("" = the built-in wording's translation, or the English).
    title_es: str = ""
    description_es: str = ""


def current_rubric(classroom: Classroom) -> Rubric | None:
    return Rubric.objects.filter(classroom=classroom).order_by("-version").first()


def rubric_shown(classroom: Classroom) -> tuple[Rubric, list[RubricCriterion]]:
    """The rubric a page shows and its criteria in order, read only: the class's current
    version, or before its first write the default as an unsaved version 1 (the write that
    first needs it saves it, `rubric_for_class`). Pages never create rows."""
    rubric = current_rubric(classroom)
    if rubric is not None:
        return rubric, list(rubric.criteria.order_by("position"))
    default = Rubric(classroom=classroom, version=1)
    criteria = [
        RubricCriterion(rubric=default, position=position, **spec)
        for position, spec in enumerate(DEFAULT_CRITERIA, start=1)
    ]
    return default, criteria


def rubric_for_class(classroom: Classroom) -> Rubric:
    """The class's current rubric version, for a write; the default one becomes version 1 on
    first use."""
    rubric = current_rubric(classroom)
    if rubric is not None:
        return rubric
    try:
        with transaction.atomic():
            rubric = Rubric.objects.create(classroom=classroom, version=1)
            _create_criteria(rubric, [CriterionSpec(**c) for c in DEFAULT_CRITERIA])
            return rubric
    except IntegrityError:
        # Two first visits at once: the other one made version 1.
        return Rubric.objects.get(classroom=classroom, version=1)


def rubric_is_used(rubric: Rubric) -> bool:
    return Assessment.objects.filter(rubric=rubric).exists()


def clean_criteria(criteria: Sequence[Mapping]) -> list[CriterionSpec]:
    """Check the rows a teacher sent, in order; raise ServiceError with the first problem."""
    if not criteria:
        raise ServiceError(_("A rubric needs at least one criterion."))
    if len(criteria) > MAX_CRITERIA:
        raise ServiceError(
            _("A rubric can have at most %(count)s criteria.") % {"count": MAX_CRITERIA}
        )
    specs: list[CriterionSpec] = []
    for number, row in enumerate(criteria, start=1):
        title = str(row.get("title") or "").strip()
        description = str(row.get("description") or "").strip()
        title_es = str(row.get("title_es") or "").strip()
        description_es = str(row.get("description_es") or "").strip()
        if not title:
            raise ServiceError(_("Criterion %(number)s needs a title.") % {"number": number})
        for text in (title, title_es):
            if len(text) > TITLE_MAX:
                raise ServiceError(
                    _("The title “%(title)s…” is longer than %(max)s characters.")
                    % {"title": text[:30], "max": TITLE_MAX}
                )
        if len(description) > DESCRIPTION_MAX or len(description_es) > DESCRIPTION_MAX:
            raise ServiceError(
                _("The description of “%(title)s” is longer than %(max)s characters.")
                % {"title": title, "max": DESCRIPTION_MAX}
            )
        try:
            max_score = int(row.get("max_score"))
        except (TypeError, ValueError):
            max_score = 0
        if not MIN_MAX_SCORE <= max_score <= MAX_MAX_SCORE:
            raise ServiceError(
                _("The highest score of “%(title)s” must be from %(min)s to %(max)s.")
                % {"title": title, "min": MIN_MAX_SCORE, "max": MAX_MAX_SCORE}
            )
        if any(spec.title.lower() == title.lower() for spec in specs):
            raise ServiceError(
                _("Two criteria are called “%(title)s”: give each its own title.")
                % {"title": title}
            )
        key = str(row.get("key") or "") or slugify(title).replace("-", "_")[:40] or "criterion"
        base, suffix = key, 2
        while any(spec.key == key for spec in specs):
            key = f"{base[:36]}_{suffix}"
            suffix += 1
        specs.append(
            CriterionSpec(
                key,
                title,
                description,
                max_score,
                bool(row.get("optional")),
                title_es,
                description_es,
            )
        )
    return specs


def _create_criteria(
    rubric: Rubric, specs: Sequence[CriterionSpec], standards: Mapping[str, list] | None = None
) -> None:
    """The criteria of `specs` in `rubric`; a criterion kept from an earlier version (by its
    key) keeps the standard codes it carried there."""
    standards = standards or {}
    for position, spec in enumerate(specs, start=1):
        criterion = RubricCriterion(
            rubric=rubric,
            position=position,
            key=spec.key,
            title=spec.title,
            description=spec.description,
            max_score=spec.max_score,
            optional=spec.optional,
            title_es=spec.title_es,
            description_es=spec.description_es,
            standards=list(standards.get(spec.key, [])),
        )
        criterion.full_clean(exclude=["rubric"])
        criterion.save()


def _specs_of(rubric: Rubric) -> list[CriterionSpec]:
    return [
        CriterionSpec(
            c.key, c.title, c.description, c.max_score, c.optional, c.title_es, c.description_es
        )
        for c in rubric.criteria.order_by("position")
    ]


def rubric_update(*, classroom: Classroom, criteria: Sequence[Mapping], by: User) -> Rubric:
    """Save the class's rubric as `criteria` (rows of title, description, max_score, optional,
    and the key of an existing criterion when kept). Returns the version now current: a new one
    when the current version already has scores, the same one edited in place otherwise, and the
    same one untouched when nothing changed."""
    if not is_class_teacher(by, classroom):
        raise ServiceError(_("Only the class's teacher can change its rubric."))
    specs = clean_criteria(criteria)
    rubric_for_class(classroom)
    with transaction.atomic():
        # Locking the current version makes "is it used?" and an assessment being saved under
        # it take turns (assessment_save locks the same row).
        current = (
            Rubric.objects.select_for_update().filter(classroom=classroom).order_by("-version")[0]
        )
        if _specs_of(current) == specs:
            return current
        standards = {c.key: c.standards for c in current.criteria.all()}
        if rubric_is_used(current):
            rubric = Rubric.objects.create(
                classroom=classroom, version=current.version + 1, created_by=by
            )
        else:
            rubric = current
            rubric.criteria.all().delete()
            rubric.created_by = by
            rubric.save(update_fields=["created_by"])
        _create_criteria(rubric, specs, standards)
        return rubric
