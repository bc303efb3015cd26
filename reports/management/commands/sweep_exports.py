"""Mark stuck export jobs failed. Run it from cron (no Celery beat needed); export_request also
runs the same sweep before queueing anything."""

from django.core.management.base import BaseCommand

from reports.services import exports_sweep_stuck


class Command(BaseCommand):
    help = "Mark export jobs with no progress for REPORTS_STUCK_MINUTES (15) failed."

    def handle(self, *args, **options) -> None:
        swept = exports_sweep_stuck()
        self.stdout.write(f"Marked {swept} stuck export{'s' if swept != 1 else ''} failed.")
