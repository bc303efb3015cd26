"""Starting the tables: one game per table, dealt from its seed, seats in turn order, options from
the session's variant, idempotent, and robot seats that move first play at once."""

import pytest
from django.urls import reverse

from classroom.models import GameKind, SessionStatus, Team, Variant
from games import services
from games.engine_registry import get_engine
from games.engines import bot_builders
from games.models import TableGame, TableMode, TableStatus
from tests.games.conftest import seat_teams


def start(session, teacher):
    return services.session_start_tables(session=session, by=teacher)


def test_each_table_with_teams_gets_one_game_dealt_from_its_own_seed(
    open_session, teacher, students
):
    seat_teams(open_session, students, teams=3)
    seat_teams(open_session, students[3:], teams=2, number=2, first_team_number=4)
    games = start(open_session, teacher)
    assert [g.table.number for g in games] == [1, 2]
    first, second = (TableGame.objects.get(pk=g.pk) for g in games)
    assert first.seats == ["team-1", "team-2", "team-3"] and second.seats == ["team-4", "team-5"]
    assert first.seed != second.seed and 0 <= first.seed < 2**63
    assert first.kind == GameKind.BOT_BUILDERS and first.mode == TableMode.LIVE
    dealt = bot_builders.new_game(first.seats, seed=first.seed, **first.options)
    assert first.state == dealt.to_dict()
    assert first.status == TableStatus.PLAYING and first.version == 0
    open_session.refresh_from_db()
    assert open_session.status == SessionStatus.PLAYING


def test_seats_follow_the_seat_positions_not_the_team_numbers(open_session, teacher, students):
    table, teams = seat_teams(open_session, students, teams=3)
    Team.objects.filter(pk=teams[0].pk).update(seat_position=2)
    Team.objects.filter(pk=teams[2].pk).update(seat_position=0)
    (game,) = start(open_session, teacher)
    assert game.seats == ["team-3", "team-2", "team-1"]


def test_starting_twice_creates_nothing_twice(open_session, teacher, students):
    seat_teams(open_session, students, teams=2)
    first = start(open_session, teacher)
    again = start(open_session, teacher)
    assert [g.pk for g in again] == [g.pk for g in first]
    assert TableGame.objects.count() == 1
    assert TableGame.objects.get().seed == first[0].seed


def test_the_start_url_redirects_the_teacher_to_the_tables(open_session, teacher_client, students):
    seat_teams(open_session, students, teams=2)
    url = reverse("games:start_tables", args=[open_session.pk])
    response = teacher_client.post(url)
    assert response.status_code == 302
    assert response.url == reverse("games:teacher_tables", args=[open_session.pk])
    again = teacher_client.post(url, headers={"HX-Request": "true"})
    assert again.headers["HX-Redirect"] == response.url
    assert TableGame.objects.count() == 1


def test_birth_months_come_from_each_teams_youngest_member_when_all_are_known(
    open_session, teacher, students
):
    for student, month in zip(
        students[:5], ["2015-03", "2016-01", "2015-07", "", "2014-02"], strict=True
    ):
        student.birth_month = month
        student.save()
    seat_teams(open_session, students, teams=2, per_team=2)
    # Team 1: 2015-03 and 2016-01 -> 2016-01. Team 2: 2015-07 and unknown -> left out.
    (game,) = start(open_session, teacher)
    assert game.options["birth_months"] == {"team-1": "2016-01"}


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (SessionStatus.DRAFT, "Open the session first"),
        (SessionStatus.CLOSED, "This session is closed."),
    ],
)
def test_a_session_not_open_is_refused(bb_session, teacher, students, status, message):
    seat_teams(bb_session, students, teams=2)
    bb_session.status = status
    bb_session.save()
    with pytest.raises(services.ServiceError, match=message):
        start(bb_session, teacher)
    assert not TableGame.objects.exists()


def test_a_session_without_tables_is_refused_clearly(open_session, teacher):
    with pytest.raises(services.ServiceError, match="No table has teams yet"):
        start(open_session, teacher)


def test_only_the_class_teacher_can_start(open_session, colleague, students):
    seat_teams(open_session, students, teams=2)
    with pytest.raises(services.ServiceError):
        start(open_session, colleague)
    assert not TableGame.objects.exists()


def test_two_player_variant_needs_two_seats(open_session, teacher, students):
    open_session.variant = Variant.TWO_PLAYER
    open_session.save()
    seat_teams(open_session, students, teams=3)
    with pytest.raises(services.ServiceError, match="exactly 2 teams"):
        start(open_session, teacher)
    assert not TableGame.objects.exists()


def test_solo_variant_deals_one_seat_against_the_dummy(open_session, teacher, students):
    open_session.variant = Variant.SOLO
    open_session.save()
    seat_teams(open_session, students, teams=1)
    (game,) = start(open_session, teacher)
    assert game.options == {"solo": True}
    assert game.state["solo"] is True and game.state["dummy_bench"] is not None


def test_tabletop_variant_starts_a_table_with_empty_benches_and_no_deal(
    open_session, teacher, students
):
    open_session.variant = Variant.TABLETOP
    open_session.save()
    seat_teams(open_session, students, teams=3)
    (game,) = start(open_session, teacher)
    assert game.mode == TableMode.TABLETOP
    assert set(game.state["benches"]) == {"team-1", "team-2", "team-3"}
    assert all(v is None for bench in game.state["benches"].values() for v in bench.values())


def seed_where_first_seat_is(seats, first):
    return next(s for s in range(1000) if bot_builders.new_game(seats, seed=s).start_seat == first)


def test_practice_adds_robot_opponents_and_a_robot_moving_first_plays_at_once(
    open_session, teacher, students, monkeypatch
):
    open_session.variant = Variant.PRACTICE
    open_session.save()
    table, (human,) = seat_teams(open_session, students, teams=1)
    seats = ["team-1", "team-2", "team-3"]
    seed = seed_where_first_seat_is(seats, "team-2")
    monkeypatch.setattr("games.services.tables.secrets.randbits", lambda bits: seed)
    (game,) = start(open_session, teacher)
    robots = Team.objects.filter(table=table, is_robot=True).order_by("seat_position")
    assert [t.seat for t in robots] == ["team-2", "team-3"]
    assert game.seats == seats
    game.refresh_from_db()
    # Both robots took their turns; now it is the human team's.
    engine_game = bot_builders.Game.from_dict(game.state)
    assert engine_game.current_seat == "team-1"
    moves = list(game.moves.order_by("seq"))
    assert moves and all(m.by_robot and m.seat in ("team-2", "team-3") for m in moves)
    assert game.version == 1
    replayed = bot_builders.new_game(seats, seed=seed)
    for move in moves:
        replayed.apply(move.seat, move.action)
    assert replayed.to_dict() == game.state


def test_three_laws_tables_start_through_the_same_machinery(open_session, teacher, students):
    open_session.game = GameKind.THREE_LAWS
    open_session.skip_first_round = True
    open_session.save()
    seat_teams(open_session, students, teams=4)
    (game,) = start(open_session, teacher)
    assert game.kind == GameKind.THREE_LAWS
    assert game.options == {"skip_first_round": True}
    engine = get_engine(game.kind)
    assert engine.load(game.state).legal_actions(engine.facilitator) == [{"type": "advance"}]
    # The teacher's facilitator action goes through the same move service.
    outcome = services.move_submit(
        game_id=game.pk,
        seat=engine.facilitator,
        action={"type": "advance"},
        expected_version=game.version,
        client_move_id="advance-1",
        by_teacher=teacher,
    )
    game.refresh_from_db()
    assert game.version == 1 and outcome.move.by_teacher == teacher
    assert engine.load(game.state).phase == "wake_up"
