"""Hand on export jobs whose work was lost (see reports/services/sweep.py), and remove files of
deleted exports. Celery beat runs the same sweep every REPORTS_SWEEP_SECONDS; this command is for
cron or by hand."""

from django.core.management.base import BaseCommand

from reports.services import exports_remove_orphan_files, exports_sweep_stuck


class Command(BaseCommand):
    help = (
        "Queue again exports whose worker stopped, send again exports never started, mark "
        "failed those out of attempts or time, and remove files of deleted exports."
    )

    def handle(self, *args, **options) -> None:
        swept = exports_sweep_stuck()
        self.stdout.write(f"Exports: {swept}.")
        removed = exports_remove_orphan_files()
        self.stdout.write(
            f"Removed {removed} file{'s' if removed != 1 else ''} of deleted exports."
        )
