"""The session's tables as the projector grid and the tables dashboard read them after every
move (games.selectors, one written-out statement): the same games, tables and waiting tables the
ORM gives, in table-number order, with the relations the screens follow already filled."""

from classroom.models import Table, Team
from games import services
from games.models import TableGame
from games.selectors import session_games, session_tables, session_tables_and_waiting
from tests.games.conftest import seat_tables


def columns(instance) -> list:
    return [getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields]


def test_dealt_and_waiting_tables_are_the_orm_s_with_their_relations_filled(
    open_session, classroom, teacher, django_assert_num_queries
):
    seat_tables(open_session, classroom, 4)
    tables = {table.number: table for table in Table.objects.filter(session=open_session)}
    # Tables 4 and 2 dealt, 1 and 3 still waiting (a table started on its own).
    for number in (4, 2):
        services.table_start(table=tables[number], by=teacher)
    expected_games = list(
        TableGame.objects.filter(session=open_session)
        .select_related("table")
        .order_by("table__number")
    )
    expected_waiting = list(
        Table.objects.filter(session=open_session, game__isnull=True).order_by("number")
    )

    session_tables(open_session)  # the dealt tables' teams, kept for their versions
    with django_assert_num_queries(2):  # the tables with their games, then the waiting teams
        tables_and_info, waiting = session_tables_and_waiting(open_session)
    games = [game for game, _ in tables_and_info]

    assert [game.table.number for game in games] == [2, 4]
    assert [columns(game) for game in games] == [columns(game) for game in expected_games]
    assert [columns(game.table) for game in games] == [
        columns(game.table) for game in expected_games
    ]
    assert [table.number for table in waiting] == [1, 3]
    assert [columns(table) for table in waiting] == [columns(table) for table in expected_waiting]
    assert [info.number for _, info in tables_and_info] == [2, 4]
    with django_assert_num_queries(0):
        for game in games:
            assert game.session is open_session and game.table.game is game
        teams = [[team.name for team in table.teams.all()] for table in waiting]
    assert teams == [
        list(
            Team.objects.filter(table=table)
            .order_by("seat_position", "number")
            .values_list("name", flat=True)
        )
        for table in expected_waiting
    ]
    assert all(teams)
    assert [game.pk for game in session_games(open_session)] == [game.pk for game in games]
    assert [game.pk for game, _ in session_tables(open_session)] == [game.pk for game in games]


def test_a_session_with_every_table_dealt_reads_no_teams_for_waiting_tables(
    open_session, classroom, teacher, django_assert_num_queries
):
    seat_tables(open_session, classroom, 3)
    services.session_start_tables(session=open_session, by=teacher)
    session_tables(open_session)  # the tables' teams, kept for their versions
    with django_assert_num_queries(1):
        tables_and_info, waiting = session_tables_and_waiting(open_session)
    assert waiting == [] and len(tables_and_info) == 3


def test_a_session_with_no_tables_has_no_games(open_session, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert session_tables_and_waiting(open_session) == ([], [])
