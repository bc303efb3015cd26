"""Health for load balancers, orchestrators and monitors.

GET /healthz, whether this process should get requests (a readiness probe):
- 200 "ok": the database, the broker and the cache answer.
- 200 "degraded": the database answers but Redis (the broker or the cache) does not: pages, moves
  and polls carry on from the database, exports wait in their rows until the sweeper sends them
  again. Taking the web processes out of rotation would only make that worse, hence 200.
- 503 "unavailable": the database does not answer; nothing works without it.
The body names each check and the reason of each failure.

GET /healthz/live, whether this process still answers at all (a liveness probe): 200 always,
touching nothing outside the process. An orchestrator restarts a process whose liveness fails;
were the database among the checks, its outage would restart every replica at once, and each
would come back to the same outage.
"""

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.cache import cache_answered
from config.celery import app as celery_app

# Without these the site cannot answer at all; the others only slow it down.
ESSENTIAL = ("database",)


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


def _check_cache() -> str | None:
    # A write, not a read: a Redis at maxmemory still reads but refuses writes.
    try:
        stored, _ = cache_answered(lambda: cache.set("healthz", 1, 10))
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {exc}"
    return None if stored else "the cache refused a write or did not answer (see the log)"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _check_database(), "broker": _check_broker(), "cache": _check_cache()}
    failing = {name: reason for name, reason in checks.items() if reason}
    if any(name in ESSENTIAL for name in failing):
        status = "unavailable"
    else:
        status = "degraded" if failing else "ok"
    body = {
        "status": status,
        "checks": {name: ("ok" if reason is None else "down") for name, reason in checks.items()},
    }
    if failing:
        body["failing"] = failing
    return JsonResponse(body, status=503 if status == "unavailable" else 200)


@never_cache
@require_GET
def liveness(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "alive"})
