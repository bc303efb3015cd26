"""Shared Chromebooks: no page is kept in the browser's cache (`Cache-Control: no-store`),
checked on every page of the fuzz table as the people who see it; the printable cards, the
same for everyone, keep their public caching."""

import pytest
from django.urls import reverse

from tests.fuzz.routes import all_routes

# The public keyset is cached by LMSs for five minutes (tests/lti/test_keys.py), the same for all.
CACHED_ON_PURPOSE = {"games:printable", "lti:jwks"}
PAGES = [r for r in all_routes() if r.method == "get" and r.name not in CACHED_ON_PURPOSE]


@pytest.mark.parametrize("route", PAGES, ids=lambda route: route.label)
def test_every_page_tells_the_browser_not_to_store_it(world, route):  # noqa: F811
    path = reverse(route.name, args=route.args(world))
    for role in route.roles:
        response = world.client(role).get(path, route.params(world))
        assert "no-store" in response.get("Cache-Control", ""), (role, response.status_code)


def test_a_device_page_after_a_move_is_not_stored_either(world):  # noqa: F811
    from tests.fuzz.routes_games import _live_move

    response = world.device_live.post(
        reverse("games:move", args=[world.live.game.pk]),
        _live_move(world),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


def test_the_printable_cards_keep_their_public_caching(client):
    response = client.get(reverse("games:printable", args=["bot-builders-rules"]))
    assert "public" in response["Cache-Control"] and "no-store" not in response["Cache-Control"]
