"""The teacher's controls: pause and resume, the robot playing an absent team's turn, undo, end
the round now, and the step-by-step replay."""

import pytest
from django.urls import reverse

from classroom.models import Team, Variant
from games import services
from games.engines import bot_builders
from games.models import Move, TableStatus
from games.services.errors import STALE_MESSAGE
from tests.games.conftest import HANDS, seat_teams, start_live_table

DRAW = {"type": "draw", "source": "deck"}


@pytest.fixture
def table(open_session, teacher, students, device_client):
    return start_live_table(open_session, teacher, students, device_client)


def submit(table, seat, action, move_id):
    table.game.refresh_from_db()
    return services.move_submit(
        game_id=table.game.pk,
        seat=seat,
        action=action,
        expected_version=table.game.version,
        client_move_id=move_id,
    )


def control(client, table, name, version=None):
    table.game.refresh_from_db()
    return client.post(
        reverse(f"games:{name}", args=[table.game.pk]),
        {"version": table.game.version if version is None else version},
        headers={"HX-Request": "true"},
    )


def test_pause_and_resume_from_the_dashboard(table, teacher_client):
    response = control(teacher_client, table, "pause")
    html = response.content.decode()
    assert "Table 1 is paused." in html and ">Resume</button>" in html
    table.game.refresh_from_db()
    assert table.game.status == TableStatus.PAUSED
    with pytest.raises(services.MoveRefused, match="paused"):
        submit(table, "team-1", DRAW, "p1")
    control(teacher_client, table, "resume")
    table.game.refresh_from_db()
    assert table.game.status == TableStatus.PLAYING
    assert submit(table, "team-1", DRAW, "p2").move.seq == 1


def test_a_control_from_a_stale_dashboard_is_refused(table, teacher_client):
    stale = table.game.version
    submit(table, "team-1", DRAW, "m1")
    response = control(teacher_client, table, "pause", version=stale)
    assert f"Table 1: {STALE_MESSAGE}" in response.content.decode()
    table.game.refresh_from_db()
    assert table.game.status == TableStatus.PLAYING


def test_the_robot_plays_the_whole_turn_of_an_absent_team(table, teacher, teacher_client):
    response = control(teacher_client, table, "robot_turn")
    assert "The robot played the turn at table 1." in response.content.decode()
    table.game.refresh_from_db()
    moves = list(table.game.moves.order_by("seq"))
    assert [m.seat for m in moves] == ["team-1"] * len(moves) and len(moves) >= 2
    assert all(m.by_robot and m.by_teacher_id == teacher.pk for m in moves)
    assert bot_builders.Game.from_dict(table.game.state).current_seat == "team-2"
    assert table.game.version == 1


def test_robot_seats_answer_a_move_in_the_same_request(open_session, teacher, students):
    open_session.variant = Variant.PRACTICE
    open_session.save()
    table, _ = seat_teams(open_session, students, teams=1)
    (game,) = services.session_start_tables(session=open_session, by=teacher)
    game.refresh_from_db()
    engine_game = bot_builders.Game.from_dict(game.state)
    assert engine_game.current_seat == "team-1"  # robots that came first already played
    for done in range(20):
        action = bot_builders.suggest(engine_game, "team-1")
        outcome = services.move_submit(
            game_id=game.pk,
            seat="team-1",
            action=action,
            expected_version=game.version,
            client_move_id=f"h{done}",
        )
        game.refresh_from_db()
        engine_game = bot_builders.Game.from_dict(game.state)
        if outcome.robot_moves:
            break
    assert outcome.robot_moves, "the robots played after the human turn"
    assert {m.seat for m in outcome.robot_moves} <= {"team-2", "team-3"}
    assert engine_game.current_seat in ("team-1", None)  # back to the human, or over
    assert Team.objects.filter(table=table, is_robot=True).count() == 2


def test_undo_takes_back_the_last_move_and_rebuilds_the_state_from_the_seed(table, teacher_client):
    submit(table, "team-1", DRAW, "m1")
    table.game.refresh_from_db()
    after_draw = dict(table.game.state)
    submit(table, "team-1", {"type": "install", "card": "camera"}, "m2")
    response = control(teacher_client, table, "undo")
    assert "Undone at table 1." in response.content.decode()
    table.game.refresh_from_db()
    assert table.game.state == after_draw
    assert table.game.version == 3
    undone = Move.objects.get(game=table.game, seq=2)
    assert undone.undone_at is not None  # kept, marked undone
    # The move can be made again, and the log keeps counting.
    assert submit(table, "team-1", {"type": "install", "card": "drive_wheels"}, "m3").move.seq == 3


def test_undo_takes_back_the_robots_answer_with_the_move_it_answered(
    open_session, teacher, students
):
    open_session.variant = Variant.PRACTICE
    open_session.save()
    seat_teams(open_session, students, teams=1)
    (game,) = services.session_start_tables(session=open_session, by=teacher)
    game.refresh_from_db()
    before = dict(game.state)
    state = bot_builders.Game.from_dict(game.state)
    for done in range(20):
        outcome = services.move_submit(
            game_id=game.pk,
            seat="team-1",
            action=bot_builders.suggest(state, "team-1"),
            expected_version=game.version,
            client_move_id=f"h{done}",
        )
        game.refresh_from_db()
        state = bot_builders.Game.from_dict(game.state)
        if outcome.robot_moves:
            break
    robots_answer = outcome.robot_moves
    assert robots_answer
    undone = services.game_undo(game_id=game.pk, by=teacher, expected_version=game.version)
    assert [m.pk for m in undone] == [outcome.move.pk] + [m.pk for m in robots_answer]
    game.refresh_from_db()
    state = bot_builders.Game.from_dict(game.state)
    assert state.current_seat == "team-1"
    kept = set(game.moves.filter(undone_at__isnull=True).values_list("seq", flat=True))
    assert kept == set(range(1, outcome.move.seq))  # everything before the undone move
    assert game.state != before


def test_undo_with_no_move_says_so(table, teacher_client):
    response = control(teacher_client, table, "undo")
    assert "There is no move to undo." in response.content.decode()


def test_end_round_now_scores_the_benches_as_they_stand(table, teacher_client):
    submit(table, "team-1", DRAW, "m1")
    submit(table, "team-1", {"type": "install", "card": "camera"}, "m2")
    response = control(teacher_client, table, "end_now")
    assert "Table 1 is over: the benches are scored." in response.content.decode()
    table.game.refresh_from_db()
    assert table.game.status == TableStatus.OVER and table.game.ended_at is not None
    first = table.game.results[0]
    assert first["seat"] == "team-1" and first["place"] == 1 and first["score"] == 1
    assert first["breakdown"] == {
        "parts": 1,
        "four_loop": 0,
        "mission": 0,
        "mission_match": 0,
        "full_bot": 0,
    }
    # The others tie on 0 and share second place.
    assert [r["place"] for r in table.game.results[1:]] == [2, 2]
    with pytest.raises(services.MoveRefused, match="over"):
        submit(table, "team-2", DRAW, "m3")
    page = table.devices[0].get(reverse("games:device")).content.decode()
    assert "Place 1 with 1 points" in page and "Final scores" in page


def test_undo_after_ending_early_reopens_the_round_as_it_stood(table, teacher):
    submit(table, "team-1", DRAW, "m1")
    table.game.refresh_from_db()
    services.game_end_now(game_id=table.game.pk, by=teacher, expected_version=table.game.version)
    table.game.refresh_from_db()
    undone = services.game_undo(
        game_id=table.game.pk, by=teacher, expected_version=table.game.version
    )
    assert undone == []
    table.game.refresh_from_db()
    assert table.game.status == TableStatus.PLAYING and table.game.results is None
    assert table.game.moves.filter(undone_at__isnull=True).count() == 1


def test_the_administrator_reads_the_dashboard_without_controls(table, school_admin_client):
    html = school_admin_client.get(
        reverse("games:teacher_tables", args=[table.session.pk])
    ).content.decode()
    assert "Table 1" in html and "Turn: <strong>Team 1</strong>" in html
    assert ">Pause</button>" not in html
    assert control(school_admin_client, table, "pause").status_code == 403


def test_replay_steps_through_the_log_rebuilt_from_the_seed(table, teacher_client):
    submit(table, "team-1", DRAW, "m1")
    submit(table, "team-1", {"type": "install", "card": "camera"}, "m2")
    submit(table, "team-2", DRAW, "m3")
    url = reverse("games:replay", args=[table.game.pk])
    start = teacher_client.get(url).content.decode()
    assert "Move <strong>0</strong> of 3" in start and "The table as it was dealt." in start
    step2 = teacher_client.get(url, {"step": 2}).content.decode()
    assert "Move <strong>2</strong> of 3" in step2
    assert "Team 1 installed Camera." in step2
    assert "Camera" in step2 and "Team 2" in step2
    last = teacher_client.get(url, {"step": 99}).content.decode()
    assert "Move <strong>3</strong> of 3" in last
    for name in ("If/Then board", "Drive wheels"):  # team-1's hand never shows
        assert name not in step2
    assert HANDS["team-1"][1] == "if_then_board"
