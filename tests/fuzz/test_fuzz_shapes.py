"""Issue 40's property-based test of the live path: Hypothesis posts arbitrary shapes (JSON
values nested in any way, a move whose type is an object, huge strings, wrong types, repeated
and missing fields) to every form and endpoint a lesson uses while it is played: the moves of
both games, the facilitator's moves, the 3 Laws questions and calls, the tabletop bench, joining
a session, the teach-back and the poll's query parameters. No answer may be a 5xx, and nothing
may change in the database.

`test_fuzz_inputs` sends a fixed list of nasty values to every URL; this test explores the
shapes around the fields the live path parses (the event stream is fuzzed on a real ASGI server
in tests/games/live/test_streams.py)."""

from __future__ import annotations

import json
import os

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.values import form_body
from tests.fuzz.world import HTMX, fingerprint

# FUZZ_EXAMPLES=500 explores further, with a new seed each run; the default replays one seed.
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "40")),
    deadline=None,
    derandomize="FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | st.sampled_from(["draw", "deck", "query", "error", "advance", "team-2", "law_01", "\x00"])
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
# An action the way a broken or hostile client might send it: mostly an object with a "type"
# (of any shape), sometimes any other JSON value.
actions = st.one_of(
    st.builds(
        lambda kind, rest: {**rest, "type": kind},
        json_values,
        st.dictionaries(
            st.sampled_from(["card", "source", "target", "to", "law", "call", "question"]),
            json_values,
            max_size=3,
        ),
    ),
    json_values,
)
huge = st.sampled_from(["x" * 100_000, "é" * 30_000, "[" * 5000 + "]" * 5000])
# One field's text on the wire: JSON of any shape, free text, numbers written oddly, or huge.
field_text = st.one_of(
    json_values.map(json.dumps),
    st.text(max_size=40),
    st.integers().map(str),
    st.sampled_from(["1e309", "NaN", "-0", "٣", "１２", "²", ""]),
    huge,
)
# A field is sent once, several times (a list), or not at all.
field_value = st.one_of(field_text, st.lists(field_text, min_size=2, max_size=3), st.none())


def fields(names: tuple[str, ...]):
    return st.fixed_dictionaries(dict.fromkeys(names, field_value))


def wire(data: dict) -> dict:
    return {key: value for key, value in data.items() if value is not None}


def post(client, path: str, data: dict, *, htmx: bool):
    return client.post(
        path,
        form_body(wire(data)),
        content_type="application/x-www-form-urlencoded",
        headers=HTMX if htmx else {},
    )


def get(client, path: str, data: dict, *, htmx: bool):
    query = form_body(wire(data)).decode()
    return client.get(f"{path}?{query}", headers=HTMX if htmx else {})


def rows() -> list:
    """Every row of `fingerprint`: sign-ins live in Django's session table, outside the apps it
    reads, so a refusal's message riding in the session changes no row here."""
    return fingerprint()


def check(send) -> None:
    """`send()` makes one request: it answers below 500 and changes no row."""
    before = rows()
    response = send()
    assert response.status_code < 500, response.content[:500]
    assert rows() == before


MOVE_FIELDS = ("version", "client_move_id")


@pytest.mark.parametrize("endpoint", ["games:move", "games:facilitate"])
@FUZZ
@given(action=actions, rest=fields(MOVE_FIELDS), htmx=st.booleans(), as_text=st.booleans())
def test_a_move_of_any_shape_is_refused_without_a_server_error(
    world,  # noqa: F811
    endpoint,
    action,
    rest,
    htmx,
    as_text,
):
    if endpoint == "games:move":
        client, game = world.device_live, world.live.game
    else:
        client, game = world.client("teacher"), world.laws.game
    data = {"action": json.dumps(action) if as_text else action, **rest}
    if not isinstance(data["action"], str):
        data["action"] = json.dumps(data["action"])
    check(lambda: post(client, reverse(endpoint, args=[game.pk]), data, htmx=htmx))


@FUZZ
@given(
    data=fields(("target", "question", "version", "client_move_id")),
    htmx=st.booleans(),
)
def test_a_question_of_any_shape_is_refused(world, data, htmx):  # noqa: F811
    path = reverse("games:three_laws_ask", args=[world.laws.game.pk])
    device = world.device_laws
    check(lambda: post(device, path, data, htmx=htmx))


@FUZZ
@given(
    data=fields(("kind", "offender", "law", "call", "client_move_id")),
    htmx=st.booleans(),
)
def test_an_error_call_of_any_shape_is_refused(world, data, htmx):  # noqa: F811
    path = reverse("games:three_laws_call", args=[world.laws.game.pk])
    device = world.device_laws
    check(lambda: post(device, path, data, htmx=htmx))


@FUZZ
@given(data=fields(("sense", "think", "act", "power", "mission", "client_move_id")))
def test_a_tabletop_bench_of_any_shape_is_refused(world, data):  # noqa: F811
    game, device = world.tabletop
    # A well-formed bench would be saved: the move id is always one no column can hold.
    data = {**data, "client_move_id": "x" * 100}
    check(lambda: post(device, reverse("games:tabletop_bench", args=[game.pk]), data, htmx=False))


@FUZZ
@given(data=fields(("code", "student")), method=st.sampled_from(["get", "post"]))
def test_joining_with_any_shape_changes_nothing(world, data, method):  # noqa: F811
    world.setup  # noqa: B018 - an open session exists to be guessed at
    send = get if method == "get" else post
    client = world.client("anonymous")
    check(lambda: send(client, reverse("classroom:join"), data, htmx=False))


SENTENCE = ("senses_with", "thinks_with", "acts_with", "powered_by", "because")


@FUZZ
@given(
    data=fields(SENTENCE),
    poisoned=st.sampled_from(SENTENCE),
    poison=st.sampled_from(["nul\x00byte", "x" * 100_000, None]),
    htmx=st.booleans(),
)
def test_a_teachback_of_any_shape_is_refused(world, data, poisoned, poison, htmx):  # noqa: F811
    # A well-formed sentence would be saved: one field is always missing or unstorable.
    data = {**data, poisoned: poison}
    path = reverse("games:teachback", args=[world.finished.table.session.pk])
    device = world.device_teachback
    check(lambda: post(device, path, data, htmx=htmx))


@FUZZ
@given(data=fields(("t", "v")), htmx=st.booleans())
def test_polling_with_any_query_answers_without_a_server_error(world, data, htmx):  # noqa: F811
    device = world.device_live
    check(lambda: get(device, reverse("games:poll"), data, htmx=htmx))
