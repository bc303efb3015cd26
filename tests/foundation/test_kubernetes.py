"""The Kubernetes manifests (deploy/kubernetes), checked offline: rendered as Kustomize would,
every object validated against Kubernetes' own schemas (kubernetes-validate bundles them), then
held to what this site needs of them, each rule with its reason beside it."""

from __future__ import annotations

import copy
from pathlib import Path

import kubernetes_validate
import pytest
import yaml
from django.urls import resolve

from classroom.views import health
from tests.support.settings_env import env_names_read_by_settings

ROOT = Path(__file__).resolve().parents[2]
KUBERNETES = ROOT / "deploy" / "kubernetes"
# The oldest release still maintained when these manifests were written: a district's cluster
# is seldom the newest.
KUBERNETES_VERSION = "1.31"
# What this loader understands of a kustomization; anything else fails rather than being ignored.
KUSTOMIZE_FIELDS = {"apiVersion", "kind", "namespace", "resources", "images", "patches"}
CLUSTER_WIDE = {"Namespace"}
SECRET_VARIABLES = {"DJANGO_SECRET_KEY", "DATABASE_URL", "REDIS_URL"}


def render(directory: Path) -> list[dict]:
    """The objects `kubectl kustomize directory` prints, for the fields KUSTOMIZE_FIELDS names:
    resources (files or directories, in order), strategic-merge patches of maps (a list in a
    patch replaces the list), images and namespace."""
    kustomization = yaml.safe_load((directory / "kustomization.yaml").read_text())
    unknown = set(kustomization) - KUSTOMIZE_FIELDS
    assert not unknown, f"{directory}: this loader does not render {sorted(unknown)}"
    objects: list[dict] = []
    for entry in kustomization.get("resources", []):
        path = directory / entry
        if path.is_dir():
            objects += render(path)
        else:
            objects += [doc for doc in yaml.safe_load_all(path.read_text()) if doc]
    for patch in kustomization.get("patches", []):
        for change in yaml.safe_load_all((directory / patch["path"]).read_text()):
            target = one(objects, change["kind"], change["metadata"]["name"])
            merge(target, {k: v for k, v in change.items() if k not in ("apiVersion", "kind")})
    for image in kustomization.get("images", []):
        for container in containers(objects):
            if container["image"].split(":")[0] == image["name"]:
                container["image"] = f"{image.get('newName', image['name'])}:{image['newTag']}"
    if "namespace" in kustomization:
        for obj in objects:
            if obj["kind"] not in CLUSTER_WIDE:
                obj["metadata"]["namespace"] = kustomization["namespace"]
    return objects


def merge(target: dict, change: dict) -> None:
    for key, value in change.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            merge(target[key], value)
        else:
            target[key] = copy.deepcopy(value)


def one(objects: list[dict], kind: str, name: str) -> dict:
    found = [o for o in objects if o["kind"] == kind and o["metadata"]["name"] == name]
    assert len(found) == 1, f"{len(found)} objects {kind}/{name}"
    return found[0]


def pod_specs(objects: list[dict]) -> list[tuple[str, dict]]:
    return [
        (o["metadata"]["name"], o["spec"]["template"]["spec"])
        for o in objects
        if o["kind"] in ("Deployment", "Job")
    ]


def containers(objects: list[dict], *, init: bool = True) -> list[dict]:
    found = []
    for _, spec in pod_specs(objects):
        found += spec["containers"] + (spec.get("initContainers", []) if init else [])
    return found


def container(objects: list[dict], deployment: str) -> dict:
    (main,) = one(objects, "Deployment", deployment)["spec"]["template"]["spec"]["containers"]
    return main


@pytest.fixture(scope="module", params=["base", "example"])
def objects(request) -> list[dict]:
    return render(KUBERNETES / request.param)


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())


def test_every_object_is_valid_against_the_kubernetes_schemas(objects):
    assert len(objects) >= 15
    for obj in objects:
        try:
            kubernetes_validate.validate(obj, KUBERNETES_VERSION, strict=True)
        except kubernetes_validate.ValidationError as exc:
            pytest.fail(f"{obj['kind']}/{obj['metadata']['name']}: {exc.message} at {exc.path}")


def test_the_tiers_run_what_compose_runs(objects, compose):
    """One image, the same commands: what the compose tests check holds here too."""
    services = compose["services"]
    for tier in ("web", "worker", "beat"):
        assert container(objects, f"botbench-{tier}")["command"] == services[tier]["command"]
    assert container(objects, "botbench-stream")["command"] == services["stream"]["command"]
    (migrate,) = one(objects, "Job", "botbench-migrate")["spec"]["template"]["spec"]["containers"]
    assert migrate["command"] == services["migrate"]["command"]


def test_exactly_one_scheduler(objects):
    """Each Celery beat sends every periodic task: one replica, never two during a rollout
    (Recreate), none inside a worker, and no autoscaler on it."""
    beats = [
        c
        for c in containers(objects, init=False)
        if c["command"][:4] == ["celery", "-A", "config", "beat"]
    ]
    assert len(beats) == 1
    beat = one(objects, "Deployment", "botbench-beat")["spec"]
    assert beat["replicas"] == 1 and beat["strategy"] == {"type": "Recreate"}
    for c in containers(objects):
        assert "--beat" not in c["command"] and "-B" not in c["command"], c["name"]
    scaled = {
        o["spec"]["scaleTargetRef"]["name"]
        for o in objects
        if o["kind"] == "HorizontalPodAutoscaler"
    }
    assert scaled == {"botbench-web", "botbench-stream"}


def test_probes_leave_replicas_running_through_a_database_outage(objects):
    """Readiness is /healthz (503 without the database: traffic goes elsewhere); liveness is a
    path whose view touches nothing outside the process (tests/foundation/test_health.py), so
    an outage restarts no replica. Their Host must be one Django allows."""
    config = one(objects, "ConfigMap", "botbench-config")["data"]
    allowed = config["DJANGO_ALLOWED_HOSTS"].split(",")
    for tier in ("botbench-web", "botbench-stream"):
        main = container(objects, tier)
        ready, live = main["readinessProbe"]["httpGet"], main["livenessProbe"]["httpGet"]
        assert resolve(ready["path"]).func is health.healthz
        assert resolve(live["path"]).func is health.liveness
        port_names = {port["name"] for port in main["ports"]}
        for probe in (ready, live):
            assert probe["port"] in port_names
            headers = {h["name"]: h["value"] for h in probe["httpHeaders"]}
            assert headers["Host"] in allowed
            # Otherwise SECURE_SSL_REDIRECT answers the probe with a redirect to https.
            assert headers["X-Forwarded-Proto"] == "https"


def test_every_container_says_what_it_needs_and_runs_locked_down(objects):
    """Requests for the scheduler and the autoscaler; a memory limit so one leaking process is
    restarted alone; non-root, no privilege escalation, no capabilities, a read-only root (the
    writable places are emptyDirs and the media volume)."""
    for name, spec in pod_specs(objects):
        assert spec["securityContext"]["runAsNonRoot"] is True, name
        assert spec["automountServiceAccountToken"] is False, name
        writable = {volume["name"] for volume in spec["volumes"]}
        for c in spec["containers"] + spec.get("initContainers", []):
            where = f"{name}/{c['name']}"
            assert {"cpu", "memory"} <= set(c["resources"]["requests"]), where
            assert "memory" in c["resources"]["limits"], where
            lock = c["securityContext"]
            assert lock["readOnlyRootFilesystem"] is True, where
            assert lock["allowPrivilegeEscalation"] is False, where
            assert lock["capabilities"]["drop"] == ["ALL"], where
            mounted = {mount["name"] for mount in c.get("volumeMounts", [])}
            assert {"tmp", "var"} <= mounted <= writable, where


def test_images_are_pinned(objects):
    for c in containers(objects):
        name, _, tag = c["image"].rpartition(":")
        assert name and tag and tag != "latest" and "/" not in tag, c["image"]


def test_secrets_come_from_the_secret_and_the_rest_is_read_by_the_settings(objects):
    known = env_names_read_by_settings()
    config = one(objects, "ConfigMap", "botbench-config")["data"]
    assert not SECRET_VARIABLES & set(config)
    assert set(config) <= known, sorted(set(config) - known)
    for c in containers(objects):
        env = {item["name"]: item for item in c["env"]}
        for name in SECRET_VARIABLES:
            assert env[name]["valueFrom"]["secretKeyRef"]["name"] == "botbench-secrets", c["name"]
        assert all("value" not in item for item in c["env"]), c["name"]
        assert c["envFrom"] == [{"configMapRef": {"name": "botbench-config"}}]


def test_streams_reach_the_stream_tier_unbuffered_and_the_rest_reaches_web(objects):
    routes = {}
    for ingress in (o for o in objects if o["kind"] == "Ingress"):
        for rule in ingress["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                routes[path["path"]] = (ingress, path["backend"]["service"])
    assert resolve("/play/stream/").url_name == "stream"
    stream, backend = routes["/play/stream/"]
    notes = stream["metadata"]["annotations"]
    assert notes["nginx.ingress.kubernetes.io/proxy-buffering"] == "off"
    # A quiet stream pings every 20 s; an hour leaves room for any pause.
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600
    assert backend["name"] == "botbench-stream"
    _, web = routes["/"]
    assert web["name"] == "botbench-web"
    for service in (o for o in objects if o["kind"] == "Service"):
        selected = service["spec"]["selector"]
        deployment = one(objects, "Deployment", service["metadata"]["name"])
        assert deployment["spec"]["template"]["metadata"]["labels"] == selected


def test_budgets_and_autoscalers_select_real_pods(objects):
    labels = [
        o["spec"]["template"]["metadata"]["labels"] for o in objects if o["kind"] == "Deployment"
    ]
    budgets = [o for o in objects if o["kind"] == "PodDisruptionBudget"]
    assert {b["metadata"]["name"] for b in budgets} == {
        "botbench-web",
        "botbench-stream",
        "botbench-worker",
    }
    for budget in budgets:
        assert budget["spec"]["selector"]["matchLabels"] in labels
    for hpa in (o for o in objects if o["kind"] == "HorizontalPodAutoscaler"):
        target = one(objects, "Deployment", hpa["spec"]["scaleTargetRef"]["name"])
        # The autoscaler owns the count; a fixed one would be reset at every apply.
        assert "replicas" not in target["spec"]
        assert hpa["spec"]["minReplicas"] >= 2  # a budget of one and a drain leave one serving


def test_the_example_overlay_is_a_district_of_its_own():
    objects = render(KUBERNETES / "example")
    assert {o["metadata"].get("namespace") for o in objects if o["kind"] != "Namespace"} == {
        "botbench"
    }
    config = one(objects, "ConfigMap", "botbench-config")["data"]
    hosts = {rule["host"] for o in objects if o["kind"] == "Ingress" for rule in o["spec"]["rules"]}
    assert hosts == {"botbench.district.example"}
    assert "botbench.district.example" in config["DJANGO_ALLOWED_HOSTS"].split(",")
    assert {c["image"] for c in containers(objects)} == {
        "registry.district.example/botbench:2026.12.1"
    }
