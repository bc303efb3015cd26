"""The watch token every live screen carries (classroom/watch.py): one format for every screen,
refused before decoding when too long, refusals never kept, any shape no screen mints refused as
a bad token (the screen reloads) and never raised; and a page drawn never announces a change."""

import pytest
from django.contrib.auth import get_user
from django.core import signing
from django.test import RequestFactory
from django.urls import reverse

from classroom import push, watch
from games import live
from games.views import stream
from tests.games.conftest import start_live_table


@pytest.fixture
def table(open_session, teacher, students, device_client):
    return start_live_table(open_session, teacher, students, device_client)


def signed(payload) -> str:
    """A token the site's key signed, holding whatever `payload` is."""
    return signing.dumps(payload, salt=watch._SALT, compress=True)


def poll(client, token: str):
    return client.get(reverse("games:poll"), {"t": token, "v": "1.0"})


def asks_to_reload(response) -> bool:
    return response.status_code == 204 and response.headers.get("HX-Refresh") == "true"


EVERY_SCREEN = [
    watch.Watch(watch.DEVICE, 1, (2,), seat="team-1", binding_id=3),
    watch.Watch(watch.WAITING, 1, (), seat="team-1", binding_id=3),
    watch.Watch(watch.DEVICE_LOBBY, 1, binding_id=3),
    watch.Watch(watch.PROJECTOR, 1, (2,), user_id=4),
    watch.Watch(watch.GRID, 1, (2, 5), user_id=4),
    watch.Watch(watch.GRID, 1, (), user_id=4),
    watch.Watch(watch.TEACHER, 1, (2, 5), user_id=4),
    watch.Watch(watch.LOBBY, 1, user_id=4),
    watch.Watch(watch.SPOTLIGHT, 1, user_id=4),
    watch.Watch(watch.EXPORT, None, user_id=4, export_id=6),
]


@pytest.mark.parametrize("shown", EVERY_SCREEN, ids=lambda w: w.view)
def test_every_screen_reads_back_the_watch_it_was_minted_for(shown):
    assert watch.read(watch.mint(shown)) == shown


def test_every_screen_has_a_redraw_once_the_site_is_loaded():
    reverse("games:poll")  # loads the URLconf, and with it every views module
    assert {view for view in watch.VIEWS if watch.redraw_of(view) is None} == set()


BAD_SHAPES = {
    "a projector without its table": {"w": "projector", "s": 1, "u": 4},
    "a projector with an empty table list": {"w": "projector", "s": 1, "g": [], "u": 4},
    "a device with two tables": {"w": "device", "s": 1, "g": [2, 3], "t": "team-1", "b": 3},
    "a device without a seat": {"w": "device", "s": 1, "g": [2], "b": 3},
    "a lobby with tables": {"w": "lobby", "s": 1, "g": [2], "u": 4},
    "a session id as a string": {"w": "grid", "s": "1", "g": [2], "u": 4},
    "a table id as a string": {"w": "grid", "s": 1, "g": ["2"], "u": 4},
    "a table id as a float": {"w": "grid", "s": 1, "g": [2.0], "u": 4},
    "a table id as a dict": {"w": "grid", "s": 1, "g": [{"pk": 2}], "u": 4},
    "tables as a dict": {"w": "grid", "s": 1, "g": {"2": 2}, "u": 4},
    "tables as a string": {"w": "grid", "s": 1, "g": "2", "u": 4},
    "a user id as true": {"w": "grid", "s": 1, "g": [2], "u": True},
    "a user id of 0": {"w": "grid", "s": 1, "g": [2], "u": 0},
    "a negative binding": {"w": "waiting", "s": 1, "b": -3},
    "a seat as a list": {"w": "device", "s": 1, "g": [2], "t": ["team-1"], "b": 3},
    "a view as a dict": {"w": {"view": "grid"}, "s": 1, "u": 4},
    "a view no screen has": {"w": "admin", "s": 1, "u": 4},
    "no view": {"s": 1, "u": 4},
    "both holders": {"w": "grid", "s": 1, "g": [2], "u": 4, "b": 3},
    "no holder": {"w": "grid", "s": 1, "g": [2]},
    "a device held by a person": {"w": "device", "s": 1, "g": [2], "t": "team-1", "u": 4},
    "a field no screen has": {"w": "grid", "s": 1, "g": [2], "u": 4, "x": 1},
    "an export without its export": {"w": "export", "u": 4},
    "a lobby without its session": {"w": "lobby", "u": 4},
    "a list": ["grid", 1, [2], 4],
    "a string": "grid",
    "a number": 7,
    "null": None,
}


@pytest.mark.parametrize("payload", BAD_SHAPES.values(), ids=BAD_SHAPES.keys())
def test_a_signed_token_of_a_shape_no_screen_mints_is_refused_never_raised(
    table, teacher_client, payload
):
    token = signed(payload)
    assert watch.read(token) is None
    assert asks_to_reload(poll(teacher_client, token))
    assert asks_to_reload(poll(table.devices[1], token))


def stream_subject(client, token: str):
    """What the stream view would watch for this client's request (its checks run at once)."""
    request = RequestFactory().get(reverse("games:stream"), {"t": token})
    request.COOKIES.update({name: morsel.value for name, morsel in client.cookies.items()})
    request.session = client.session
    request.user = get_user(request)
    return stream._subject(request)


# The stream's checks close the database connection, as a stream open for hours must.
@pytest.mark.django_db(transaction=True)
def test_the_stream_refuses_a_signed_projector_token_with_no_table(table, teacher_client, teacher):
    good = watch.mint(
        watch.Watch(watch.PROJECTOR, table.session.pk, (table.game.pk,), user_id=teacher.pk)
    )
    assert stream_subject(teacher_client, good) is not None
    empty = signed({"w": "projector", "s": table.session.pk, "g": [], "u": teacher.pk})
    assert stream_subject(teacher_client, empty) is None


def test_a_token_longer_than_the_limit_is_refused_before_it_is_decoded(
    table, teacher_client, monkeypatch
):
    def never(token):
        raise AssertionError("a token over the limit was decoded")

    monkeypatch.setattr(watch.signing, "loads", never)
    junk = "x" * (watch.MAX_TOKEN_CHARS + 1)
    assert watch.read(junk) is None
    assert asks_to_reload(poll(table.devices[1], junk))
    assert stream_subject(teacher_client, "a" * 60_000) is None


def test_a_token_the_site_minted_fits_the_limit_even_for_a_big_class():
    many = tuple(range(1_000_000, 1_000_080))  # 80 tables, with long ids
    token = watch.mint(watch.Watch(watch.TEACHER, 1_000_000, many, user_id=1_000_000))
    assert len(token) <= watch.MAX_TOKEN_CHARS
    assert watch.read(token) is not None


def test_refused_tokens_are_not_kept_and_verified_ones_are(table):
    watch._verified.cache_clear()
    device = table.devices[1]
    for n in range(300):
        assert asks_to_reload(poll(device, f"junk{n}:{'y' * 1500}"))
        assert asks_to_reload(poll(device, signed({"w": "projector", "s": n + 1, "g": [], "u": 1})))
    assert watch._verified.cache_info().currsize == 0
    good = watch.mint(watch.Watch(watch.LOBBY, 1, user_id=2))
    watch.read(good)
    watch.read(good)
    info = watch._verified.cache_info()
    assert (info.currsize, info.hits) == (1, 1)


def test_drawing_a_page_announces_nothing_though_it_heals_the_cache(
    table, teacher_client, monkeypatch
):
    """Announcing a change is the write's job (on commit); a GET that finds the cache behind
    stores the version quietly."""
    published = []
    monkeypatch.setattr(push, "publish", published.append)
    pages = [
        (table.devices[1], reverse("games:device")),
        (teacher_client, reverse("games:projector", args=[table.game.pk])),
        (teacher_client, reverse("games:projector_grid", args=[table.session.pk])),
        (teacher_client, reverse("games:teacher_tables", args=[table.session.pk])),
        (teacher_client, reverse("classroom:session_lobby", args=[table.session.pk])),
    ]
    for client, url in pages:
        live.cache.delete(live.version_key(table.game.pk))
        assert client.get(url).status_code == 200
    projector = reverse("games:projector", args=[table.game.pk])
    live.cache.delete(live.version_key(table.game.pk))
    assert teacher_client.get(projector).status_code == 200
    assert live.get_version(table.game.pk) == table.game.version  # healed
    live.cache.set(live.version_key(table.game.pk), table.game.version - 1)  # behind
    assert teacher_client.get(projector).status_code == 200
    assert live.get_version(table.game.pk) == table.game.version
    assert published == []
