"""3 Laws screens with several tables in one session: the projector grid at 1920x1080 and on a
phone, and the teacher's dashboard on a Chromebook (with a table not dealt yet), screenshotted to
be looked at."""

import pytest
from playwright.sync_api import expect

from games import services
from games.models import TableGame
from tests.e2e.conftest import CHROMEBOOK, PHONE, PROJECTOR, login_cookie
from tests.games.conftest import advance, seat_teams, three_laws_session
from tests.support.projector import LAYOUT, READING_PX, measure

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# How many lines each team name of the dashboard's tables takes.
LINES_OF_EACH_NAME = """() => [...document.querySelectorAll('.dash-row .dash-team')].map((name) => {
  const range = document.createRange();
  range.selectNodeContents(name);
  return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
})"""


def test_the_grid_and_the_dashboard_with_three_tables(
    live_server, new_context, screenshot, console_errors, teacher, classroom, students
):
    session = three_laws_session(classroom, teacher, skip_first_round=True)
    seat_teams(session, students[:4], teams=4)
    seat_teams(session, students[4:8], teams=4, number=2, first_team_number=5)
    services.session_start_tables(session=session, by=teacher)
    late, _ = seat_teams(session, [], teams=0, number=3)
    one, two = (TableGame.objects.get(table__number=n, session=session) for n in (1, 2))
    advance(one, teacher, 2)
    advance(two, teacher)
    seat = two.state["seats"][0]
    services.move_submit(
        game_id=two.pk,
        seat=seat,
        action={
            "type": "error",
            "offender": two.state["seats"][1],
            "law": two.state["law_order"][0],
        },
        expected_version=two.version,
        client_move_id="e1",
    )

    context = new_context(PROJECTOR)
    context.add_cookies([{**login_cookie(teacher), "url": live_server.url}])
    grid = console_errors(context.new_page())
    grid.goto(f"{live_server.url}/play/sessions/{session.pk}/projector/")
    expect(grid.locator(".tl-cell")).to_have_count(2)
    expect(grid.get_by_text("Round 2 of 4 · Questions")).to_be_visible()
    expect(grid.get_by_text("Round 2 of 4 · Wake up")).to_be_visible()
    assert grid.locator(".tl-mini").count() == 0, "no faction before Reveal"
    screenshot(grid, "3laws-projector-grid")

    context = new_context(PHONE)
    context.add_cookies([{**login_cookie(teacher), "url": live_server.url}])
    phone = console_errors(context.new_page())
    for path, name in (
        (f"/play/sessions/{session.pk}/projector/", "grid"),
        (f"/play/tables/{two.pk}/projector/", "table"),
    ):
        phone.goto(f"{live_server.url}{path}")
        assert measure(phone)["smallest"]["size"] >= READING_PX
        layout = phone.evaluate(LAYOUT)
        assert layout["scrollW"] <= layout["w"]
        screenshot(phone, f"3laws-projector-{name}-on-a-phone")

    context = new_context(CHROMEBOOK)
    context.add_cookies([{**login_cookie(teacher), "url": live_server.url}])
    desk = console_errors(context.new_page())
    desk.goto(f"{live_server.url}/play/sessions/{session.pk}/tables/")
    expect(desk.get_by_role("button", name="Start questions")).to_be_visible()
    expect(desk.get_by_role("button", name="Add a robot seat")).to_be_visible()
    expect(desk.get_by_text("Table 3")).to_be_visible()
    assert late.teams.count() == 0
    # Four team names beside the controls need two lines at 1366 px: they break between
    # teams, never inside a name ("Team" at one line's end, "8" on the next).
    assert desk.locator(".dash-team").count() == 8
    assert desk.evaluate(LINES_OF_EACH_NAME) == [1] * 8
    screenshot(desk, "3laws-teacher-dashboard-tables")

    context = new_context(PHONE)
    context.add_cookies([{**login_cookie(teacher), "url": live_server.url}])
    pocket = console_errors(context.new_page())
    pocket.goto(f"{live_server.url}/play/sessions/{session.pk}/tables/")
    expect(pocket.get_by_role("button", name="Start questions")).to_be_visible()
    layout = pocket.evaluate(LAYOUT)
    assert layout["scrollW"] <= layout["w"], "the dashboard fits a phone's width"
    assert pocket.evaluate(LINES_OF_EACH_NAME) == [1] * 8
    screenshot(pocket, "3laws-teacher-dashboard-on-a-phone")
    assert console_errors.errors == []
