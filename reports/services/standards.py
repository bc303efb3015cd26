"""The standard codes a school aligns its results to (reports.standards): which codes it reports
against and which codes each game carries (the administrator), and which codes each criterion of
a class's rubric carries (the class's teacher). Codes only, from the shipped list."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from classroom.access import is_class_teacher, is_school_admin
from classroom.models import Classroom, School, User
from classroom.services import ServiceError
from games.models import Rubric, RubricCriterion
from games.teachback.rubrics import rubric_for_class
from reports.models import SchoolStandards
from reports.standards import BY_CODE, GAME_STANDARDS, known


def _checked(codes: Iterable[str]) -> list[str]:
    """`codes` in the shipped list's order, or ServiceError naming the first unknown one."""
    codes = [str(code) for code in codes]
    unknown = [code for code in codes if code not in BY_CODE]
    if unknown:
        raise ServiceError(
            gettext("%(code)s is not on the list of standards.") % {"code": unknown[0][:40]}
        )
    return known(codes)


def _require_admin(school: School, by: User) -> None:
    if not is_school_admin(by, school):
        raise ServiceError(gettext("Only the school's administrators can choose its standards."))


def school_standards_set(*, school: School, codes: Iterable[str], by: User) -> SchoolStandards:
    """Report the school's results against `codes` (each on the shipped list)."""
    _require_admin(school, by)
    codes = _checked(codes)
    with transaction.atomic():
        row, _ = SchoolStandards.objects.select_for_update().get_or_create(school=school)
        row.codes = codes
        row.updated_at = timezone.now()
        row.updated_by = by
        row.save()
        return row


def school_game_standards_set(
    *, school: School, game: str, codes: Iterable[str], by: User
) -> SchoolStandards:
    """The codes `game`'s sessions count under in this school's reports; none picked: the
    game's shipped default again."""
    _require_admin(school, by)
    if game not in GAME_STANDARDS:
        raise ServiceError(gettext("There is no such game."))
    codes = _checked(codes)
    with transaction.atomic():
        row, _ = SchoolStandards.objects.select_for_update().get_or_create(school=school)
        games = dict(row.games or {})
        if codes:
            games[game] = codes
        else:
            games.pop(game, None)
        row.games = games
        row.updated_at = timezone.now()
        row.updated_by = by
        row.save()
        return row


def criterion_standards_set(
    *, classroom: Classroom, key: str, version: int | str, codes: Iterable[str], by: User
) -> RubricCriterion:
    """The codes the criterion `key` of the class's current rubric carries; none picked: the
    default codes of its key again.

    Codes say what a criterion is evidence of, not how it is scored, so they change on the
    current version in place (no new rubric version); a version made later copies them by key
    (games.teachback.rubrics). `version` is the one the teacher was looking at: a rubric saved
    since then is refused rather than given codes meant for other criteria."""
    if not is_class_teacher(by, classroom):
        raise ServiceError(gettext("Only the class's teacher can change its rubric."))
    codes = _checked(codes)
    # The default rubric is saved as version 1 on its first write, as scoring would save it.
    rubric_for_class(classroom)
    with transaction.atomic():
        # The lock the rubric editor and scoring take: a new version cannot slip in between.
        current = (
            Rubric.objects.select_for_update().filter(classroom=classroom).order_by("-version")[0]
        )
        if str(current.version) != str(version):
            raise ServiceError(
                gettext(
                    "The rubric changed since this page was opened (now version %(version)s): "
                    "look at it again and pick the codes once more."
                )
                % {"version": current.version}
            )
        criterion = current.criteria.filter(key=str(key)[:40]).first()
        if criterion is None:
            raise ServiceError(gettext("That criterion is not in this class's rubric."))
        criterion.standards = codes
        criterion.save(update_fields=["standards"])
        return criterion
