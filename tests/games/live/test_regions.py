"""Redrawn live regions come from the cache where they can (games/views/regions.py, the grid's
cells): a device's region is drawn once a table version and seat and served to every device of
that seat, each with its own move id and watch token (its forms post through htmx with the
page's CSRF token); the projector grid's region is
drawn once a version of the session's tables and served to each grid with its own watch token; a
grid cell is drawn once a table version and language. What is served is always what a fresh
drawing would show."""

import dataclasses
import json
import re
from html import unescape

import pytest
from django.core.cache import cache, caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from classroom.models import TeamMembership
from classroom.watch import Watch, read
from games import services
from games.models import Move, TableGame
from games.views import regions
from tests.conftest import empty_cache, skip_without_server
from tests.games.conftest import post_move, read_screen, seat_tables, start_live_table

DRAW = {"type": "draw", "source": "deck"}
# The values a device's drawing holds for that device alone.
DEVICE_OWN = [
    re.compile(r'(name="client_move_id" value=")[^"]+'),
    re.compile(r"([?&](?:amp;)?t=)[^&\"]+"),
]
# A dashboard's rows hold the viewer's CSRF token too (the page's rows are the same drawings).
OWN = [re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'), *DEVICE_OWN]


@pytest.fixture
def table(open_session, teacher, students, device_client):
    return start_live_table(open_session, teacher, students, device_client)


@pytest.fixture
def teammate(table, students, device_client) -> Client:
    """A second device of Team 1: another student of the team joined on their own phone."""
    TeamMembership.objects.create(session=table.session, team=table.teams[0], student=students[5])
    return device_client(table.session, students[5])


def stale_poll_of(page) -> str:
    """The poll URL of a page's live region, as if its drawing were out of date: the poll
    redraws."""
    html = page.content.decode()
    url = unescape(re.search(r'data-hx-get="([^"]+/poll/[^"]+)"', html).group(1))
    return re.sub(r"v=[^&]+", "v=stale", url)


def stale_poll(client: Client) -> str:
    """The device page's poll URL, as if its drawing were out of date."""
    return stale_poll_of(client.get(reverse("games:device")))


def redraw(client: Client) -> str:
    response = client.get(stale_poll(client), headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.content.decode()


def without_own_values(html: str) -> str:
    for pattern in OWN:
        html = pattern.sub(r"\1…", html)
    return html


def own_values(html: str) -> list[set[str]]:
    """A device drawing's values of its own, by kind."""
    return [{m.group(0) for m in pattern.finditer(html)} for pattern in DEVICE_OWN]


def test_a_teammate_gets_the_drawing_from_the_cache_with_values_of_its_own(
    table, teammate, django_assert_num_queries
):
    first = redraw(table.devices[0])
    url = stale_poll(teammate)
    # The permission check alone, in one statement (games.access.get_seat_version).
    with django_assert_num_queries(1):
        response = teammate.get(url, headers={"HX-Request": "true"})
    second = response.content.decode()
    assert without_own_values(second) == without_own_values(first)
    assert "client_move_id" in second
    # Its forms post through htmx, which sends the page's token: the region carries none.
    assert "csrfmiddlewaretoken" not in second
    for mine, theirs in zip(own_values(first), own_values(second), strict=True):
        assert mine and theirs and mine.isdisjoint(theirs)
    poll = unescape(re.search(r'data-hx-get="([^"]+)"', second).group(1))
    watch = read(re.search(r"t=([^&]+)", poll).group(1).replace("%3A", ":"))
    assert watch.binding_id == teammate.binding.pk


def test_the_cached_drawing_takes_a_move_with_the_pages_csrf_token_and_its_move_id(table, teammate):
    # A client that checks CSRF as a browser's request is checked, with the teammate's cookies.
    checked = Client(enforce_csrf_checks=True)
    checked.cookies = teammate.cookies
    page = checked.get(reverse("games:device")).content.decode()
    # The token htmx sends with every request of the page (base.html's hx-headers).
    token = json.loads(unescape(re.search(r"data-hx-headers='([^']+)'", page).group(1)))
    redraw(table.devices[0])
    screen = read_screen(redraw(teammate))
    move = {
        "action": '{"type": "draw", "source": "deck"}',
        "version": screen.version,
        "client_move_id": screen.client_move_id,
    }
    url = reverse("games:move", args=[table.game.pk])
    refused = checked.post(url, move, headers={"HX-Request": "true"})
    assert refused.status_code == 403
    response = checked.post(url, move, headers={"HX-Request": "true", **token})
    assert response.status_code == 200
    assert Move.objects.filter(game=table.game, client_move_id=screen.client_move_id).count() == 1


def test_every_seat_is_served_what_a_fresh_drawing_shows(table, teammate, settings):
    cached = {}
    for device in (table.devices[0], teammate, table.devices[1], table.devices[2]):
        cached[device.binding.pk] = redraw(device)
    empty_cache(settings)
    for device in (table.devices[0], teammate, table.devices[1], table.devices[2]):
        fresh = redraw(device)
        assert without_own_values(cached[device.binding.pk]) == without_own_values(fresh)
    # And the seats' drawings are their own.
    drawings = {without_own_values(html) for html in cached.values()}
    assert len(drawings) == 3


def test_a_move_is_drawn_again_for_every_seat(table, teammate):
    before = redraw(teammate)
    screen = read_screen(redraw(table.devices[0]))
    post_move(
        table.devices[0], table.game, DRAW, version=screen.version, move_id=screen.client_move_id
    )
    after = redraw(teammate)
    assert "Team 1 drew from the draw pile." in after
    assert "Team 1 drew from the draw pile." not in before


def test_after_a_move_the_other_seats_take_the_tables_teams_and_moves_from_the_cache(
    table, settings, django_assert_num_queries
):
    urls = [stale_poll(device) for device in table.devices[1:]]
    screen = read_screen(redraw(table.devices[0]))
    post_move(
        table.devices[0], table.game, DRAW, version=screen.version, move_id=screen.client_move_id
    )
    # The move's answer drew the mover's new screen, reading the table's teams and latest moves;
    # every other seat (with a drawing of its own to make) checks its permission (the one
    # statement that finds no drawing in the cache, then the one that reads the device, its
    # team and its table's game: games.access._seated) and takes them.
    drawn = []
    for device, url in zip(table.devices[1:3], urls, strict=False):
        with django_assert_num_queries(2):
            response = device.get(url, headers={"HX-Request": "true"})
        drawn.append(response.content.decode())
    for html in drawn:
        assert "Team 1 drew from the draw pile." in html
    assert without_own_values(drawn[0]) != without_own_values(drawn[1])
    # Without the cache a seat reads them itself (and the table's version), and draws the same.
    empty_cache(settings)
    with django_assert_num_queries(5):
        again = table.devices[1].get(urls[0], headers={"HX-Request": "true"})
    assert without_own_values(again.content.decode()) == without_own_values(drawn[0])


def sorted_by_other_tables(queries: list[dict]) -> list[str]:
    """The queries that sort by a column of another table than the one they read (a model's
    default ordering through a foreign key joins the session's to sort, row by row)."""
    sorting = []
    for query in queries:
        sql = query["sql"]
        if "ORDER BY" not in sql:
            continue
        read = re.search(r'FROM "(\w+)"', sql).group(1)
        by = re.findall(r'"(\w+)"\."\w+"', sql.rsplit("ORDER BY", 1)[1])
        if any(table != read for table in by):
            sorting.append(sql)
    return sorting


def test_a_device_s_redraw_and_move_sort_no_row_by_another_table(table, teammate):
    """The lookups every device request makes find one row each: sorting it by the model's
    default ordering would join the session (and for a move, the game) for nothing."""
    url = stale_poll(teammate)
    with CaptureQueriesContext(connection) as redrawing:
        teammate.get(url, headers={"HX-Request": "true"})
    screen = read_screen(redraw(table.devices[0]))
    mover = table.devices[0]
    with CaptureQueriesContext(connection) as moving:
        post_move(mover, table.game, DRAW, version=screen.version, move_id=screen.client_move_id)
    assert sorted_by_other_tables(redrawing.captured_queries) == []
    assert sorted_by_other_tables(moving.captured_queries) == []


def test_on_postgresql_the_seat_check_is_prepared_once_and_then_only_executed(table, teammate):
    """config/settings.py: the queries a pooled connection repeats are prepared by psycopg after
    a few uses, so PostgreSQL stops planning them (the seat check's plan took 30 times its run)."""
    if connection.vendor != "postgresql":
        skip_without_server("prepared statements are PostgreSQL's (set DATABASE_URL)")
    redraw(table.devices[0])
    url = stale_poll(teammate)
    for _ in range(connection.settings_dict["OPTIONS"]["prepare_threshold"] + 1):
        assert teammate.get(url, headers={"HX-Request": "true"}).status_code == 200
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("classroom_devicebinding b" in statement for statement in prepared), prepared


def test_a_spanish_teammate_gets_its_own_language(table, teammate):
    english = redraw(table.devices[0])
    teammate.cookies["django_language"] = "es"
    spanish = redraw(teammate)
    assert 'lang="es"' not in english
    assert without_own_values(spanish) != without_own_values(english)
    assert "Roba del mazo" in spanish and "Roba del mazo" not in english


def test_after_a_move_the_grid_shows_the_moved_table_anew_as_a_fresh_drawing_would(
    open_session, teacher, teacher_client, classroom, settings
):
    seat_tables(open_session, classroom, 2)
    services.session_start_tables(session=open_session, by=teacher)
    url = reverse("games:projector_grid", args=[open_session.pk])
    assert "drew from the draw pile" not in teacher_client.get(url).content.decode()
    game = TableGame.objects.get(session=open_session, table__number=2)
    services.move_submit(
        game_id=game.pk,
        seat=game.state["seats"][game.state["current"]],
        action=DRAW,
        expected_version=game.version,
        client_move_id="grid-1",
        by_teacher=teacher,
    )
    cached = teacher_client.get(url).content.decode()
    assert cached.count("drew from the draw pile") == 1
    empty_cache(settings)
    fresh = teacher_client.get(url).content.decode()

    def cells(html: str) -> str:
        return html[html.index('<div class="table-grid') : html.index("</body>")]

    assert cells(cached) == cells(fresh)


@pytest.fixture
def two_tables(open_session, teacher, classroom):
    seat_tables(open_session, classroom, 2)
    services.session_start_tables(session=open_session, by=teacher)
    return open_session


def stale_grid_poll(client: Client, session) -> str:
    return stale_poll_of(client.get(reverse("games:projector_grid", args=[session.pk])))


def grid_redraw(client: Client, url: str) -> str:
    response = client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.content.decode()


def watch_in(html: str) -> Watch:
    poll = unescape(re.search(r'data-hx-get="([^"]+)"', html).group(1))
    return read(re.search(r"t=([^&]+)", poll).group(1).replace("%3A", ":"))


def without_stamp(html: str) -> str:
    """Without the session's stamp of its tables in the fingerprint (games.live.session_stamp)."""
    return re.sub(r"(v=[^~\"&]*~)[^\"&]+", r"\1…", html)


def move_at_table(session, number: int, teacher, move_id: str) -> None:
    game = TableGame.objects.get(session=session, table__number=number)
    services.move_submit(
        game_id=game.pk,
        seat=game.state["seats"][game.state["current"]],
        action=DRAW,
        expected_version=game.version,
        client_move_id=move_id,
        by_teacher=teacher,
    )


def cache_reads(monkeypatch) -> list[str]:
    """The cache's reads from now on, by method, as its callers make them (a backend's
    get_many may be a loop of its own get: those are one read)."""
    backend = type(caches["default"])
    calls: list[str] = []
    depth = [0]

    def counted(name, method):
        def read(self, *args, **kwargs):
            if not depth[0]:
                calls.append(name)
            depth[0] += 1
            try:
                return method(self, *args, **kwargs)
            finally:
                depth[0] -= 1

        return read

    for name in ("get", "get_many", "has_key"):
        monkeypatch.setattr(backend, name, counted(name, getattr(backend, name)))
    return calls


def test_a_second_grid_of_the_class_is_served_the_drawing_with_its_own_watch(
    two_tables,
    teacher_client,
    school_admin_client,
    school_admin,
    django_assert_num_queries,
    monkeypatch,
):
    first = grid_redraw(teacher_client, stale_grid_poll(teacher_client, two_tables))
    url = stale_grid_poll(school_admin_client, two_tables)
    reads = cache_reads(monkeypatch)
    # The person's account (their session comes from the cache: classroom/sessions.py), then the
    # permission check and the tables' versions in one (games.access.get_session_versions): no
    # team or move is read.
    with django_assert_num_queries(2):
        second = grid_redraw(school_admin_client, url)
    # The cache: the tables' versions with the session's stamp (read once: the unchanged-poll
    # middleware's check, which the poll view draws from), the person's session, then the
    # drawing, keyed by that same stamp.
    assert reads == ["get_many", "get", "get"]
    assert without_own_values(second) == without_own_values(first)
    assert watch_in(second).user_id == school_admin.pk
    assert watch_in(first).user_id != school_admin.pk


def test_after_a_move_the_grid_served_is_what_a_fresh_drawing_shows(
    two_tables, teacher, teacher_client, school_admin_client, settings
):
    url = stale_grid_poll(teacher_client, two_tables)
    before = grid_redraw(teacher_client, url)
    move_at_table(two_tables, 2, teacher, "grid-cache-1")
    drawn = grid_redraw(teacher_client, url)
    served = grid_redraw(school_admin_client, stale_grid_poll(school_admin_client, two_tables))
    assert "drew from the draw pile" not in before
    assert drawn.count("drew from the draw pile") == 1
    assert without_own_values(served) == without_own_values(drawn)
    empty_cache(settings)
    fresh = grid_redraw(teacher_client, url)
    # An emptied cache forgets the session's stamp of its tables: the fingerprint gets a new one.
    assert without_stamp(without_own_values(fresh)) == without_stamp(without_own_values(drawn))


def test_after_a_move_the_grid_narrates_it_from_the_moves_its_phones_read(
    table, teacher_client, settings
):
    url = stale_grid_poll(teacher_client, table.session)
    screen = read_screen(redraw(table.devices[0]))
    post_move(
        table.devices[0], table.game, DRAW, version=screen.version, move_id=screen.client_move_id
    )
    # The move's answer drew the mover's screen, reading the table's latest moves once for this
    # version; the grid's cell of the moved table takes them instead of reading them again.
    with CaptureQueriesContext(connection) as queries:
        drawn = grid_redraw(teacher_client, url)
    assert "drew from the draw pile" in drawn
    assert not [q["sql"] for q in queries if Move._meta.db_table in q["sql"]]
    empty_cache(settings)
    with CaptureQueriesContext(connection) as queries:
        fresh = grid_redraw(teacher_client, url)
    assert [q["sql"] for q in queries if Move._meta.db_table in q["sql"]]
    assert without_stamp(without_own_values(fresh)) == without_stamp(without_own_values(drawn))


def test_a_renamed_session_or_a_new_projector_language_draws_the_grid_again(
    two_tables, teacher_client
):
    """Neither changes a table's version, so the poll's fingerprint alone would not tell."""
    url = stale_grid_poll(teacher_client, two_tables)
    grid_redraw(teacher_client, url)
    type(two_tables).objects.filter(pk=two_tables.pk).update(title="Robot Rally")
    assert "Robot Rally · all tables" in grid_redraw(teacher_client, url)
    type(two_tables).objects.filter(pk=two_tables.pk).update(projector_language="es")
    assert "Robot Rally · todas las mesas" in grid_redraw(teacher_client, url)


def test_a_grid_whose_viewer_lost_the_right_to_see_it_is_refused_though_drawn(
    two_tables, teacher_client, school_admin_client, school_admin
):
    grid_redraw(teacher_client, stale_grid_poll(teacher_client, two_tables))
    url = stale_grid_poll(school_admin_client, two_tables)
    school_admin.role = "teacher"
    school_admin.save()
    response = school_admin_client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 404
    assert "all tables" not in response.content.decode()


def test_the_dashboard_s_redraw_reads_each_of_its_rows_once(
    table, teacher_client, django_assert_num_queries
):
    page = reverse("games:teacher_tables", args=[table.session.pk])
    url = stale_poll_of(teacher_client.get(page))
    first = grid_redraw(teacher_client, url)
    # The person's account (their session from the cache), the session with its class (the
    # permission check: games.access.get_session_versions), its tables with their games, and
    # its joined phones; the rows, teams and moves from the cache.
    with django_assert_num_queries(4):
        second = grid_redraw(teacher_client, url)
    assert without_own_values(second) == without_own_values(first)
    assert "Table 1" in second


def test_a_dashboard_whose_viewer_lost_the_right_to_see_it_is_refused_though_drawn(
    table, teacher_client, school_admin_client, school_admin
):
    page = reverse("games:teacher_tables", args=[table.session.pk])
    teacher_url = stale_poll_of(teacher_client.get(page))
    grid_redraw(teacher_client, teacher_url)
    url = stale_poll_of(school_admin_client.get(page))
    assert "Table 1" in grid_redraw(school_admin_client, url)
    school_admin.role = "teacher"
    school_admin.save()
    response = school_admin_client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 404
    assert "Table 1" not in response.content.decode()


def test_a_poll_whose_seat_check_read_an_older_version_keeps_no_drawing_under_it(
    table, teammate, monkeypatch
):
    """The seat check reads the table's version and the drawing reads the table again: when a
    move came in between, what is drawn is the newer version, kept under that version's key
    alone."""
    url = stale_poll(teammate)
    checked = regions.get_seat_version
    keys = {}

    def a_version_behind(request, watch):
        now = checked(request, watch)
        behind = dataclasses.replace(now, version=now.version - 1)
        keys["behind"] = regions.region_key(watch.game_ids[0], watch.seat, behind)
        keys["now"] = regions.region_key(watch.game_ids[0], watch.seat, now)
        return behind

    monkeypatch.setattr(regions, "get_seat_version", a_version_behind)
    html = teammate.get(url, headers={"HX-Request": "true"}).content.decode()
    assert read_screen(html).version == table.game.version
    assert list(cache.get_many([keys["behind"], keys["now"]])) == [keys["now"]]


def compact_cells_drawn(response) -> int:
    return sum(template.name.endswith("_compact.html") for template in response.templates)


def test_after_a_move_the_grid_draws_only_the_moved_table_s_cell(
    two_tables, teacher, teacher_client, settings
):
    url = reverse("games:projector_grid", args=[two_tables.pk])
    assert compact_cells_drawn(teacher_client.get(url)) == 2
    assert compact_cells_drawn(teacher_client.get(url)) == 0
    move_at_table(two_tables, 2, teacher, "cell-1")
    served = teacher_client.get(url)
    assert compact_cells_drawn(served) == 1
    empty_cache(settings)
    fresh = teacher_client.get(url)
    assert compact_cells_drawn(fresh) == 2

    def cells(html: str) -> str:
        return html[html.index('<div class="table-grid') : html.index("</body>")]

    assert without_stamp(without_own_values(cells(served.content.decode()))) == without_stamp(
        without_own_values(cells(fresh.content.decode()))
    )
