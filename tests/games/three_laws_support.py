"""Builders for 3 Laws live-play tests: a session of five one-student teams at one table,
started through the real service, then re-dealt from fixed cards so every screen is known."""

from __future__ import annotations

import datetime
import re

from django.test import Client
from django.urls import reverse

from classroom import services as classroom_services
from classroom.models import GameKind, Session
from games.engines import three_laws
from games.models import TableGame
from tests.games.live_support import LiveTable, seat_teams

SEATS = [f"team-{n}" for n in range(1, 6)]
# Team 1 is the only Drone, so its own faction word can be looked for on its own page.
DEAL = {
    "team-1": ["drones", 1],
    "team-2": ["androids", 3],
    "team-3": ["androids", 2],
    "team-4": ["cyborgs", 4],
    "team-5": ["cyborgs", 1],
}
LAW_ORDER = [f"law_{n:02d}" for n in range(1, 13)]
# When only Team 1 scores (every seat keeps its key: the lone Drone leads and holds one), it
# draws the top card each round: four 3s. The rest is 1s and 2s.
VP_DECK = [3, 3, 3, 3] + [1, 2] * 28


def options(rounds: int = 4) -> dict:
    return {
        "start_seat": "team-1",
        "deals": [dict(DEAL) for _ in range(rounds)],
        "law_order": LAW_ORDER,
        "vp_deck": VP_DECK,
    }


def three_laws_session(classroom, teacher, **fields) -> Session:
    session = Session.objects.create(
        classroom=classroom, date=datetime.date(2026, 12, 1), game=GameKind.THREE_LAWS, **fields
    )
    return classroom_services.session_open(session=session, by=teacher)


def redeal(game: TableGame, **extra) -> TableGame:
    """Deal the started game again from the fixed cards (Team 1 starts)."""
    rounds = 3 if game.options.get("skip_first_round") else 4
    game.options = {**game.options, **options(rounds), **extra}
    game.state = three_laws.new_game(game.seats, seed=game.seed, **game.options).to_dict()
    game.save(update_fields=["options", "state"])
    game.moves.all().delete()
    return game


def start_table(session, teacher, students, device_client, *, teams: int = 5) -> LiveTable:
    from games import services

    table, made = seat_teams(session, students, teams=teams)
    devices = [device_client(session, students[i]) for i in range(teams)]
    services.session_start_tables(session=session, by=teacher)
    game = redeal(TableGame.objects.get(table=table))
    return LiveTable(session=session, table=table, teams=made, game=game, devices=devices)


def facilitate(client: Client, game: TableGame, action: dict, *, move_id: str, **extra):
    """The teacher's move as the facilitator, on the table's current version."""
    import json

    game.refresh_from_db()
    data = {"action": json.dumps(action), "version": game.version, "client_move_id": move_id}
    return client.post(
        reverse("games:facilitate", args=[game.pk]),
        {**data, **extra},
        headers={"HX-Request": "true"},
    )


def own_card_shown(html: str, seat: str) -> bool:
    """Does the page draw `seat`'s faction card face up (faction word and rank on one card)?"""
    faction, rank = DEAL[seat]
    label = faction.capitalize()
    pattern = rf'tl-faction">{label}</span><span class="tl-rank">{rank}<'
    return re.search(pattern, html) is not None


def seat_tile(html: str, seat: str) -> str:
    """The HTML of `seat`'s tile in the robots grid."""
    match = re.search(rf'<li class="tl-seat[^"]*" data-seat="{seat}">(.*?)</li>', html, re.S)
    assert match, f"no tile for {seat}"
    return match.group(1)


def submit(game: TableGame, seat: str, action: dict, *, teacher=None) -> None:
    """A move through the real service on the current version (set-up steps in tests)."""
    from secrets import token_hex

    from games import services

    game.refresh_from_db()
    services.move_submit(
        game_id=game.pk,
        seat=seat,
        action=action,
        expected_version=game.version,
        client_move_id=token_hex(8),
        by_teacher=teacher if seat == three_laws.FACILITATOR else None,
    )
    game.refresh_from_db()


def advance(game: TableGame, teacher, times: int = 1) -> None:
    for _ in range(times):
        submit(game, three_laws.FACILITATOR, {"type": "advance"}, teacher=teacher)


def to_transfer(game: TableGame, teacher) -> None:
    """From setup: wake up, start questions, and every seat asks the next one."""
    advance(game, teacher, 2)
    order = list(game.state["seats"])
    for i, seat in enumerate(order):
        submit(game, seat, {"type": "query", "target": order[(i + 1) % len(order)]})


def finish_round(game: TableGame, teacher) -> None:
    """From setup to Reveal: questions, every seat keeps its keys, the cards revealed."""
    to_transfer(game, teacher)
    for seat in game.state["seats"]:
        submit(game, seat, {"type": "keep"})
    advance(game, teacher)
