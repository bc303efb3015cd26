"""A data-driven permission matrix: every URL x every role -> the expected status.

Other apps follow the same pattern: describe each route once (`Route`), with a status per role
(start from one of the presets below and override), and parametrize one test over
`cases(ROUTES)`. The `world` builds the objects the routes point at; `clients` gives one client
per role."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.test import Client

ROLES = (
    "anonymous",
    "other_school_teacher",
    "colleague",
    "teacher",
    "school_admin",
    "device_this",
    "device_other",
)

# Presets. Devices have no account, so adult pages send them to the log-in page like anyone
# anonymous; a colleague or another school's teacher must not learn the object exists (404);
# an administrator reads everything of the school and writes nothing (403).
VIEW = {
    "anonymous": 302,
    "other_school_teacher": 404,
    "colleague": 404,
    "teacher": 200,
    "school_admin": 200,
    "device_this": 302,
    "device_other": 302,
}
OWNER_ONLY = {**VIEW, "school_admin": 403}
OWNER_WRITE = {**OWNER_ONLY, "teacher": 302}
ADMIN_ONLY = {
    "anonymous": 302,
    "other_school_teacher": 403,
    "colleague": 403,
    "teacher": 403,
    "school_admin": 200,
    "device_this": 302,
    "device_other": 302,
}
ADULTS = dict.fromkeys(ROLES, 200) | {"anonymous": 302, "device_this": 302, "device_other": 302}
EVERYONE = dict.fromkeys(ROLES, 200)


@dataclass(frozen=True)
class Route:
    name: str
    expect: dict[str, int]
    method: str = "get"
    args: Callable[[Any], list] = lambda world: []
    data: Callable[[Any], dict] = lambda world: {}
    query: str = ""
    note: str = ""
    overrides: dict[str, int] = field(default_factory=dict)

    def status_for(self, role: str) -> int:
        return {**self.expect, **self.overrides}[role]

    @property
    def label(self) -> str:
        return (
            f"{self.method.upper()} {self.name}{self.query}{' ' + self.note if self.note else ''}"
        )


def cases(routes: Iterable[Route]) -> list[tuple[Route, str]]:
    return [(route, role) for route in routes for role in ROLES]


def case_id(value: Any) -> str:
    return value.label.replace(" ", "_") if isinstance(value, Route) else str(value)


def client_for(world: Any, role: str) -> Client:
    """The client acting as `role` in a matrix world: signed-in adults from `world.users`, an
    anonymous client, or one of the world's device clients (`world.device_this`, ...)."""
    if role in world.users:
        client = Client()
        client.force_login(world.users[role])
        return client
    if role == "anonymous":
        return Client()
    return getattr(world, role)
