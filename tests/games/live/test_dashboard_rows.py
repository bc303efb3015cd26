"""The teacher's dashboard keeps each table's row in the cache (games/views/regions.py,
dashboard_rows): after a move only the moved table's row is drawn again; every row served holds
the viewer's own CSRF token and a fresh move id, and shows what a fresh drawing would: the
table's state, its age, its phones, the viewer's controls and language."""

import re
from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom.models import DeviceBinding
from games import services
from games.models import TableGame, TableStatus
from games.selectors import current_seat
from tests.conftest import empty_cache
from tests.games.conftest import advance, facilitate, seat_tables, start_table

ROW = "games/_dashboard_row.html"
DRAW = {"type": "draw", "source": "deck"}
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
MOVE_ID = re.compile(r'name="client_move_id" value="([^"]+)"')


@pytest.fixture
def games(open_session, classroom, teacher) -> list[TableGame]:
    seat_tables(open_session, classroom, 3)
    services.session_start_tables(session=open_session, by=teacher)
    return list(TableGame.objects.filter(session=open_session).order_by("table__number"))


def page(client: Client, session):
    response = client.get(reverse("games:teacher_tables", args=[session.pk]))
    assert response.status_code == 200
    return response


def redraw(client: Client, session):
    """The dashboard's live region, by its poll as if its drawing were out of date (the poll
    URL read from the page, whose drawing is not counted)."""
    html = page(client, session).content.decode()
    url = unescape(re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', html).group(1))
    response = client.get(re.sub(r"v=[^&]+", "v=stale", url), headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response


def rows_drawn(response) -> int:
    return sum(template.name == ROW for template in response.templates)


def without_own_values(html: str) -> str:
    return MOVE_ID.sub("…", CSRF.sub("…", html))


def rows_of(response) -> str:
    """The tables' rows of a dashboard page or region, and nothing around them."""
    html = response.content.decode()
    return html[html.index('<li class="panel dash-row') : html.rindex("</li>")]


def move(game: TableGame) -> None:
    game.refresh_from_db()
    services.move_submit(
        game_id=game.pk,
        seat=current_seat(game),
        action=DRAW,
        expected_version=game.version,
        client_move_id=f"m{game.version}",
    )


def test_a_redraw_with_nothing_changed_takes_every_row_from_the_cache(
    games, open_session, teacher_client
):
    first = page(teacher_client, open_session)
    second = redraw(teacher_client, open_session)
    assert rows_drawn(first) == 3
    assert rows_drawn(second) == 0
    assert without_own_values(rows_of(second)) == without_own_values(rows_of(first))
    assert rows_of(second).count('class="panel dash-row') == 3


def test_after_a_move_only_its_row_is_drawn_again_as_a_fresh_drawing_would(
    games, open_session, teacher_client, settings
):
    page(teacher_client, open_session)
    move(games[1])
    served = redraw(teacher_client, open_session)
    empty_cache(settings)
    fresh = redraw(teacher_client, open_session)
    assert without_own_values(rows_of(served)) == without_own_values(rows_of(fresh))


def test_a_control_from_a_cached_row_passes_the_csrf_check(games, open_session, teacher):
    client = Client(enforce_csrf_checks=True)
    client.force_login(teacher)
    served = redraw(client, open_session)
    assert rows_drawn(served) == 0
    html = served.content.decode()
    pause = reverse("games:pause", args=[games[0].pk])
    form = html[html.index(f'action="{pause}"') :]
    token = CSRF.search(form).group(1)
    response = client.post(
        pause,
        {"csrfmiddlewaretoken": token, "version": games[0].version},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    games[0].refresh_from_db()
    assert games[0].status == TableStatus.PAUSED


def test_another_viewer_gets_the_cached_rows_with_its_own_csrf_token(
    games, open_session, teacher, teacher_client
):
    other_device = Client(enforce_csrf_checks=True)
    other_device.force_login(teacher)  # the same teacher on a second computer
    page(teacher_client, open_session)
    served = redraw(other_device, open_session)
    assert rows_drawn(served) == 0
    token = CSRF.search(served.content.decode()).group(1)
    response = other_device.post(
        reverse("games:pause", args=[games[2].pk]),
        {"csrfmiddlewaretoken": token, "version": games[2].version},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    # The first computer's token is not the second's: the check refuses it there.
    first_token = CSRF.search(redraw(teacher_client, open_session).content.decode()).group(1)
    refused = other_device.post(
        reverse("games:resume", args=[games[2].pk]),
        {"csrfmiddlewaretoken": first_token, "version": games[2].version + 1},
    )
    assert refused.status_code == 403


def test_a_viewer_without_the_controls_is_never_served_the_teacher_s_rows(
    games, open_session, teacher_client, school_admin_client
):
    teachers = page(teacher_client, open_session).content.decode()
    admins = page(school_admin_client, open_session)
    assert ">Pause</button>" in teachers
    assert rows_drawn(admins) == 3
    html = rows_of(admins)
    assert html.count('class="panel dash-row') == 3
    assert ">Pause</button>" not in html and "csrfmiddlewaretoken" not in html
    assert ">Pause</button>" in redraw(teacher_client, open_session).content.decode()


def test_a_freed_phone_leaves_its_table_s_row(open_session, teacher, students, device_client):
    from tests.games.conftest import start_live_table

    table = start_live_table(open_session, teacher, students, device_client)
    client = Client()
    client.force_login(teacher)
    name = students[0].name
    assert f"Free {name}'s name" in redraw(client, open_session).content.decode()
    binding = DeviceBinding.objects.get(session=open_session, student=students[0])
    client.post(
        reverse("classroom:device_unbind", args=[open_session.pk, binding.pk]), {"next": "tables"}
    )
    served = page(client, open_session)
    assert rows_drawn(served) == 1
    assert f"Free {name}'s name" not in served.content.decode()
    assert table.game.pk  # the table itself did not move


def test_a_row_s_age_follows_the_clock_though_its_table_has_not_moved(
    games, open_session, teacher_client
):
    move(games[0])
    assert "Last move: just now" in redraw(teacher_client, open_session).content.decode()
    earlier = timezone.now() - timedelta(minutes=5)
    TableGame.objects.filter(pk=games[0].pk).update(last_move_at=earlier)
    served = page(teacher_client, open_session)
    assert rows_drawn(served) == 1
    assert "Last move: 5\xa0minutes ago" in served.content.decode()


def test_a_spanish_teacher_gets_rows_of_its_own_language(games, open_session, teacher_client):
    english = page(teacher_client, open_session)
    teacher_client.cookies["django_language"] = "es"
    spanish = page(teacher_client, open_session)
    assert rows_drawn(english) == 3 and rows_drawn(spanish) == 3
    assert "Mesa 1" in spanish.content.decode() and "Mesa 1" not in english.content.decode()


def test_each_served_facilitator_row_has_a_move_id_of_its_own_that_moves_once(
    classroom, teacher, students, device_client
):
    from tests.games.conftest import three_laws_session

    session = three_laws_session(classroom, teacher)
    table = start_table(session, teacher, students, device_client)
    client = Client()
    client.force_login(teacher)
    first = page(client, session).content.decode()
    second = redraw(client, session)
    assert rows_drawn(second) == 0
    ids = set(MOVE_ID.findall(first)), set(MOVE_ID.findall(second.content.decode()))
    assert all(len(each) == 1 for each in ids) and ids[0].isdisjoint(ids[1])
    version = TableGame.objects.get(pk=table.game.pk).version
    (move_id,) = ids[1]
    advance_action = {"type": "advance"}
    for _ in range(2):  # a double tap: the same id twice
        facilitate(client, table.game, advance_action, move_id=move_id)
    assert TableGame.objects.get(pk=table.game.pk).version == version + 1
    advance(table.game, teacher)  # the table goes on as before


@pytest.mark.parametrize(
    ("tables", "language", "said"),
    [
        (1, "en", "1 table playing."),
        (3, "en", "3 tables playing."),
        (1, "es", "1 mesa jugando."),
        (3, "es", "3 mesas jugando."),
    ],
)
def test_starting_the_tables_says_how_many_play_in_the_teacher_s_language(
    open_session, classroom, teacher_client, tables, language, said
):
    seat_tables(open_session, classroom, tables)
    teacher_client.cookies["django_language"] = language
    url = reverse("games:start_tables", args=[open_session.pk])
    response = teacher_client.post(url, follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:teacher_tables", args=[open_session.pk])
    assert said in response.content.decode()
