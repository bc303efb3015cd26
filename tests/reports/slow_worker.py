"""The site's Celery app for the killed-worker test's first worker: every export file write is
held back `SLOW_WRITE_SECONDS` (the PDF is made, nothing is written yet), so the test can kill
the worker mid-render. Started as `celery -A tests.reports.slow_worker worker`; the site's own
code has no such pause."""

import os
import time

import django
from celery.signals import worker_init

from config.celery import app


@worker_init.connect
def _hold_back_writes(**kwargs) -> None:
    django.setup()  # the models must be loaded before the services can be imported
    from reports.services import work

    write_atomically = work.write_atomically

    def held_back(name, write):
        time.sleep(float(os.environ.get("SLOW_WRITE_SECONDS", "30")))
        return write_atomically(name, write)

    work.write_atomically = held_back


__all__ = ["app"]
