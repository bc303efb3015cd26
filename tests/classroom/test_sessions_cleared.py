"""Expired sessions stay in Django's table until cleared: Celery beat runs the clearing (the
`clearsessions` command's work) at each full hour."""

from datetime import timedelta

from celery.schedules import crontab
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session

from classroom.tasks import clear_expired_sessions
from config.celery import app


def _saved(expires_in: timedelta) -> str:
    store = SessionStore()
    store["language"] = "es"
    store.set_expiry(expires_in)
    store.save()
    return store.session_key


def test_clearing_deletes_the_expired_sessions_and_keeps_the_live_ones(db):
    live, expired = _saved(timedelta(hours=1)), _saved(timedelta(seconds=-1))
    assert Session.objects.filter(pk=expired).exists()
    clear_expired_sessions()
    assert list(Session.objects.values_list("pk", flat=True)) == [live]


def test_beat_sends_the_clearing_to_the_worker_every_hour():
    entry = settings.CELERY_BEAT_SCHEDULE["clear-expired-sessions"]
    assert entry["task"] == clear_expired_sessions.name and entry["task"] in app.tasks
    assert entry["schedule"] == crontab(minute=0)
