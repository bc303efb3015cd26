"""Tabletop Bot-Builders: teams record the bench they built with printed cards; the app scores it
exactly as a live game, ties broken the same way."""

import pytest
from django.urls import reverse

from classroom.models import Variant
from games import services
from games.engines import bot_builders
from games.models import TableMode, TableStatus
from tests.games.conftest import seat_teams

FULL_BOT = {
    "sense": "camera",
    "think": "if_then_board",
    "act": "drive_wheels",
    "power": "battery_pack",
    "mission": "rescue_rover",
}
FOUR_PARTS = {"sense": "microphone", "think": "loop_chip", "act": "speaker", "power": "solar_panel"}


@pytest.fixture
def tabletop(open_session, teacher, students, device_client):
    open_session.variant = Variant.TABLETOP
    open_session.save()
    for student, month in zip(students[:3], ["2015-01", "2016-05", "2015-09"], strict=True):
        student.birth_month = month
        student.save()
    seat_teams(open_session, students, teams=3)
    devices = [device_client(open_session, students[i]) for i in range(3)]
    (game,) = services.session_start_tables(session=open_session, by=teacher)
    return game, devices


def record(device, game, bench, move_id="b1"):
    data = {slot: bench.get(slot, "") for slot in bot_builders.SLOTS}
    return device.post(
        reverse("games:tabletop_bench", args=[game.pk]), {**data, "client_move_id": move_id}
    )


def test_the_device_offers_the_card_picker_with_one_select_per_slot(tabletop):
    game, devices = tabletop
    page = devices[0].get(reverse("games:device")).content.decode()
    assert "Record our bench" in page
    picker = devices[0].get(reverse("games:tabletop_bench", args=[game.pk])).content.decode()
    for label in ("Sense", "Think", "Act", "Power", "Mission"):
        assert f">{label}" in picker
    assert '<option value="camera">Camera</option>' in picker
    assert '<option value="flat_tire">' not in picker  # Glitches are never on a bench


def test_a_recorded_bench_is_a_move_and_shows_on_the_device(tabletop):
    game, devices = tabletop
    response = record(devices[0], game, FULL_BOT)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.state["benches"]["team-1"] == FULL_BOT
    move = game.moves.get()
    assert move.action == {"type": "record_bench", "bench": FULL_BOT}
    assert move.by_device_id == devices[0].binding.pk
    assert game.version == 1
    page = devices[0].get(reverse("games:device")).content.decode()
    assert "Your recorded bench" in page and "Rescue rover" in page
    assert "Change our recorded bench" in page


def test_a_repeated_submission_records_once(tabletop):
    game, devices = tabletop
    record(devices[0], game, FULL_BOT, move_id="same")
    record(devices[0], game, FULL_BOT, move_id="same")
    game.refresh_from_db()
    assert game.moves.count() == 1 and game.version == 1


def test_a_card_already_on_another_bench_is_refused_clearly(tabletop):
    game, devices = tabletop
    record(devices[0], game, FULL_BOT)
    response = record(devices[1], game, {"sense": "camera", "think": "loop_chip"}, "b2")
    assert response.status_code == 200
    assert "Already on another team&#x27;s bench: Camera." in response.content.decode()
    game.refresh_from_db()
    assert game.moves.count() == 1
    assert not any(game.state["benches"]["team-2"].values())


def test_a_card_in_the_wrong_slot_is_refused(tabletop):
    game, devices = tabletop
    response = record(devices[0], game, {"sense": "drive_wheels"})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    with pytest.raises(services.ServiceError, match="does not go in the Sense slot"):
        services.bench_record(
            game_id=game.pk, seat="team-1", bench={"sense": "drive_wheels"}, client_move_id="x"
        )
    game.refresh_from_db()
    assert game.moves.count() == 0


def test_recording_again_replaces_the_teams_bench(tabletop):
    game, devices = tabletop
    record(devices[0], game, FULL_BOT, "b1")
    record(devices[0], game, {"sense": "camera"}, "b2")
    game.refresh_from_db()
    assert game.state["benches"]["team-1"] == {
        **dict.fromkeys(bot_builders.SLOTS),
        "sense": "camera",
    }


def test_finishing_scores_the_recorded_benches_and_breaks_ties_like_the_engine(
    tabletop, teacher_client
):
    game, devices = tabletop
    record(devices[0], game, FULL_BOT)
    record(devices[1], game, FOUR_PARTS, "b2")
    other_four = {
        "sense": "gps_receiver",
        "think": "timer_chip",
        "act": "propeller",
        "power": "wind_turbine",
    }
    record(devices[2], game, other_four, "b3")
    game.refresh_from_db()
    response = teacher_client.post(
        reverse("games:end_now", args=[game.pk]), {"version": game.version}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == TableStatus.OVER and game.mode == TableMode.TABLETOP
    results = [(r["seat"], r["place"], r["score"]) for r in game.results]
    # Teams 2 and 3 tie on 8 (four-loop both): the younger (team 2, 2016-05) places first.
    assert results == [("team-1", 1, 16), ("team-2", 2, 8), ("team-3", 3, 8)]
    page = devices[1].get(reverse("games:device")).content.decode()
    assert "Place 2 with 8 points" in page and "Final scores" in page
    again = record(devices[0], game, {"sense": "camera"}, "late")
    assert "This game is finished" in again.content.decode()
    game.refresh_from_db()
    assert game.state["benches"]["team-1"] == FULL_BOT


def test_the_dashboard_counts_recorded_benches(tabletop, teacher_client):
    game, devices = tabletop
    record(devices[0], game, FULL_BOT)
    html = teacher_client.get(
        reverse("games:teacher_tables", args=[game.session_id])
    ).content.decode()
    assert "Benches recorded: <strong>1 of 3</strong>" in html
    assert "Finish and score" in html


def test_moves_are_refused_on_a_tabletop_table(tabletop):
    game, _ = tabletop
    with pytest.raises(services.MoveRefused, match="printed cards"):
        services.move_submit(
            game_id=game.pk,
            seat="team-1",
            action={"type": "draw", "source": "deck"},
            expected_version=game.version,
            client_move_id="m",
        )
