"""The projector grid redraws every table of a session: its queries must not grow with them."""

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import TableGame
from tests.conftest import empty_cache
from tests.games.conftest import seat_tables


def _grid_queries(client, session, settings) -> tuple[int, str]:
    """The queries of a grid drawn afresh (no cell kept in the cache from an earlier drawing)."""
    empty_cache(settings)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("games:projector_grid", args=[session.pk]))
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_the_grid_costs_the_same_queries_for_one_table_or_four(
    open_session, teacher, teacher_client, classroom, settings
):
    seat_tables(open_session, classroom, 4)
    services.session_start_tables(session=open_session, by=teacher)
    games = list(TableGame.objects.filter(session=open_session).order_by("table__number"))
    for game in games:  # one move on each table, to be narrated in its cell
        seat = game.state["seats"][game.state["current"]]
        services.move_submit(
            game_id=game.pk,
            seat=seat,
            action={"type": "draw", "source": "deck"},
            expected_version=game.version,
            client_move_id=f"first-{game.pk}",
            by_teacher=teacher,
        )
    four, html = _grid_queries(teacher_client, open_session, settings)
    assert html.count("drew from the draw pile") == 4

    TableGame.objects.filter(pk__in=[g.pk for g in games[1:]]).delete()
    one, _ = _grid_queries(teacher_client, open_session, settings)
    assert four == one
