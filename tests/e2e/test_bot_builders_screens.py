"""Screens of a busy classroom, looked at: three tables of five teams mid-game on the projector
grid (1920x1080), one table on the projector, and the teacher's dashboard (1366x768)."""

import pytest
from playwright.sync_api import expect

from classroom.models import Student
from games import services
from games.models import TableGame
from tests.e2e.conftest import CHROMEBOOK, PROJECTOR, login_cookie
from tests.games.conftest import seat_teams

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def login(new_context, viewport, user, base):
    context = new_context(viewport)
    context.add_cookies([{**login_cookie(user), "url": base}])
    return context.new_page()


@pytest.fixture
def busy_session(open_session, teacher, classroom):
    """15 teams at 3 tables, each table a dozen robot-played turns in."""
    students = [Student.objects.create(classroom=classroom, name=f"Kid {i}") for i in range(15)]
    for number in range(3):
        seat_teams(
            open_session,
            students[number * 5 :],
            teams=5,
            number=number + 1,
            first_team_number=number * 5 + 1,
        )
    games = services.session_start_tables(session=open_session, by=teacher)
    for index, game in enumerate(games):
        for _ in range(12 + 6 * index):
            game.refresh_from_db()
            services.game_robot_turn(game_id=game.pk, by=teacher, expected_version=game.version)
    game = games[1]
    game.refresh_from_db()
    services.game_pause(game_id=game.pk, by=teacher, expected_version=game.version)
    return open_session


def test_projector_grid_and_dashboard_of_three_busy_tables(
    live_server, new_context, screenshot, console_errors, teacher, busy_session
):
    base = live_server.url
    grid = console_errors(login(new_context, PROJECTOR, teacher, base))
    grid.goto(f"{base}/play/sessions/{busy_session.pk}/projector/")
    expect(grid.locator(".grid-cell")).to_have_count(3)
    expect(grid.locator(".grid-cell").nth(1)).to_contain_text("Paused")
    screenshot(grid, "bb-projector-grid-3-tables")
    overflow = grid.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not overflow

    first = TableGame.objects.filter(session=busy_session).order_by("table__number").first()
    table = console_errors(login(new_context, PROJECTOR, teacher, base))
    table.goto(f"{base}/play/tables/{first.pk}/projector/")
    expect(table.get_by_role("heading", name="Table 1")).to_be_visible()
    screenshot(table, "bb-projector-one-table")

    desk = console_errors(login(new_context, CHROMEBOOK, teacher, base))
    desk.goto(f"{base}/play/sessions/{busy_session.pk}/tables/")
    expect(desk.locator(".dash-row")).to_have_count(3)
    expect(desk.get_by_role("button", name="Resume")).to_have_count(1)
    screenshot(desk, "bb-teacher-dashboard-3-tables")
    assert console_errors.errors == []
