"""Apply every school's retention setting: count (the default, a dry run) or, with --commit,
delete the students' data of classes archived longer than the school allows. Run it from cron
(e.g. nightly) once the counts look right."""

from django.core.management.base import BaseCommand, CommandError

from classroom.models import School
from reports.retention import PurgeCounts, archived_data_count, archived_data_purge


def describe(counts: PurgeCounts) -> str:
    return (
        f"{counts.classes} archived class(es): {counts.students} student(s), "
        f"{counts.devices} device(s), {counts.teachbacks} teach-back(s), "
        f"{counts.exports} export(s)"
    )


class Command(BaseCommand):
    help = (
        "Delete rosters, devices, teach-backs and exports of classes archived longer than "
        "their school's retention setting. Without --commit only counts (a dry run)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--commit", action="store_true", help="Delete (default: count only).")
        parser.add_argument("--school", type=int, help="Only this school (its id).")

    def handle(self, *args, commit: bool = False, school: int | None = None, **options) -> None:
        schools = School.objects.exclude(retention_months=None).order_by("pk")
        if school is not None:
            schools = schools.filter(pk=school)
            if not schools.exists():
                raise CommandError(f"No school {school} with a retention setting.")
        total = PurgeCounts()
        for each in schools:
            counts = (
                archived_data_purge(school=each) if commit else archived_data_count(school=each)
            )
            total += counts
            months = each.retention_months
            self.stdout.write(f"{each.name} (keeps {months} months): {describe(counts)}")
        if commit:
            self.stdout.write(f"Deleted: {describe(total)}.")
        else:
            self.stdout.write(f"Dry run, nothing deleted: {describe(total)}.")
            self.stdout.write("Run again with --commit to delete.")
