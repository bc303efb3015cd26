"""Celery beat, which runs the export sweeper (reports.sweep_exports), keeps its schedule in memory:
Celery's default shelve file is written through SQLite on Python 3.13, and beat died at start-up
when SQLite answered "locking protocol", taking the sweeper with it."""

from pathlib import Path

from celery.beat import PersistentScheduler, Scheduler, Service
from django.conf import settings

from config.celery import app


def test_beat_schedules_the_sweeper_in_memory_and_writes_no_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # As the worker's --beat builds it (celery.worker.components.Beat): the configured class.
    service = Service(
        app=app,
        scheduler_cls=app.conf.beat_scheduler,
        schedule_filename=str(tmp_path / "schedule"),
    )
    scheduler = service.get_scheduler()
    assert type(scheduler) is Scheduler and not isinstance(scheduler, PersistentScheduler)
    sweep = scheduler.schedule["sweep-exports"]
    assert sweep.task == "reports.sweep_exports"
    assert sweep.schedule.run_every.total_seconds() == settings.REPORTS_SWEEP_SECONDS
    scheduler.sync()
    scheduler.close()
    assert list(tmp_path.iterdir()) == []
    assert not list(Path(settings.VAR_DIR).glob("celerybeat-schedule*"))
