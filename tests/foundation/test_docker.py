"""No Docker engine runs here, so the compose file is checked against the project itself: every
command it runs exists, and every variable it sets is one the settings read."""

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from django.urls import resolve

from tests.support.settings_env import env_names_read_by_settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker" / "compose.yaml"


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def test_compose_has_web_worker_database_and_redis_with_health_checks(compose):
    services = compose["services"]
    assert {"web", "worker", "db", "redis"} <= set(services)
    for name in ("web", "worker", "db", "redis"):
        assert "healthcheck" in services[name], f"{name} has no health check"
    assert {"pgdata", "redisdata", "media"} <= set(compose["volumes"])
    assert "pgdata:/var/lib/postgresql/data" in services["db"]["volumes"]


def test_every_variable_compose_sets_is_read_by_the_settings(compose):
    known = env_names_read_by_settings()
    for name in ("web", "stream", "worker", "migrate"):
        environment = compose["services"][name]["environment"]
        unknown = set(environment) - known
        assert not unknown, f"{name} sets variables the settings never read: {sorted(unknown)}"


def test_every_command_compose_runs_exists_in_the_project(compose):
    services = compose["services"]
    web = services["web"]["command"]
    assert web[0] == "granian"
    assert web[web.index("--interface") + 1] == "wsgi"
    module, attribute = web[1].split(":")
    assert (ROOT / (module.replace(".", "/") + ".py")).exists()
    assert f"{attribute} = " in (ROOT / "config" / "wsgi.py").read_text()

    # Live screens' event streams: an ASGI server of their own, behind the same proxy.
    stream = services["stream"]["command"]
    assert stream[:2] == ["gunicorn", "config.asgi:application"]
    assert stream[stream.index("--worker-class") + 1] == "uvicorn_worker.UvicornWorker"
    assert "application = " in (ROOT / "config" / "asgi.py").read_text()
    assert "uvicorn-worker" in (ROOT / "pyproject.toml").read_text()
    nginx = (ROOT / "docker" / "nginx.conf").read_text()
    assert "location /play/stream/" in nginx and "proxy_buffering off" in nginx
    assert resolve("/play/stream/").url_name == "stream"

    worker = services["worker"]["command"]
    assert worker[:4] == ["celery", "-A", "config", "worker"]
    assert (ROOT / "config" / "celery.py").exists()

    migrate = services["migrate"]["command"]
    assert migrate[:2] == ["python", "manage.py"]
    assert (ROOT / "manage.py").exists()

    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    assert "libpango" in dockerfile  # WeasyPrint's system libraries
    assert "pip install ." in dockerfile


def test_the_image_starts_the_web_tier_as_compose_does(compose):
    """`docker run` of the image alone serves the site as compose's web service does."""
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    cmd = json.loads(re.search(r"^CMD (\[.*\])$", dockerfile, re.MULTILINE)[1])
    assert cmd == compose["services"]["web"]["command"]


def test_the_web_health_check_probes_a_real_url(compose):
    probe = compose["services"]["web"]["healthcheck"]["test"]
    url = probe[-1]
    path = "/" + url.split("/", 3)[3]
    assert resolve(path).url_name == "healthz"


def test_the_servers_and_celery_are_installed():
    venv_bin = Path(shutil.which("python") or "").parent
    for tool in ("granian", "gunicorn", "celery"):
        assert (
            shutil.which(tool) or (venv_bin / tool).exists() or (ROOT / ".venv/bin" / tool).exists()
        )


def test_the_image_compiles_the_spanish_catalogue():
    """django.mo is not committed (.gitignore): the image must build it from django.po, with
    gettext's msgfmt installed, or every page of the image would be English only."""
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    apt = dockerfile[dockerfile.index("apt-get install") : dockerfile.index("rm -rf /var/lib/apt")]
    assert re.search(r"\bgettext\b", apt)
    assert "manage.py compilemessages" in dockerfile
    assert dockerfile.index("COPY . .") < dockerfile.index("compilemessages")
    assert (ROOT / "locale" / "es" / "LC_MESSAGES" / "django.po").exists()


def test_the_proxy_runs_the_repositorys_whole_nginx_configuration(compose):
    """The image's own main configuration allows 1,024 connections a worker; compose must
    replace it, not add a conf.d file beside it."""
    proxy = compose["services"]["proxy"]
    assert "./nginx.conf:/etc/nginx/nginx.conf:ro" in proxy["volumes"]
    assert not any("conf.d" in volume for volume in proxy["volumes"])
    nginx = (ROOT / "docker" / "nginx.conf").read_text()
    connections = int(re.search(r"^\s*worker_connections (\d+);", nginx, re.MULTILINE)[1])
    open_files = int(re.search(r"^worker_rlimit_nofile (\d+);", nginx, re.MULTILINE)[1])
    # Two connections a stream (the screen's, the one to `stream`), all in one worker at worst.
    assert connections >= 2 * 2000
    assert open_files > connections
    for name in ("proxy", "stream"):
        assert compose["services"][name]["ulimits"]["nofile"] >= open_files


def test_exactly_one_scheduler_and_workers_that_schedule_nothing(compose):
    """Every beat sends every periodic task: workers scale, so none may carry one."""
    services = compose["services"]
    beats = [name for name, service in services.items() if "beat" in service.get("command", [])]
    assert beats == ["beat"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]
    assert "deploy" not in services["beat"]  # no replicas to scale
    for name, service in services.items():
        assert "--beat" not in service.get("command", []) and "-B" not in service.get(
            "command", []
        ), f"{name} runs a scheduler inside a worker"
