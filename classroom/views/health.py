"""GET /healthz: 200 when the database and the broker answer, 503 naming what is down."""

from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app as celery_app


def _check_database() -> str | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - any failure means "down"; the reason is reported
        return f"{type(exc).__name__}: {exc}"
    return None


def _check_broker() -> str | None:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=2)
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {exc}"
    return None


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _check_database(), "broker": _check_broker()}
    failing = {name: reason for name, reason in checks.items() if reason}
    body = {
        "status": "ok" if not failing else "unavailable",
        "checks": {name: ("ok" if reason is None else "down") for name, reason in checks.items()},
    }
    if failing:
        body["failing"] = failing
    return JsonResponse(body, status=503 if failing else 200)
