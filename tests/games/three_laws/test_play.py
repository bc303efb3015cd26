"""3 Laws live play through the views: the facilitator's moves, questions, key transfers, and
every refusal, checked in the database and in the HTML the screens get back."""

import pytest
from django.urls import reverse

from games.engines import three_laws
from games.models import Move, TableStatus
from tests.games.conftest import (
    advance,
    facilitate,
    post_move,
    read_screen,
    start_table,
    submit,
    three_laws_session,
    to_transfer,
)

FACILITATOR = three_laws.FACILITATOR


@pytest.fixture
def session(classroom, teacher):
    return three_laws_session(classroom, teacher)


@pytest.fixture
def table(session, teacher, students, device_client):
    return start_table(session, teacher, students, device_client)


def device_page(table, index: int) -> str:
    return table.devices[index].get(reverse("games:device")).content.decode()


def ask(table, index: int, target: str, question: str = "", *, version=None, move_id="q"):
    table.game.refresh_from_db()
    return table.devices[index].post(
        reverse("games:three_laws_ask", args=[table.game.pk]),
        {
            "target": target,
            "question": question,
            "version": table.game.version if version is None else version,
            "client_move_id": move_id,
        },
        headers={"HX-Request": "true"},
    )


def state(table) -> dict:
    table.game.refresh_from_db()
    return table.game.state


# -- the facilitator -------------------------------------------------------------------------


def test_the_teacher_advances_each_phase_from_the_dashboard_with_named_buttons(
    table, teacher_client
):
    dashboard = teacher_client.get(reverse("games:teacher_tables", args=[table.session.pk]))
    html = dashboard.content.decode()
    assert ">Wake up</button>" in html
    assert "End round now" not in html, "3 Laws cannot be scored early"

    response = facilitate(teacher_client, table.game, {"type": "advance"}, move_id="a1")
    assert response.status_code == 200
    html = response.content.decode()
    assert ">Start questions</button>" in html and "Round 1 of 4 · Wake up" in html
    assert state(table)["phase"] == "wake_up"
    move = Move.objects.get(game=table.game)
    assert (move.seat, move.by_teacher_id, move.by_device_id) == (
        FACILITATOR,
        table.session.classroom.teacher_id,
        None,
    )

    facilitate(teacher_client, table.game, {"type": "advance"}, move_id="a2")
    assert state(table)["phase"] == "query"


def test_a_repeated_facilitator_click_advances_once(table, teacher_client):
    facilitate(teacher_client, table.game, {"type": "advance"}, move_id="same")
    table.game.refresh_from_db()
    response = teacher_client.post(
        reverse("games:facilitate", args=[table.game.pk]),
        {
            "action": '{"type": "advance"}',
            "version": table.game.version - 1,
            "client_move_id": "same",
        },
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert state(table)["phase"] == "wake_up"
    assert Move.objects.filter(game=table.game).count() == 1


def test_advancing_before_everyone_asked_is_refused_in_team_names(table, teacher, teacher_client):
    advance(table.game, teacher, 2)
    response = facilitate(teacher_client, table.game, {"type": "advance"}, move_id="early")
    html = response.content.decode()
    assert "Table 1: Everyone must ask a question first: it is Team 1&#x27;s turn" in html
    assert state(table)["phase"] == "query"


def test_a_stale_dashboard_cannot_advance(table, teacher, teacher_client):
    table.game.refresh_from_db()
    stale = table.game.version
    advance(table.game, teacher)
    response = teacher_client.post(
        reverse("games:facilitate", args=[table.game.pk]),
        {"action": '{"type": "advance"}', "version": stale, "client_move_id": "old"},
        headers={"HX-Request": "true"},
    )
    assert "The table has moved on" in response.content.decode()
    assert state(table)["phase"] == "wake_up"


def test_the_projector_page_shows_no_controls_but_answers_a_projector_post(table, teacher_client):
    """The class sees the projector: the teacher's buttons live on the tables dashboard only. A
    post from an older projector page still moves the table and answers with the projector."""
    page = teacher_client.get(reverse("games:projector", args=[table.game.pk])).content.decode()
    assert "<button" not in page and "<form" not in page
    dashboard = teacher_client.get(reverse("games:teacher_tables", args=[table.session.pk]))
    assert ">Wake up</button>" in dashboard.content.decode()
    assert ">Pause</button>" in dashboard.content.decode()
    response = facilitate(
        teacher_client, table.game, {"type": "advance"}, move_id="p1", screen="projector"
    )
    html = response.content.decode()
    assert 'class="live projector-table"' in html and "<button" not in html
    assert state(table)["phase"] == "wake_up"


def test_pause_from_the_projector_answers_with_the_projector(table, teacher_client):
    table.game.refresh_from_db()
    response = teacher_client.post(
        reverse("games:pause", args=[table.game.pk]),
        {"version": table.game.version, "screen": "projector"},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert 'class="live projector-table"' in html and "Paused" in html
    table.game.refresh_from_db()
    assert table.game.status == TableStatus.PAUSED


@pytest.mark.parametrize(
    "who, status", [("school_admin", 403), ("colleague", 404), ("other_teacher", 404)]
)
def test_only_the_class_teacher_may_facilitate(table, request, who, status):
    client = request.getfixturevalue(f"{who}_client")
    response = facilitate(client, table.game, {"type": "advance"}, move_id="x")
    assert response.status_code == status
    assert state(table)["phase"] == "setup"
    assert not Move.objects.filter(game=table.game).exists()


def test_a_device_can_neither_reach_the_facilitator_url_nor_advance_as_its_seat(table):
    device = table.devices[0]
    response = facilitate(device, table.game, {"type": "advance"}, move_id="d1")
    assert response.status_code == 404
    # In setup a device has no button at all: post the move by hand on the current version.
    table.game.refresh_from_db()
    response = post_move(
        device, table.game, {"type": "advance"}, version=table.game.version, move_id="d2"
    )
    assert "Only the facilitator can move the game on." in response.content.decode()
    assert state(table)["phase"] == "setup"


def test_the_move_service_refuses_the_facilitator_seat_without_the_teacher(table, colleague):
    from games import services

    table.game.refresh_from_db()
    for kwargs in ({}, {"by_device": table.devices[0].binding}, {"by_teacher": colleague}):
        with pytest.raises(services.ServiceError):
            services.move_submit(
                game_id=table.game.pk,
                seat=FACILITATOR,
                action={"type": "advance"},
                expected_version=table.game.version,
                client_move_id=f"svc-{len(kwargs)}-{id(kwargs)}",
                **kwargs,
            )
    assert state(table)["phase"] == "setup"


# -- questions -------------------------------------------------------------------------------


def test_the_asker_gets_one_button_per_other_team_and_the_example_questions(table, teacher):
    advance(table.game, teacher, 2)
    html = device_page(table, 0)
    for n in (2, 3, 4, 5):
        assert f'name="target" value="team-{n}"' in html and f">Ask Team {n}</button>" in html
    assert 'value="team-1"' not in html.split("tl-ask-form")[1].split("</form>")[0]
    assert "Am I the highest rank you see?" in html
    assert "Am I in the same faction as Team 2?" in html
    assert 'maxlength="280"' in html
    # Only the seat whose turn it is may ask.
    assert "tl-ask-form" not in device_page(table, 1)


def test_asking_records_the_words_and_passes_the_turn(table, teacher):
    advance(table.game, teacher, 2)
    response = ask(table, 0, "team-3", "  Am I the highest rank you see?  ")
    html = response.content.decode()
    assert "Team 1 asked Team 3: “Am I the highest rank you see?”" in html
    assert "Team 2 asks a question" in html
    move = Move.objects.get(game=table.game, seat="team-1")
    assert move.action == {
        "type": "query",
        "target": "team-3",
        "question": "Am I the highest rank you see?",
    }
    assert move.by_device_id == table.devices[0].binding.pk
    assert state(table)["turn"] == 1


def test_a_question_without_words_is_fine(table, teacher):
    advance(table.game, teacher, 2)
    html = ask(table, 0, "team-2").content.decode()
    assert "Team 1 asked Team 2." in html
    assert state(table)["queries"][0]["question"] == ""


@pytest.mark.parametrize(
    "index, target, question, message",
    [
        (1, "team-3", "", "It is Team 1&#x27;s turn to ask a question."),
        (0, "team-1", "", "You cannot ask yourself; pick another seat."),
        (0, "team-9", "", "&#x27;team-9&#x27; is not a seat at this table."),
        (0, "", "", "Pick a team to ask."),
        (0, "team-2", "x" * 281, "That question is too long: keep it to 280 letters."),
    ],
)
def test_a_bad_question_is_refused_with_a_clear_message(
    table, teacher, index, target, question, message
):
    advance(table.game, teacher, 2)
    before = state(table)
    response = ask(table, index, target, question)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert state(table) == before


def test_asking_before_the_query_phase_is_refused(table, teacher):
    advance(table.game, teacher)
    html = ask(table, 0, "team-2").content.decode()
    assert "Players ask a question in the Query phase; now it is Wake Up." in html
    assert state(table)["queries"] == []


def test_a_plain_post_question_redirects_to_the_device_page(table, teacher):
    advance(table.game, teacher, 2)
    table.game.refresh_from_db()
    response = table.devices[0].post(
        reverse("games:three_laws_ask", args=[table.game.pk]),
        {"target": "team-2", "version": table.game.version, "client_move_id": "plain"},
    )
    assert response.status_code == 302 and response.url == reverse("games:device")
    assert len(state(table)["queries"]) == 1


def test_another_tables_device_cannot_ask_here(session, table, students, device_client):
    from tests.games.conftest import seat_teams

    seat_teams(session, students[5:], teams=3, number=2, first_team_number=6)
    stranger = device_client(session, students[5])
    response = stranger.post(
        reverse("games:three_laws_ask", args=[table.game.pk]),
        {"target": "team-2", "version": 0, "client_move_id": "s"},
    )
    assert response.status_code == 403


# -- key transfers ---------------------------------------------------------------------------


def test_giving_keys_asks_the_receiver_who_accepts(table, teacher):
    to_transfer(table.game, teacher)
    html = device_page(table, 0)
    assert "Give my 1 key to Team 4</button>" in html and "Keep my keys</button>" in html
    screen = read_screen(html)
    give = {"type": "give", "to": "team-4"}
    assert give in screen.actions
    post_move(table.devices[0], table.game, give, version=screen.version, move_id="g1")

    receiver = device_page(table, 3)
    assert "Keys for you!" in receiver and "Team 1 offers you 1 key." in receiver
    assert "Accept the keys</button>" in receiver and "Reject the keys</button>" in receiver
    assert "Accept the keys" not in device_page(table, 1)
    screen = read_screen(receiver)
    html = post_move(
        table.devices[3], table.game, {"type": "accept"}, version=screen.version, move_id="a1"
    ).content.decode()
    assert "Team 4 accepted the keys of Team 1." in html
    keys = state(table)["keys"]
    assert keys["team-1"] == 0 and keys["team-4"] == 2


def test_rejected_keys_stay_with_the_giver(table, teacher):
    to_transfer(table.game, teacher)
    submit(table.game, "team-1", {"type": "give", "to": "team-2"})
    screen = read_screen(device_page(table, 1))
    post_move(table.devices[1], table.game, {"type": "reject"}, version=screen.version, move_id="r")
    data = state(table)
    assert data["keys"]["team-1"] == 1 and data["keys"]["team-2"] == 1
    assert data["transfers"][-1]["result"] == "rejected"


def test_keys_received_before_a_turn_are_all_offered_on_it(table, teacher):
    to_transfer(table.game, teacher)
    submit(table.game, "team-1", {"type": "give", "to": "team-2"})
    submit(table.game, "team-2", {"type": "accept"})
    submit(table.game, "team-2", {"type": "give", "to": "team-3"})
    submit(table.game, "team-3", {"type": "accept"})
    html = device_page(table, 2)
    assert "You hold 3 keys." in html and "Give my 3 keys to Team 1</button>" in html
    # Team 1 has had its turn: it cannot keep again.
    table.game.refresh_from_db()
    response = post_move(
        table.devices[0], table.game, {"type": "keep"}, version=table.game.version, move_id="k"
    )
    assert "It is Team 3&#x27;s turn to give or keep keys." in response.content.decode()
    assert len(state(table)["transfers"]) == 2


def test_the_offer_must_be_answered_before_anyone_else_moves(table, teacher):
    to_transfer(table.game, teacher)
    submit(table.game, "team-1", {"type": "give", "to": "team-3"})
    assert "Keep my keys" not in device_page(table, 1)
    response = post_move(
        table.devices[1], table.game, {"type": "keep"}, version=table.game.version, move_id="k2"
    )
    assert "Team 3 must first accept or reject the keys." in response.content.decode()
    assert state(table)["pending"] == {"from": "team-1", "to": "team-3", "keys": 1}


def test_the_reveal_button_appears_after_the_last_transfer(table, teacher, teacher_client):
    to_transfer(table.game, teacher)
    for seat in table.game.seats:
        submit(table.game, seat, {"type": "keep"})
    html = teacher_client.get(reverse("games:teacher_tables", args=[table.session.pk]))
    assert ">Reveal cards</button>" in html.content.decode()
    facilitate(teacher_client, table.game, {"type": "advance"}, move_id="rev")
    data = state(table)
    assert data["phase"] == "reveal"
    html = teacher_client.get(reverse("games:teacher_tables", args=[table.session.pk]))
    assert ">Next round</button>" in html.content.decode()
