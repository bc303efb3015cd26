"""Issue 15's fuzz test: every parameter of every URL gets every nasty value (NUL, a lone
surrogate, 100 KB, JSON nested 50,000 deep, Unicode digits, negative and huge numbers, RTL and
emoji), as each role that reaches the code reading it. Any 5xx fails, and so does a value no
column can hold that changed the database when it was sent to a field that is saved.

Runs on the configured database: SQLite in the embedded run, PostgreSQL (where NUL and lone
surrogates fail in the driver) in the server run of `.ci/run`."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.views import static

from tests.fuzz.routes import NOT_FUZZED, FuzzRoute, all_routes
from tests.fuzz.values import HUGE_IDS, NASTY, REFUSED, file_bytes, form_body, path_segment
from tests.fuzz.world import HTMX, World, fingerprint

ROUTES = all_routes()
# An htmx request takes another branch of the view (a partial): these values go down it too.
HTMX_VALUES = ("nul", "lone_surrogate", "json_with_nul", "superscript_two", "huge")
# A route that reads no parameter gets one it does not expect, with the values that could
# still break the request's decoding.
UNREAD = "unexpected"
UNREAD_VALUES = ("nul", "lone_surrogate", "deep_json")


def send(client: Client, route: FuzzRoute, path: str, data: dict, *, htmx: bool = False):
    headers = HTMX if htmx else {}
    if route.method == "get":
        query = form_body(data).decode()
        return client.get(f"{path}?{query}" if query else path, headers=headers)
    return client.post(
        path, form_body(data), content_type="application/x-www-form-urlencoded", headers=headers
    )


def requests_for(route: FuzzRoute, world: World):
    """(what is sent, a callable sending it, the parameter it fuzzes or None)."""
    args = route.args(world)
    path = reverse(route.name, args=args)
    base = route.params(world)
    for key in list(base) or [UNREAD]:
        for label, value in NASTY.items():
            if key == UNREAD and label not in UNREAD_VALUES:
                continue
            data = {**base, key: value}
            for htmx in (False, True) if route.htmx and label in HTMX_VALUES else (False,):
                yield (
                    f"{key}={label}{' (htmx)' if htmx else ''}",
                    lambda c, d=data, h=htmx: send(c, route, path, d, htmx=h),
                    key if label in REFUSED else None,
                )
    if route.upload:
        for label, value in NASTY.items():
            upload = SimpleUploadedFile("roster.csv", file_bytes(value), "text/csv")
            yield (
                f"{route.upload} holding {label}",
                lambda c, u=upload: c.post(path, {route.upload: u}),
                route.upload if label in REFUSED else None,
            )
    for index, arg in enumerate(args):
        if isinstance(arg, int):
            for huge in HUGE_IDS:
                forged = [*args[:index], huge, *args[index + 1 :]]
                url = reverse(route.name, args=forged)
                yield f"path id {huge}", lambda c, u=url: send(c, route, u, base), None
        elif route.fuzz_path and isinstance(arg, str):
            for label, value in NASTY.items():
                if not value:
                    continue
                forged = [*args[:index], "ARG", *args[index + 1 :]]
                url = reverse(route.name, args=forged).replace("ARG", path_segment(value))
                yield f"path {label}", lambda c, u=url: send(c, route, u, base), None


@pytest.mark.parametrize("route", ROUTES, ids=lambda route: route.label)
def test_no_value_of_any_parameter_makes_a_server_error(world, route):
    failures = []
    for role in route.roles:
        client = world.client(role)
        for sent, request, stored in requests_for(route, world):
            checked = stored is not None and stored in route.stores
            before = fingerprint() if checked else None
            try:
                response = request(client)
            except Exception as exc:  # noqa: BLE001 - every crash is reported with its input
                failures.append(f"{role} {sent}: {type(exc).__name__}: {str(exc)[:200]}")
                # On PostgreSQL the test's transaction is now unusable: stop this route here.
                break
            if response.status_code >= 500:
                failures.append(f"{role} {sent}: {response.status_code}")
            elif checked and fingerprint() != before:
                failures.append(f"{role} {sent}: answered {response.status_code} but saved it")
        else:
            continue
        break
    assert not failures, f"{route.label}:\n" + "\n".join(failures)


def url_names() -> set[str]:
    """Every URL name of the site but Django's own admin (staff only, not BotBench's code) and
    its development file server."""

    def walk(patterns, prefix: str):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.app_name == "admin":
                    continue
                namespace = f"{prefix}{pattern.namespace}:" if pattern.namespace else prefix
                yield from walk(pattern.url_patterns, namespace)
            elif isinstance(pattern, URLPattern):
                if pattern.callback is static.serve:
                    continue  # media files in development (DEBUG): Django's own view
                yield prefix + (pattern.name or f"<unnamed {pattern.pattern}>")

    return set(walk(get_resolver().url_patterns, ""))


def test_every_url_is_fuzzed():
    missing = url_names() - {route.name for route in ROUTES} - set(NOT_FUZZED)
    assert not missing, f"add these URLs to tests/fuzz/routes_*.py: {sorted(missing)}"
