"""The teacher's tables dashboard with a table playing and two still waiting, at phone, laptop
and projector sizes. Every page a browser test opens is audited when the test ends (axe-core,
and the page reflowed at 320 px and at 200 % text on a 390 px phone: tests/e2e/a11y_page.js):
at 200 % text a playing table's name and status, and its Projector and Replay links, were
wider than the phone."""

import pytest
from playwright.sync_api import expect

from classroom.models import Table
from games import services
from tests.e2e.conftest import CHROMEBOOK, PHONE, PROJECTOR, login_cookie
from tests.games.conftest import seat_tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [PHONE, CHROMEBOOK, PROJECTOR], ids=["phone", "laptop", "wall"])
def test_a_playing_table_and_waiting_ones_fit_every_screen(
    live_server, new_context, open_session, classroom, teacher, size
):
    seat_tables(open_session, classroom, 3)
    tables = {table.number: table for table in Table.objects.filter(session=open_session)}
    services.table_start(table=tables[2], by=teacher)
    context = new_context(size)
    context.add_cookies([{**login_cookie(teacher), "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/play/sessions/{open_session.pk}/tables/")
    playing = page.locator(".dash-row.dash-playing")
    expect(playing.get_by_role("heading", name="Table 2")).to_be_visible()
    expect(playing.get_by_role("button", name="Play this turn with the robot")).to_be_visible()
    expect(page.get_by_role("button", name="Start this table")).to_have_count(2)
