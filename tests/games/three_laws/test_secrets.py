"""Hidden information at the HTTP level: a seat never sees its own faction card before Reveal
(not on its page, not in a poll answer, not in the answer to its own move), the projector sees
no faction before Reveal, and Victory Point values stay with their holder until the end."""

import re

import pytest
from django.urls import reverse

from tests.games.conftest import (
    DEAL,
    SEATS,
    advance,
    finish_round,
    own_card_shown,
    seat_tile,
    start_table,
    submit,
    three_laws_session,
)

FACTION_WORDS = re.compile(r"android|cyborg|drone", re.I)


@pytest.fixture
def table(classroom, teacher, students, device_client):
    session = three_laws_session(classroom, teacher)
    return start_table(session, teacher, students, device_client)


def device_page(table, index: int) -> str:
    return table.devices[index].get(reverse("games:device")).content.decode()


def poll_url(html: str) -> str:
    url = re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', html).group(1).replace("&amp;", "&")
    return url


def vp_values(html: str) -> list[str]:
    return re.findall(r'class="tl-vp-card">(\d)<', html)


def assert_own_card_hidden(html: str, index: int) -> None:
    seat = SEATS[index]
    assert not own_card_shown(html, seat), f"{seat} sees its own card"
    tile = seat_tile(html, seat)
    assert 'class="tl-rank">?<' in tile and "tl-faction" in tile
    assert not FACTION_WORDS.search(tile)
    for other in SEATS:
        if other != seat:
            assert own_card_shown(html, other), f"{seat} does not see {other}'s card"


@pytest.mark.parametrize("index", range(5))
def test_a_device_sees_every_card_but_its_own_from_wake_up(table, teacher, index):
    advance(table.game, teacher)
    assert_own_card_hidden(device_page(table, index), index)


def test_the_only_drone_never_reads_drone_on_its_page_before_reveal(table, teacher):
    assert DEAL["team-1"][0] == "drones"
    assert all(card[0] != "drones" for seat, card in DEAL.items() if seat != "team-1")
    advance(table.game, teacher)
    pages = [device_page(table, 0)]  # wake up
    advance(table.game, teacher)
    pages.append(device_page(table, 0))  # questions, Team 1's turn to ask
    to_transfer_from_query(table)
    pages.append(device_page(table, 0))  # key transfers
    for html in pages:
        # The example questions name every faction in play (public): "Am I a Drone like you
        # are?". Nothing else may.
        assert "Drone" not in html.replace("Am I a Drone like you are?", "")
        assert "tl-drones" not in html


def test_in_setup_no_device_sees_any_card(table):
    for index in range(5):
        assert not FACTION_WORDS.search(
            "".join(re.findall(r'<ul class="tl-seats">.*?</ul>', device_page(table, index), re.S))
        )


def test_a_poll_answer_after_a_change_holds_no_own_card(
    table, teacher, django_capture_on_commit_callbacks
):
    page = device_page(table, 1)
    url = poll_url(page)
    assert table.devices[1].get(url).status_code == 204  # nothing changed yet
    with django_capture_on_commit_callbacks(execute=True):
        advance(table.game, teacher)
    response = table.devices[1].get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Round 1 of 4 · <strong>Wake up</strong>" in html
    assert_own_card_hidden(html, 1)
    # Later changes too: the questions start, Team 1 asks Team 2.
    with django_capture_on_commit_callbacks(execute=True):
        advance(table.game, teacher)
        submit(table.game, "team-1", {"type": "query", "target": "team-2"})
    html = table.devices[1].get(poll_url(html)).content.decode()
    assert "Team 1 asked Team 2." in html
    assert_own_card_hidden(html, 1)


def test_the_answer_to_a_seats_own_move_holds_no_own_card(table, teacher):
    advance(table.game, teacher, 2)
    table.game.refresh_from_db()
    response = table.devices[0].post(
        reverse("games:three_laws_ask", args=[table.game.pk]),
        {
            "target": "team-2",
            "question": "Am I the highest rank you see?",
            "version": table.game.version,
            "client_move_id": "q1",
        },
        headers={"HX-Request": "true"},
    )
    assert_own_card_hidden(response.content.decode(), 0)


@pytest.mark.parametrize("page", ["projector", "projector_grid", "teacher_tables"])
def test_teacher_screens_show_no_faction_before_reveal_and_all_after(
    table, teacher, teacher_client, page
):
    arg = table.session.pk if page != "projector" else table.game.pk
    url = reverse(f"games:{page}", args=[arg])
    advance(table.game, teacher)
    to_transfer_from_wake_up(table, teacher)
    for seat in SEATS:
        submit(table.game, seat, {"type": "keep"})
    html = teacher_client.get(url).content.decode()
    assert not FACTION_WORDS.search(html), f"{page} shows a faction before Reveal"
    advance(table.game, teacher)  # reveal
    html = teacher_client.get(url).content.decode()
    if page != "teacher_tables":
        for seat in SEATS:
            assert (
                own_card_shown(html, seat)
                or f"{DEAL[seat][0].capitalize()} {DEAL[seat][1]}" in html
            )


def to_transfer_from_wake_up(table, teacher):
    advance(table.game, teacher)
    to_transfer_from_query(table)


def to_transfer_from_query(table):
    for i, seat in enumerate(SEATS):
        submit(table.game, seat, {"type": "query", "target": SEATS[(i + 1) % 5]})


def test_at_reveal_a_device_sees_its_own_card_and_who_scored(table, teacher):
    finish_round(table.game, teacher)
    html = device_page(table, 0)
    for seat in SEATS:
        assert own_card_shown(html, seat)
    # Every seat kept its own key: each faction's leader and its other members hold keys,
    # so only the Drones (Team 1 alone) scored.
    assert "Drones scored this round!" in html


def test_victory_point_values_stay_with_their_holder_until_the_end(table, teacher, teacher_client):
    finish_round(table.game, teacher)
    # Team 1 (the Drone, start player) drew the top card, a 3; nobody else drew any.
    assert table.game.state["vp"]["team-1"] == [3]
    assert vp_values(device_page(table, 0)) == ["3"]
    for index in range(1, 5):
        html = device_page(table, index)
        assert vp_values(html) == [], f"Team {index + 1} sees a Victory Point value"
        assert "1 VP card" in seat_tile(html, "team-1")
    projector = teacher_client.get(reverse("games:projector", args=[table.game.pk]))
    assert vp_values(projector.content.decode()) == []


def test_at_the_end_every_victory_point_card_is_shown(table, teacher, teacher_client):
    finish_round(table.game, teacher)
    for _ in range(3):
        advance(table.game, teacher)
        finish_round(table.game, teacher)
    advance(table.game, teacher)
    table.game.refresh_from_db()
    assert table.game.state["phase"] == "over"
    html = device_page(table, 3)
    assert vp_values(html) == ["3", "3", "3", "3"], "Team 1's four 3s, everyone else none"
    assert "Team 1 wins with 12 points!" in html


def test_the_replay_shows_no_faction_until_the_step_that_reveals_them(
    table, teacher, teacher_client
):
    finish_round(table.game, teacher)
    moves = table.game.moves.count()
    url = reverse("games:replay", args=[table.game.pk])
    before = teacher_client.get(url, {"step": moves - 1}).content.decode()
    assert "Key transfers" in before and not FACTION_WORDS.search(before)
    after = teacher_client.get(url, {"step": moves}).content.decode()
    assert "Drones scored this round!" in after
    for seat in SEATS:
        assert own_card_shown(after, seat)
