"""The poll every live screen makes (on its stream's word, and on a fallback): 204 with no
database query while nothing changed, the re-drawn region (after the full permission check) once
something did."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from classroom import watch
from classroom.watch import DEVICE, Watch, mint, read
from games import live, services
from tests.games.conftest import post_move, read_screen, start_live_table
from tests.support.polls import page_poll, poll_url_in

# Also run through a real PgBouncer in transaction pooling (scripts/pgbouncer-run in .ci/run).
pytestmark = pytest.mark.pgbouncer

DRAW = {"type": "draw", "source": "deck"}


@pytest.fixture
def table(open_session, teacher, students, device_client):
    return start_live_table(open_session, teacher, students, device_client)


def move_once(table):
    device = table.devices[0]
    screen = read_screen(device.get(reverse("games:device")).content.decode())
    post_move(device, table.game, DRAW, version=screen.version, move_id=screen.client_move_id)


def test_unchanged_device_poll_answers_204_without_a_database_query(
    table, django_assert_num_queries
):
    url = page_poll(table.devices[1], reverse("games:device"))
    with django_assert_num_queries(0):
        response = table.devices[1].get(url, headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert response.content == b""


def test_an_unchanged_poll_is_answered_before_the_page_layers_but_never_stored(
    table, teacher_client
):
    url = page_poll(teacher_client, reverse("games:projector_grid", args=[table.session.pk]))
    quiet = teacher_client.get(url)
    assert quiet.status_code == 204
    # No language, session or CSRF work ran (LocaleMiddleware names the language of what it
    # answers), yet the layers before it did: security headers and "never store".
    assert not quiet.has_header("Content-Language")
    assert "no-store" in quiet["Cache-Control"]
    assert quiet["X-Content-Type-Options"] == "nosniff"
    move_once(table)
    changed = teacher_client.get(url)
    assert changed.status_code == 200
    assert changed["Content-Language"] == "en"
    assert "no-store" in changed["Cache-Control"]


def test_a_forged_poll_token_asks_the_page_to_reload_without_a_query(
    table, django_assert_num_queries
):
    url = page_poll(table.devices[1], reverse("games:device"))
    forged = re.sub(r"t=[^&]+", "t=forged", url)
    with django_assert_num_queries(0):
        response = table.devices[1].get(forged)
    assert response.status_code == 204
    assert response["HX-Refresh"] == "true"


class HeldClock:
    """The wall clock held one second into a period of the teacher's dashboard clock
    (`games.live.CLOCK_SECONDS`): on a busy machine a page and its poll could otherwise fall on
    either side of a tick, and the poll would find the page changed."""

    def __init__(self, monkeypatch) -> None:
        self.monkeypatch = monkeypatch
        self.now = live.time.time() // live.CLOCK_SECONDS * live.CLOCK_SECONDS + 1
        monkeypatch.setattr(live.time, "time", lambda: self.now)

    def tick(self) -> None:
        self.now += live.CLOCK_SECONDS


@pytest.fixture
def held_clock(monkeypatch) -> HeldClock:
    return HeldClock(monkeypatch)


@pytest.mark.parametrize("page", ["projector", "projector_grid", "teacher_tables"])
def test_unchanged_teacher_screens_poll_without_a_database_query(
    table, teacher_client, django_assert_num_queries, page, held_clock
):
    arg = table.game.pk if page == "projector" else table.session.pk
    url = page_poll(teacher_client, reverse(f"games:{page}", args=[arg]))
    with django_assert_num_queries(0):
        response = teacher_client.get(url)
    assert response.status_code == 204


def test_after_a_move_every_screen_gets_the_redrawn_region_with_the_new_version(
    table, teacher_client
):
    device_url = page_poll(table.devices[1], reverse("games:device"))
    grid_url = page_poll(teacher_client, reverse("games:projector_grid", args=[table.session.pk]))
    move_once(table)
    response = table.devices[1].get(device_url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="live"')
    assert "Team 1 drew from the draw pile." in html
    assert poll_url_in(html) != device_url
    grid = teacher_client.get(grid_url).content.decode()
    assert "Team 1 drew from the draw pile." in grid
    # The new poll URL is quiet again.
    assert table.devices[1].get(poll_url_in(html)).status_code == 204


def test_a_changed_poll_reads_its_screens_keys_once(table, monkeypatch):
    """The middleware's read decides the poll changed; the view draws from that same read."""
    url = page_poll(table.devices[1], reverse("games:device"))
    move_once(table)
    reads = []
    read_now = live.current_fingerprint
    monkeypatch.setattr(live, "current_fingerprint", lambda w: reads.append(w) or read_now(w))
    response = table.devices[1].get(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert len(reads) == 1
    # Outside a poll's request every ask reads the cache again.
    query = parse_qs(urlsplit(url).query)
    live.quick_answer(query["t"][0], query["v"][0])
    live.quick_answer(query["t"][0], query["v"][0])
    assert len(reads) == 3


def test_a_cache_miss_costs_one_query_and_fills_the_cache_again(table, django_assert_num_queries):
    url = page_poll(table.devices[1], reverse("games:device"))
    cache.delete(live.version_key(table.game.pk))
    with django_assert_num_queries(1):
        assert table.devices[1].get(url).status_code == 204
    with django_assert_num_queries(0):
        assert table.devices[1].get(url).status_code == 204
    assert live.get_version(table.game.pk) == table.game.version


def test_a_revoked_device_gets_empty_answers_then_is_refused_at_the_next_change(table):
    device = table.devices[1]
    url = page_poll(device, reverse("games:device"))
    device.binding.revoked_at = timezone.now()
    device.binding.save()
    # Unchanged: the token alone answers, and a 204 carries nothing.
    unchanged = device.get(url)
    assert unchanged.status_code == 204 and unchanged.content == b""
    move_once(table)
    assert device.get(url).status_code == 404


def test_a_token_used_by_another_device_is_refused_once_the_table_changed(table):
    url = page_poll(table.devices[1], reverse("games:device"))
    move_once(table)
    thief = table.devices[2]
    response = thief.get(url)
    assert response.status_code == 204
    assert response.headers["HX-Refresh"] == "true"
    assert "Team 1 drew" not in response.content.decode()


def test_a_teacher_token_replayed_by_another_person_is_not_found(
    table, teacher_client, other_teacher_client, outsider
):
    url = page_poll(teacher_client, reverse("games:projector", args=[table.game.pk]))
    move_once(table)
    assert other_teacher_client.get(url).status_code == 404
    assert outsider.get(url).status_code == 404


@pytest.mark.parametrize("token", ["", "garbage", "eyJ3IjoiZGV2aWNlIn0:1abc:forged"])
def test_a_forged_or_garbled_token_asks_the_page_to_reload_and_shows_nothing(table, token):
    response = table.devices[1].get(reverse("games:poll"), {"t": token, "v": "1.0"})
    assert response.status_code == 204
    assert response.headers["HX-Refresh"] == "true"


def test_a_token_read_before_is_still_refused_once_too_old(table, monkeypatch):
    """Each process keeps the tokens whose signature it has checked; their age is checked on
    every poll all the same."""
    url = page_poll(table.devices[1], reverse("games:device"))
    assert table.devices[1].get(url).status_code == 204  # read, and kept
    later = live.time.time() + watch.TOKEN_MAX_AGE + 60
    monkeypatch.setattr(live.time, "time", lambda: later)
    response = table.devices[1].get(url)
    assert response.status_code == 204 and response.headers["HX-Refresh"] == "true"


def test_a_watch_signed_again_within_the_minute_reuses_its_token(monkeypatch):
    mine = Watch(DEVICE, 1, (2,), seat="team-1", binding_id=3)
    other = Watch(DEVICE, 1, (2,), seat="team-2", binding_id=4)
    now = 1_800_000_000.0  # the start of a minute
    monkeypatch.setattr(live.time, "time", lambda: now)
    first = mint(mine)
    now += watch.MINT_REUSE_SECONDS - 1
    assert mint(mine) == first
    assert read(mint(other)) == other
    now += 1
    again = mint(mine)
    assert again != first and read(again) == mine


def test_a_token_with_one_character_of_its_signature_changed_is_refused(table):
    url = page_poll(table.devices[1], reverse("games:device"))
    token = re.search(r"t=([^&]+)", url).group(1).replace("%3A", ":")
    assert read(token) is not None
    last = token[-1]
    tampered = token[:-1] + ("A" if last != "A" else "B")
    assert read(tampered) is None
    response = table.devices[1].get(reverse("games:poll"), {"t": tampered, "v": "1.0"})
    assert response.headers["HX-Refresh"] == "true"


def test_the_waiting_screen_reloads_itself_when_the_tables_start(
    open_session, teacher, students, device_client, django_capture_on_commit_callbacks
):
    from tests.games.conftest import seat_teams

    seat_teams(open_session, students, teams=2)
    device = device_client(open_session, students[0])
    response = device.get(reverse("games:device"))
    assert "Get ready, Team 1!" in response.content.decode()
    url = poll_url_in(response.content.decode())
    assert device.get(url).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        services.session_start_tables(session=open_session, by=teacher)
    answer = device.get(url)
    assert answer.status_code == 204 and answer.headers["HX-Refresh"] == "true"
    assert 'class="turn-status' in device.get(reverse("games:device")).content.decode()


def test_the_teacher_dashboard_redraws_when_its_clock_ticks(table, teacher_client, held_clock):
    url = page_poll(teacher_client, reverse("games:teacher_tables", args=[table.session.pk]))
    assert teacher_client.get(url).status_code == 204
    held_clock.tick()
    assert teacher_client.get(url).status_code == 200


def test_a_committed_move_bumps_the_cached_version_for_every_screen(
    table, django_capture_on_commit_callbacks
):
    url = page_poll(table.devices[1], reverse("games:device"))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.move_submit(
            game_id=table.game.pk,
            seat="team-1",
            action=DRAW,
            expected_version=table.game.version,
            client_move_id="c1",
        )
    assert len(callbacks) == 1
    assert live.get_version(table.game.pk) == table.game.version + 1
    assert table.devices[1].get(url).status_code == 200


def test_a_rolled_back_move_never_reaches_the_cache(table, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(services.MoveRefused),
    ):
        services.move_submit(
            game_id=table.game.pk,
            seat="team-2",
            action=DRAW,
            expected_version=table.game.version,
            client_move_id="c2",
        )
    assert callbacks == []
