import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import skip_without_server

ROOT = Path(__file__).resolve().parents[2]


def _manage(extra_env: dict[str, str], *command: str) -> subprocess.CompletedProcess:
    """manage.py in a process of its own, with settings read from this environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(extra_env)
    return subprocess.run(
        [sys.executable, "manage.py", *command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _run_check(extra_env: dict[str, str]) -> subprocess.CompletedProcess:
    return _manage(extra_env, "check", "--deploy", "--fail-level", "WARNING")


def test_production_settings_pass_the_deploy_check():
    result = _run_check(
        {
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "k" * 20 + "-a-long-random-production-secret-0f9a8b7c6d5e4f3a2b1c",
            "DJANGO_ALLOWED_HOSTS": "botbench.example.org",
        }
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = _run_check({"DJANGO_DEBUG": "0", "DJANGO_ALLOWED_HOSTS": "botbench.example.org"})
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is required" in result.stderr


def test_a_malformed_boolean_is_refused_with_its_name():
    result = _run_check({"DJANGO_DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DJANGO_DEBUG must be a boolean" in result.stderr


def test_secret_key_can_come_from_a_file(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("f3Kq9-zX2vLm8wRt7yBn4cHj6pDs1aGe5uVo0iQx-Production-Secret\n")
    result = _run_check(
        {
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY_FILE": str(secret),
            "DJANGO_ALLOWED_HOSTS": "botbench.example.org",
        }
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.django_db
def test_postgresql_with_connection_pooling_when_database_url_is_set():
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        skip_without_server("DATABASE_URL does not name PostgreSQL")
    assert connection.vendor == "postgresql"
    assert settings.DATABASES["default"]["OPTIONS"]["pool"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_redis_is_broker_and_cache_when_redis_url_is_set():
    if not os.environ.get("REDIS_URL"):
        skip_without_server("REDIS_URL is not set")
    assert os.environ["REDIS_URL"] == settings.CELERY_BROKER_URL
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")


def test_embedded_defaults_need_no_server():
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings'; django.setup();"
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE']); print(s.CELERY_BROKER_URL.split(':')[0]);"
        "print(s.CACHES['default']['BACKEND']); print(s.CELERY_TASK_ALWAYS_EAGER)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [
        "django.db.backends.sqlite3",
        "sqla+sqlite",
        "django.core.cache.backends.filebased.FileBasedCache",
        "False",
    ]


def _database_options(extra_env: dict[str, str]) -> str:
    show = "from django.conf import settings as s; print(sorted(s.DATABASES['default']['OPTIONS']))"
    result = _manage(extra_env, "shell", "-c", show)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_postgresql_prepares_repeated_queries_unless_told_not_to():
    """On by default; off for a deployment behind an external pooler such as PgBouncer."""
    postgres = {"DATABASE_URL": "postgres://someone@db.example.org:5432/botbench"}
    assert "prepare_threshold" in _database_options(postgres)
    assert "server_side_binding" in _database_options(postgres)
    off = _database_options({**postgres, "DATABASE_PREPARED_STATEMENTS": "0"})
    assert "prepare_threshold" not in off and "server_side_binding" not in off
    assert "pool" in off


def test_under_asgi_no_middleware_hook_hops_to_a_thread(monkeypatch):
    """Django runs every middleware below a sync-only one in async mode, each of its
    process_request and process_response a hop to a thread and back: the sync-only middleware
    comes last, so an ASGI request (a stream's, `make run`'s pages) hops into the chain and out
    to the view only (and for process_view, which Django always calls from async code)."""
    from asgiref.sync import SyncToAsync
    from django.test import AsyncClient
    from django.utils.deprecation import MiddlewareMixin

    from tests.support.streams import run_alone

    hooks = []
    hop = SyncToAsync.__call__

    async def counting(self, *args, **kwargs):
        owner = getattr(self.func, "__self__", None)
        if isinstance(owner, MiddlewareMixin) and self.func.__name__ != "process_view":
            hooks.append(self.func.__qualname__)
        return await hop(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counting)
    response = run_alone(AsyncClient().get("/healthz/live"))
    assert response.status_code == 200
    assert hooks == []
