"""Thin Celery tasks: an id in, one service call. The export row records everything.

`acks_late` with `reject_on_worker_lost` (also the site's defaults, set here so the guarantee
does not hang on a setting): a worker killed mid-render never acknowledged its task, so the
broker hands it to another worker, which renders the same export again under the same file
name. Services make a repeated task harmless.
"""

from celery import shared_task

from reports import services


@shared_task(name="reports.render_export", acks_late=True, reject_on_worker_lost=True)
def render_export(export_id: int) -> None:
    services.export_render(export_id=export_id)


@shared_task(name="reports.zip_school_export", acks_late=True, reject_on_worker_lost=True)
def zip_school_export(export_id: int) -> None:
    services.export_zip(export_id=export_id)


@shared_task(name="reports.sweep_exports", ignore_result=True)
def sweep_exports() -> None:
    """Run by Celery beat every REPORTS_SWEEP_SECONDS (see reports/services/sweep.py)."""
    services.exports_sweep_stuck()
