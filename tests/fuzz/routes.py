"""How the fuzz table describes a URL: the parameters it reads, who reaches the code that reads
them, and which of them are saved. The tables themselves are `routes_classroom` and
`routes_games`; `test_fuzz_inputs` sends each parameter every nasty value.

Like the permission matrix (tests/support/matrix.py): a URL that is not in a table, or in
NOT_FUZZED with a reason, fails `test_every_url_is_fuzzed`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

TEACHER_AND_ADMIN = ("teacher", "admin")


@dataclass(frozen=True)
class FuzzRoute:
    name: str
    method: str = "post"
    # Who reaches the code that reads the parameters (others are turned away before it, which
    # the permission matrices check).
    roles: tuple[str, ...] = ("teacher",)
    args: Callable[[Any], list] = lambda w: []
    # Valid values for every parameter: each in turn gets the nasty values, the others keep these.
    params: Callable[[Any], dict[str, Any]] = lambda w: {}
    # Parameters whose text is saved: a value no column can take must change nothing.
    stores: tuple[str, ...] = ()
    # The str arguments in the path get the nasty values too.
    fuzz_path: bool = False
    # A file field whose content gets the nasty values (as the bytes of a CSV).
    upload: str = ""
    htmx: bool = False

    @property
    def label(self) -> str:
        return f"{self.method.upper()} {self.name}"


def all_routes() -> list[FuzzRoute]:
    from tests.fuzz.routes_classroom import ROUTES as CLASSROOM
    from tests.fuzz.routes_games import ROUTES as GAMES
    from tests.fuzz.routes_lti import ROUTES as LTI

    return [*CLASSROOM, *GAMES, *LTI]


NOT_FUZZED = {
    # Its whole answer is the state of the database and the broker (503 when one is down, by
    # design); it reads no parameter. tests/foundation/test_health.py covers it.
    "classroom:healthz": "no parameters; 503 is its answer when a server is down",
    "classroom:healthz_live": "no parameters, nothing read: always 200 (tests/foundation)",
    # An event stream: under the WSGI test client it declines with 503 by design, and on ASGI a
    # good token holds it open. tests/games/live/test_streams.py sends it the same nasty values on a
    # real ASGI server.
    "games:stream": "fuzzed on a real ASGI server in tests/games/live/test_streams.py",
}
