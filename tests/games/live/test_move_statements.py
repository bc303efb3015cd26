"""A move's own reads (games.services.state): the lock and what the move needs to know of its
table are written-out statements (games.statements LOCK and FACTS), and the new version's shared
values (games.table_cache) are made from the version before, so that no screen of the table,
the mover's included, reads them from the database again. Each must give what the ORM reads
and a fresh read would."""

import re

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Max
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from classroom import services as classroom_services
from classroom.models import Team
from games import selectors, services
from games.models import Move, TableGame
from games.services.state import MoveFacts, lock_game, move_facts
from games.table_cache import version_key
from tests.conftest import empty_cache
from tests.games.conftest import (
    dealing,
    fixed_bot_builders,
    post_move,
    read_screen,
    seat_teams,
    start_live_table,
)

DRAW = {"type": "draw", "source": "deck"}


@pytest.fixture
def table(open_session, teacher, students, device_client):
    return start_live_table(open_session, teacher, students, device_client)


@pytest.fixture
def robot_table(open_session, teacher, students):
    """Two teams and a robot seat (team-3) at table 1, team-1 to move first."""
    table, _teams = seat_teams(open_session, students, teams=2)
    classroom_services.team_add_robot(session=open_session, by=teacher, table=table)
    with dealing("bot_builders", fixed_bot_builders()):
        services.session_start_tables(session=open_session, by=teacher)
    return TableGame.objects.get(table=table)


def play_one(game: TableGame, move_id: str) -> services.MoveOutcome:
    """The current seat's first legal action, as its device would send it."""
    game.refresh_from_db()
    seat = selectors.current_seat(game)
    return services.move_submit(
        game_id=game.pk,
        seat=seat,
        action=selectors.legal_actions(game, seat)[0],
        expected_version=game.version,
        client_move_id=move_id,
    )


def play_until_the_robot_answers(game: TableGame, capture) -> services.MoveOutcome:
    for turn in range(20):
        with capture(execute=True):
            outcome = play_one(game, f"turn-{turn}")
        if outcome.robot_moves:
            return outcome
    raise AssertionError("The robot never moved.")


def fresh_values(game: TableGame) -> tuple[list, list]:
    teams = selectors.teams_by_table([game.table_id])[game.table_id]
    moves = selectors._newest_moves(game, selectors.RECENT_MOVES)
    return teams, moves


def as_shown(teams: list, moves: list) -> tuple[list, list]:
    """What a screen reads of the teams and moves."""
    return (
        [(t.pk, t.number, t.name, t.is_robot, t.seat_position, t.table_id) for t in teams],
        [(m.pk, m.seq, m.seat, m.events) for m in moves],
    )


def cached_values(game: TableGame) -> tuple[list, list] | None:
    keys = [version_key(game.pk, game.version, what) for what in ("teams", "moves")]
    found = cache.get_many(keys)
    if len(found) < 2:
        return None
    return found[keys[0]], found[keys[1]]


def test_the_lock_reads_the_game_with_its_session_and_class_in_one_statement(
    table, django_assert_num_queries
):
    expected = TableGame.objects.select_related("session__classroom").get(pk=table.game.pk)
    with transaction.atomic(), django_assert_num_queries(1) as captured:
        game = lock_game(table.game.pk)
        classroom = game.session.classroom
    assert {f.attname: getattr(game, f.attname) for f in TableGame._meta.concrete_fields} == {
        f.attname: getattr(expected, f.attname) for f in TableGame._meta.concrete_fields
    }
    assert game.session == expected.session and classroom == expected.session.classroom
    assert classroom.teacher_id == expected.session.classroom.teacher_id
    if connection.vendor == "postgresql":
        # The game's row alone: a lock on the session's would queue every table's moves.
        assert re.search(r"FOR UPDATE OF g\s*$", captured.captured_queries[0]["sql"])


@pytest.mark.parametrize("game_id", [0, 987_654, 2**63])
def test_locking_a_game_that_is_not_there_raises_as_the_orm_does(db, game_id):
    with transaction.atomic(), pytest.raises(TableGame.DoesNotExist):
        lock_game(game_id)


def facts_by_the_orm(game: TableGame, client_move_id: str | None) -> MoveFacts:
    """What `move_facts` reads, one ORM query a fact."""
    earlier = Move.objects.filter(game=game, client_move_id=client_move_id).first()
    top = Move.objects.filter(game=game).aggregate(top=Max("seq"))["top"]
    robots = Team.objects.filter(table_id=game.table_id, is_robot=True)
    return MoveFacts(earlier, (top or 0) + 1, {team.seat for team in robots})


def test_what_a_move_reads_of_its_table_is_what_the_orm_reads(
    robot_table, django_capture_on_commit_callbacks
):
    with transaction.atomic():
        game = lock_game(robot_table.pk)
        for client_move_id in ("never-sent", None):
            facts = move_facts(game, client_move_id)
            assert facts == facts_by_the_orm(game, client_move_id) == (None, 1, {"team-3"})
    play_until_the_robot_answers(robot_table, django_capture_on_commit_callbacks)
    Move.objects.filter(game=robot_table, seq=1).update(undone_at=timezone.now())
    with transaction.atomic():
        game = lock_game(robot_table.pk)
        for client_move_id in ("turn-0", "turn-1", "never-sent", None):
            facts = move_facts(game, client_move_id)
            assert facts == facts_by_the_orm(game, client_move_id), client_move_id
        assert move_facts(game, "turn-0").earlier is not None
        assert facts.next_seq > 2 and facts.robots == {"team-3"}


def test_a_table_without_robots_reads_no_robot_seat(table):
    with transaction.atomic():
        game = lock_game(table.game.pk)
        assert move_facts(game, "c1") == facts_by_the_orm(game, "c1") == (None, 1, set())


def test_a_move_and_the_robot_s_answer_fill_the_new_version_as_a_fresh_read_would(
    robot_table, settings, django_capture_on_commit_callbacks
):
    empty_cache(settings)
    with django_capture_on_commit_callbacks(execute=True):
        play_one(robot_table, "first")
    robot_table.refresh_from_db()
    selectors.table_info_and_moves(robot_table)  # a screen draws this version
    outcome = play_until_the_robot_answers(robot_table, django_capture_on_commit_callbacks)
    game = TableGame.objects.get(pk=robot_table.pk)
    assert game.version == outcome.game.version
    carried = cached_values(game)
    assert carried is not None, "the new version's values were not made from the last one's"
    assert as_shown(*carried) == as_shown(*fresh_values(game))
    assert [m.seat for m in carried[1][: len(outcome.robot_moves)]] == ["team-3"] * len(
        outcome.robot_moves
    )
    # What a screen caches of a move is what it reads of it: no action.
    assert all("action" not in vars(move) for move in carried[1])


def test_nothing_is_made_for_a_version_whose_last_one_no_screen_read(
    table, settings, django_capture_on_commit_callbacks
):
    empty_cache(settings)
    with django_capture_on_commit_callbacks(execute=True):
        play_one(table.game, "c1")
    table.game.refresh_from_db()
    assert cached_values(table.game) is None
    # The first screen reads them, as before.
    selectors.table_info_and_moves(table.game)
    assert as_shown(*cached_values(table.game)) == as_shown(*fresh_values(table.game))


def test_a_refused_move_makes_nothing(table, settings, django_capture_on_commit_callbacks):
    empty_cache(settings)
    selectors.table_info_and_moves(table.game)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(services.MoveRefused):
        services.move_submit(
            game_id=table.game.pk,
            seat="team-2",  # not its turn
            action=DRAW,
            expected_version=table.game.version,
            client_move_id="c1",
        )
    keys = [version_key(table.game.pk, table.game.version + 1, w) for w in ("teams", "moves")]
    assert cache.get_many(keys) == {}


@pytest.mark.django_db(transaction=True)
def test_after_its_lock_a_move_reads_its_table_no_more_and_the_others_find_its_values(
    table, settings
):
    """Committed for real (on_commit runs as in production): the mover's redraw takes the game
    its move left, and the teams and moves its move carried forward, which are what a fresh
    read gives the other seats."""
    empty_cache(settings)
    mover = table.devices[0]
    screen = read_screen(mover.get(reverse("games:device")).content.decode())
    with CaptureQueriesContext(connection) as moving:
        response = post_move(
            mover, table.game, DRAW, version=screen.version, move_id=screen.client_move_id
        )
    assert "Team 1 drew from the draw pile." in response.content.decode()
    statements = [query["sql"] for query in moving.captured_queries]
    locked = next(
        i for i, sql in enumerate(statements) if re.search(r'FROM "?games_tablegame"? g\b', sql)
    )
    assert "LEFT JOIN" in statements[locked + 1]  # what the move needs: move_facts
    after = statements[locked + 2 :]
    assert not [sql for sql in after if re.search(r'FROM "?games_tablegame"?\b', sql)], after
    assert not [sql for sql in after if re.search(r'FROM "?classroom_team"?\b', sql)], after
    reads_moves = [sql for sql in after if re.search(r'FROM "?games_move"?\b', sql)]
    assert reads_moves == [], reads_moves
    table.game.refresh_from_db()
    assert as_shown(*cached_values(table.game)) == as_shown(*fresh_values(table.game))
