"""Sending the export tasks, always once the transaction that saved their row commits (the
row is the truth; a task sent before it exists would find nothing)."""

from __future__ import annotations

from django.db import transaction


def send_render(export_id: int) -> None:
    from reports import tasks

    transaction.on_commit(lambda: tasks.render_export.delay(export_id))


def send_zip(export_id: int) -> None:
    from reports import tasks

    transaction.on_commit(lambda: tasks.zip_school_export.delay(export_id))
