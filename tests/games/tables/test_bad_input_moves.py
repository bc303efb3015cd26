"""Issue 15's 500s on bad move input, each with the exact input that broke: the device gets a
clear message and nothing is saved."""

import json

import pytest
from django.urls import reverse

from games.models import Move
from tests.games.conftest import (
    advance,
    post_move,
    read_screen,
    start_live_table,
    start_table,
    three_laws_session,
)

UNREADABLE = "That move could not be read. Tap one of the buttons again."


@pytest.fixture
def table(open_session, teacher, students, device_client):
    return start_live_table(open_session, teacher, students, device_client)


def snapshot(game) -> tuple:
    game.refresh_from_db()
    return game.version, game.state, Move.objects.filter(game=game).count()


def test_deeply_nested_action_is_refused_as_unreadable(table):
    before = snapshot(table.game)
    response = table.devices[0].post(
        reverse("games:move", args=[table.game.pk]),
        {
            "action": "[" * 50000 + "]" * 50000,
            "version": table.game.version,
            "client_move_id": "deep",
        },
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert UNREADABLE in response.content.decode()
    assert snapshot(table.game) == before


def test_nesting_below_the_size_limit_but_past_the_parser_is_refused_too(table):
    before = snapshot(table.game)
    response = table.devices[0].post(
        reverse("games:move", args=[table.game.pk]),
        {"action": "[" * 1500 + "]" * 1500, "version": table.game.version, "client_move_id": "x"},
        headers={"HX-Request": "true"},
    )
    assert UNREADABLE in response.content.decode()
    assert snapshot(table.game) == before


def test_nul_in_the_client_move_id_is_refused(table):
    html = table.devices[0].get(reverse("games:device")).content.decode()
    screen = read_screen(html)
    before = snapshot(table.game)
    response = post_move(
        table.devices[0],
        table.game,
        screen.actions[0],
        version=screen.version,
        move_id="nul\x00id",
    )
    assert response.status_code == 200
    assert UNREADABLE in response.content.decode()
    assert snapshot(table.game) == before


@pytest.fixture
def laws_table(classroom, teacher, students, device_client):
    session = three_laws_session(classroom, teacher)
    table = start_table(session, teacher, students, device_client)
    advance(table.game, teacher, 2)  # to the questions: Team 1 asks
    return table


@pytest.mark.parametrize("question", ["nul\u0000byte", "lone \ud800 surrogate"])
def test_a_question_the_database_cannot_hold_is_refused_through_the_move_url(laws_table, question):
    game = laws_table.game
    before = snapshot(game)
    # Sent as JSON text, the way a forged form would: "\u0000" and "\ud800" are escapes there.
    action = json.dumps({"type": "query", "target": "team-2", "question": question})
    response = laws_table.devices[0].post(
        reverse("games:move", args=[game.pk]),
        {"action": action, "version": game.version, "client_move_id": "q-nul"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert UNREADABLE in response.content.decode()
    assert snapshot(game) == before


def test_the_move_service_refuses_unstorable_text_whoever_calls_it(laws_table):
    from games import services

    game = laws_table.game
    before = snapshot(game)
    with pytest.raises(services.MoveRefused, match="could not be read"):
        services.move_submit(
            game_id=game.pk,
            seat="team-1",
            action={"type": "query", "target": "team-2", "question": "nul\x00"},
            expected_version=game.version,
            client_move_id="svc",
            by_device=laws_table.devices[0].binding,
        )
    assert snapshot(game) == before


def test_a_normal_question_still_goes_through_the_move_url(laws_table):
    game = laws_table.game
    action = json.dumps({"type": "query", "target": "team-2", "question": "Zoë? 🤖 مرحبا"})
    laws_table.devices[0].post(
        reverse("games:move", args=[game.pk]),
        {"action": action, "version": game.version, "client_move_id": "q-ok"},
        headers={"HX-Request": "true"},
    )
    assert Move.objects.get(game=game, client_move_id="q-ok").action["question"] == (
        "Zoë? 🤖 مرحبا"
    )


@pytest.mark.parametrize("total", ["abc", "1e309", "²", "-7", "99999999999999999999"])
def test_rubric_editor_add_row_with_a_forged_form_count_answers_with_the_editor(
    teacher_client, classroom, total
):
    from games.models import Rubric

    url = reverse("games:rubric_edit", args=[classroom.pk])
    teacher_client.get(url)  # makes the class's first rubric
    before = list(Rubric.objects.filter(classroom=classroom).values_list("pk", "version"))
    response = teacher_client.post(url, {"add": "1", "form-TOTAL_FORMS": total})
    assert response.status_code == 200
    assert 'name="form-TOTAL_FORMS"' in response.content.decode()
    after = list(Rubric.objects.filter(classroom=classroom).values_list("pk", "version"))
    assert after == before


@pytest.mark.parametrize(
    "action",
    [
        # Issue 40: the type was looked up in a set, and an object cannot be.
        '{"type": {"x": 1}}',
        '{"type": ["draw"]}',
        '{"type": 7}',
        '{"type": null}',
        '["draw"]',
        '"draw"',
    ],
)
def test_an_action_that_is_not_an_object_with_a_text_type_is_unreadable(table, action):
    before = snapshot(table.game)
    response = table.devices[0].post(
        reverse("games:move", args=[table.game.pk]),
        {"action": action, "version": table.game.version, "client_move_id": "shape"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert UNREADABLE in response.content.decode()
    assert snapshot(table.game) == before


def test_the_move_service_refuses_an_action_of_another_shape_too(table):
    from games import services

    before = snapshot(table.game)
    with pytest.raises(services.MoveRefused):
        services.move_submit(
            game_id=table.game.pk,
            seat=table.game.seats[0],
            action={"type": {"x": 1}},
            expected_version=table.game.version,
            client_move_id="service-shape",
        )
    assert snapshot(table.game) == before
