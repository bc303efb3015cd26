"""Mark stuck export jobs failed and remove orphaned files. Run it from cron (no Celery beat
needed); an Export click fails only a stuck job that stands in its own way."""

from django.core.management.base import BaseCommand

from reports.services import exports_remove_orphan_files, exports_sweep_stuck


class Command(BaseCommand):
    help = (
        "Mark export jobs with no progress for REPORTS_STUCK_MINUTES (15) failed, and remove "
        "files whose export no longer exists (a deleted class's exports)."
    )

    def handle(self, *args, **options) -> None:
        swept = exports_sweep_stuck()
        self.stdout.write(f"Marked {swept} stuck export{'s' if swept != 1 else ''} failed.")
        removed = exports_remove_orphan_files()
        self.stdout.write(
            f"Removed {removed} file{'s' if removed != 1 else ''} of deleted exports."
        )
