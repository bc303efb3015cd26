"""A school's retention setting, applied: the students' data of classes archived longer than
`School.retention_months` is deleted (the roster, the devices that joined, the teach-backs and
their assessments, and the exports), always counted first.

The class itself, its sessions and its games stay (team names are "Team 3", seats are
"team-3": nothing in them names a child), so the school's counts of lessons played still add up.
This lives in reports, the one app that may reach all three apps' data (classroom <- games <-
reports), and is run by `manage.py purge_archived` and the administrator's retention page.
"""

from __future__ import annotations

import calendar
import datetime
from dataclasses import dataclass, fields

from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from classroom.models import Classroom, DeviceBinding, School, Student, User
from classroom.services import ServiceError
from games.models import TeachBack
from reports.models import Export


@dataclass(frozen=True)
class PurgeCounts:
    classes: int = 0
    students: int = 0
    devices: int = 0
    teachbacks: int = 0
    exports: int = 0

    def __add__(self, other: PurgeCounts) -> PurgeCounts:
        return PurgeCounts(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def nothing(self) -> bool:
        return not any(getattr(self, f.name) for f in fields(self) if f.name != "classes")


def months_before(moment: datetime.datetime, months: int) -> datetime.datetime:
    """The same day and time `months` calendar months earlier (the 31st becomes the month's
    last day)."""
    month_index = moment.year * 12 + moment.month - 1 - months
    year, month = divmod(month_index, 12)
    day = min(moment.day, calendar.monthrange(year, month + 1)[1])
    return moment.replace(year=year, month=month + 1, day=day)


def expired_classes(school: School, *, now: datetime.datetime | None = None):
    """The school's classes archived longer than its retention setting (none if it has none)."""
    if not school.retention_months:
        return Classroom.objects.none()
    cutoff = months_before(now or timezone.now(), school.retention_months)
    return Classroom.objects.filter(school=school, archived_at__lte=cutoff)


def _targets(classes) -> dict[str, QuerySet]:
    class_ids = list(classes.values_list("pk", flat=True))
    # A whole-school ZIP holds each class's PDF as a part: a ZIP with a part of an expired
    # class goes too (its parts with it).
    zips = Export.objects.filter(parts__classroom_id__in=class_ids).values("pk")
    return {
        "students": Student.objects.filter(classroom_id__in=class_ids),
        "devices": DeviceBinding.objects.filter(session__classroom_id__in=class_ids),
        "teachbacks": TeachBack.objects.filter(team__session__classroom_id__in=class_ids),
        "exports": Export.objects.filter(classroom_id__in=class_ids, parent__isnull=True)
        | Export.objects.filter(pk__in=zips),
    }


def archived_data_count(*, school: School, now: datetime.datetime | None = None) -> PurgeCounts:
    """What `archived_data_purge` would delete now: the dry run."""
    classes = expired_classes(school, now=now)
    counts = {name: queryset.distinct().count() for name, queryset in _targets(classes).items()}
    return PurgeCounts(classes=classes.count(), **counts)


def archived_data_purge(
    *, school: School, by: User | None = None, now: datetime.datetime | None = None
) -> PurgeCounts:
    """Delete the students' data of the school's expired classes; returns what was deleted.
    `by` is the administrator pressing the button (None: the management command)."""
    if by is not None and not (by.is_active and by.is_school_admin and by.school_id == school.pk):
        raise ServiceError(
            gettext("Only the school's administrators can delete its archived data.")
        )
    with transaction.atomic():
        classes = expired_classes(school, now=now).select_for_update()
        counted = archived_data_count(school=school, now=now)
        targets = _targets(classes)
        exports = Export.objects.filter(pk__in=targets["exports"].values("pk"))
        names = [n for n in exports.values_list("file", flat=True) if n]
        names += [
            n for n in Export.objects.filter(parent__in=exports).values_list("file", flat=True) if n
        ]
        exports.delete()
        targets["teachbacks"].delete()
        targets["devices"].delete()
        targets["students"].delete()
        transaction.on_commit(lambda: [default_storage.delete(name) for name in names])
    return counted
