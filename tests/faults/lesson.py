"""A lesson under a fault: devices taking turns at a live table and screens polling it, with the
checks every fault test makes (no move lost or doubled, no screen stale)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from django.test import Client
from django.urls import reverse

from games.models import Move, TableGame
from tests.games.conftest import LiveTable, post_move, read_screen
from tests.support.polls import poll_url_in


@dataclass
class WatchingScreen:
    """A page left open: it polls with the URL it was last drawn with, like htmx does."""

    name: str
    client: Client
    url: str

    @classmethod
    def open(cls, name: str, client: Client, page: str) -> WatchingScreen:
        response = client.get(page)
        assert response.status_code == 200, f"{name}: {response.status_code}"
        return cls(name, client, poll_url_in(response.content.decode()))

    def poll(self) -> int:
        response = self.client.get(self.url, headers={"HX-Request": "true"})
        assert response.status_code in (200, 204), f"{self.name} poll: {response.status_code}"
        if response.status_code == 200:
            self.url = poll_url_in(response.content.decode())
        return response.status_code

    def shown_version(self, game: TableGame) -> int | None:
        """The table's version in the fingerprint the screen was drawn with."""
        shown = parse_qs(urlsplit(self.url).query)["v"][0]
        for part in shown.split("~")[0].split("-"):
            game_id, _, version = part.partition(".")
            if game_id == str(game.pk):
                return int(version)
        return None

    def is_current(self, game: TableGame) -> bool:
        """Poll once; True when the screen then shows the table's version in the database."""
        self.poll()
        return self.shown_version(game) == TableGame.objects.get(pk=game.pk).version


class Lesson:
    """Moves made as a team's device makes them; every accepted move is remembered."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.accepted: list[str] = []  # client move ids the server answered with a new screen

    def next_tap(self) -> tuple[Client, dict]:
        """The device whose turn it is, and what its first button posts."""
        for device in self.table.devices:
            screen = read_screen(device.get(reverse("games:device")).content.decode())
            if screen.actions:
                return device, {
                    "action": screen.actions[0],
                    "version": screen.version,
                    "move_id": screen.client_move_id,
                }
        raise AssertionError("no device has a move to make")

    def move(self) -> tuple[Client, dict]:
        """The device whose turn it is taps its first button. Returns what it posted."""
        device, posted = self.next_tap()
        response = post_move(
            device,
            self.table.game,
            posted["action"],
            version=posted["version"],
            move_id=posted["move_id"],
        )
        assert response.status_code == 200, f"move answered {response.status_code}"
        assert "alert-error" not in response.content.decode(), "move refused"
        self.accepted.append(posted["move_id"])
        return device, posted

    def tap_again(self, device: Client, posted: dict) -> None:
        """The same tap sent twice (a retry after a slow answer): it must apply once."""
        response = post_move(
            device,
            self.table.game,
            posted["action"],
            version=posted["version"],
            move_id=posted["move_id"],
        )
        assert response.status_code == 200

    def assert_no_move_lost_or_doubled(self) -> None:
        ids = list(
            Move.objects.filter(game=self.table.game, by_robot=False)
            .order_by("seq")
            .values_list("client_move_id", flat=True)
        )
        assert len(ids) == len(set(ids)), f"a move was doubled: {ids}"
        assert ids == self.accepted, f"moves lost or extra: stored {ids}, accepted {self.accepted}"
