from django.db import OperationalError
from django.urls import reverse

from config.celery import app as celery_app


def test_healthz_reports_database_and_broker_up(client, db):
    response = client.get(reverse("classroom:healthz"))
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "broker": "ok", "cache": "ok"},
    }


def test_healthz_says_degraded_not_down_when_the_broker_is_down(client, db, monkeypatch):
    # Nothing listens on port 1: a real refused connection, not a mock. Pages still work from
    # the database, so the web process must stay in rotation: 200, "degraded".
    monkeypatch.setattr(celery_app.conf, "broker_url", "redis://127.0.0.1:1/0")
    response = client.get(reverse("classroom:healthz"))
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"] == {"database": "ok", "broker": "down", "cache": "ok"}
    assert set(body["failing"]) == {"broker"}


def test_healthz_names_the_database_when_it_is_down(client, db, monkeypatch):
    from django.db import connection

    def refuse(*args, **kwargs):
        raise OperationalError("connection refused")

    with monkeypatch.context() as patch:
        patch.setattr(connection, "cursor", refuse)
        response = client.get(reverse("classroom:healthz"))
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert response.json()["checks"]["database"] == "down"
    assert "connection refused" in response.json()["failing"]["database"]


def test_liveness_answers_with_the_database_and_redis_down(client, monkeypatch):
    """No `db` fixture: pytest-django refuses any query, so a liveness that touched the database
    (in the view or in a middleware on its way) would fail here; the broker is unreachable."""
    monkeypatch.setattr(celery_app.conf, "broker_url", "redis://127.0.0.1:1/0")
    response = client.get(reverse("classroom:healthz_live"))
    assert response.status_code == 200
    assert response.json() == {"status": "alive"}
    assert "no-cache" in response.headers["Cache-Control"]


def test_readiness_fails_where_liveness_does_not(client, db, monkeypatch):
    """The same outage takes the process out of rotation (/healthz) and leaves it running."""
    from django.db import connection

    def refuse(*args, **kwargs):
        raise OperationalError("connection refused")

    with monkeypatch.context() as patch:
        patch.setattr(connection, "cursor", refuse)
        ready = client.get(reverse("classroom:healthz"))
        live = client.get(reverse("classroom:healthz_live"))
    assert (ready.status_code, live.status_code) == (503, 200)
