"""The school's pick of standard codes (reports.standards): the administrator's one write."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from classroom.access import is_school_admin
from classroom.models import School, User
from classroom.services import ServiceError
from reports.models import SchoolStandards
from reports.standards import BY_CODE, known


def school_standards_set(*, school: School, codes: Iterable[str], by: User) -> SchoolStandards:
    """Report the school's results against `codes` (each on the shipped list)."""
    if not is_school_admin(by, school):
        raise ServiceError(gettext("Only the school's administrators can choose its standards."))
    codes = list(codes)
    unknown = [code for code in codes if code not in BY_CODE]
    if unknown:
        raise ServiceError(
            gettext("%(code)s is not on the list of standards.") % {"code": unknown[0][:40]}
        )
    with transaction.atomic():
        row, _ = SchoolStandards.objects.select_for_update().get_or_create(school=school)
        row.codes = known(codes)
        row.updated_at = timezone.now()
        row.updated_by = by
        row.save()
        return row
