"""Two devices moving at the same moment, on real PostgreSQL (row locks are what is tested, and
SQLite has none): no move is lost, none is applied twice."""

import threading

import pytest
from django.db import close_old_connections, connection

from games import services
from games.engines import bot_builders
from games.models import Move, TableGame
from tests.conftest import skip_without_server
from tests.games.conftest import start_live_table

pytestmark = [pytest.mark.pgbouncer, pytest.mark.django_db(transaction=True)]

DRAW = {"type": "draw", "source": "deck"}


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        skip_without_server("the concurrency tests need PostgreSQL (set DATABASE_URL)")


def race(*calls):
    """Run the calls in threads released at the same instant; return each result or error."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # noqa: BLE001 - the test inspects what each thread got
            results[index] = exc
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


@pytest.fixture
def table(open_session, teacher, students, device_client):
    return start_live_table(open_session, teacher, students, device_client)


def submit(game_id, version, move_id, action=DRAW, seat="team-1"):
    return lambda: services.move_submit(
        game_id=game_id,
        seat=seat,
        action=action,
        expected_version=version,
        client_move_id=move_id,
    )


def test_two_moves_made_on_the_same_screen_at_once_apply_exactly_one(table):
    game = table.game
    results = race(
        submit(game.pk, game.version, "phone-a", DRAW),
        submit(game.pk, game.version, "phone-b", {"type": "draw", "source": "discard"}),
    )
    applied = [r for r in results if isinstance(r, services.MoveOutcome)]
    refused = [r for r in results if isinstance(r, services.MoveRefused)]
    assert len(applied) == 1 and len(refused) == 1, results
    assert refused[0].reason == services.MoveRefused.STALE
    game.refresh_from_db()
    assert game.version == 1
    assert Move.objects.filter(game=game).count() == 1
    replayed = bot_builders.new_game(game.seats, seed=game.seed, **game.options)
    replayed.apply("team-1", applied[0].move.action)
    assert replayed.to_dict() == game.state


def test_the_same_move_sent_twice_at_once_applies_once(table):
    game = table.game
    results = race(*[submit(game.pk, game.version, "double-tap") for _ in range(4)])
    assert all(isinstance(r, services.MoveOutcome) for r in results), results
    assert sum(not r.repeated for r in results) == 1
    assert len({r.move.pk for r in results}) == 1
    game.refresh_from_db()
    assert game.version == 1 and game.moves.count() == 1


def test_a_long_run_of_racing_devices_loses_and_doubles_nothing(table):
    """Every round, all three devices try the current seat's move on the version they saw;
    the log must replay to the stored state and hold one move per version step."""
    game = TableGame.objects.get(pk=table.game.pk)
    for step in range(30):
        game.refresh_from_db()
        state = bot_builders.Game.from_dict(game.state)
        if state.is_over:
            break
        seat = state.current_seat
        action = bot_builders.suggest(state, seat)
        race(*[submit(game.pk, game.version, f"s{step}-{i}", action, seat) for i in range(3)])
    game.refresh_from_db()
    moves = list(game.moves.order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
    assert game.version == len(moves)
    replayed = bot_builders.new_game(game.seats, seed=game.seed, **game.options)
    for move in moves:
        replayed.apply(move.seat, move.action)
    assert replayed.to_dict() == game.state
