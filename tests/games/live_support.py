"""Builders for live-play tests: a session with teams at tables, started through the real
service, then re-dealt from a fixed deck so every hand is known."""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.test import Client
from django.urls import reverse

from classroom.models import Session, Student, Table, Team, TeamMembership
from games.engines import bot_builders
from games.models import TableGame

# Top first: 4 cards to each seat in seat order, then the discard top, then the draw pile.
HANDS = {
    "team-1": ["camera", "if_then_board", "drive_wheels", "battery_pack"],
    "team-2": ["flat_tire", "microphone", "loop_chip", "speaker"],
    "team-3": ["touch_sensor", "microcontroller", "gripper_claw", "solar_panel"],
}
DISCARD_TOP = "light_sensor"
PILE_TOP = ["rescue_rover", "maze_runner", "garden_helper", "library_sorter"]


def fixed_deck(seats: list[str]) -> list[str]:
    """The 48 ids with HANDS dealt to `seats` (the first len(seats) of team-1..3), then
    DISCARD_TOP, then PILE_TOP, then every other card in spec order."""
    order: list[str] = []
    for seat in seats:
        order += HANDS[seat]
    order += [DISCARD_TOP, *PILE_TOP]
    order += [card for card in bot_builders.DECK_IDS if card not in order]
    return order


def seat_teams(
    session: Session,
    students: list[Student],
    *,
    teams: int = 3,
    per_team: int = 1,
    number: int = 1,
    first_team_number: int = 1,
) -> tuple[Table, list[Team]]:
    """A table with `teams` teams of `per_team` students each (students taken in order)."""
    table = Table.objects.create(session=session, number=number)
    made = []
    for i in range(teams):
        n = first_team_number + i
        team = Team.objects.create(
            session=session, number=n, name=f"Team {n}", table=table, seat_position=i
        )
        for student in students[i * per_team : (i + 1) * per_team]:
            TeamMembership.objects.create(session=session, team=team, student=student)
        made.append(team)
    return table, made


def redeal(game: TableGame, **options) -> TableGame:
    """Deal the started game again from a fixed deck (and team-1 first), as a teacher may."""
    options = {"deck": fixed_deck(game.seats), "start_seat": game.seats[0], **options}
    game.options = options
    game.state = bot_builders.new_game(game.seats, seed=game.seed, **options).to_dict()
    game.save(update_fields=["options", "state"])
    # Robots that moved first in the random deal: their moves belong to that deal, not this one.
    game.moves.all().delete()
    return game


@dataclass
class Screen:
    """What a device's page offered: the buttons' actions, the version and the move id."""

    actions: list[dict]
    version: int
    client_move_id: str


def read_screen(html: str) -> Screen:
    """The hidden inputs of every move form on a device page."""
    import re

    actions = [
        json.loads(value.replace("&quot;", '"'))
        for value in re.findall(r'name="action" value="([^"]*)"', html)
    ]
    versions = set(re.findall(r'name="version" value="(\d+)"', html))
    ids = set(re.findall(r'name="client_move_id" value="([^"]+)"', html))
    assert len(versions) <= 1 and len(ids) <= 1, "one version and one move id per screen"
    return Screen(
        actions=actions,
        version=int(versions.pop()) if versions else -1,
        client_move_id=ids.pop() if ids else "",
    )


def post_move(
    client: Client, game: TableGame, action: dict, *, version: int, move_id: str, htmx: bool = True
):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(
        reverse("games:move", args=[game.pk]),
        {"action": json.dumps(action), "version": version, "client_move_id": move_id},
        headers=headers,
    )


@dataclass
class LiveTable:
    session: Session
    table: Table
    teams: list[Team]
    game: TableGame
    devices: list[Client]


def start_live_table(
    session: Session, teacher, students: list[Student], device_client, *, teams: int = 3, **opts
) -> LiveTable:
    """`teams` one-student teams at table 1, started by the teacher's service, re-dealt from
    the fixed deck with team-1 to move first; one joined device per team."""
    from games import services

    table, made = seat_teams(session, students, teams=teams)
    devices = [device_client(session, students[i]) for i in range(teams)]
    services.session_start_tables(session=session, by=teacher)
    game = redeal(TableGame.objects.get(table=table), **opts)
    return LiveTable(session=session, table=table, teams=made, game=game, devices=devices)


def edit_state(game: TableGame, change) -> TableGame:
    """Change the stored engine state with `change(engine_game)`, keeping it a valid game (the
    engine's from_dict checks every card is in one place). Test set-up only."""
    state = bot_builders.Game.from_dict(game.state)
    change(state)
    game.state = bot_builders.Game.from_dict(state.to_dict()).to_dict()
    game.save(update_fields=["state"])
    return game


def take(state: bot_builders.Game, card_id: str) -> None:
    """Take a card out of wherever it is (pile, discard, a hand), to be placed by the caller."""
    for pile in (state.draw_pile, state.discard, *state.hands.values()):
        if card_id in pile:
            pile.remove(card_id)
            return
    raise AssertionError(f"{card_id} is not in a pile or a hand")


def give_full_bot_but_mission(state: bot_builders.Game, seat: str = "team-1") -> None:
    """`seat`'s four parts installed from its hand and Rescue rover in its hand."""
    for card_id in HANDS[seat]:
        take(state, card_id)
        state.benches[seat][bot_builders.CARDS[card_id].slot] = card_id
    take(state, "rescue_rover")
    state.hands[seat] = ["rescue_rover"]
    # The four parts left the hand: deal three more so the hand is not thin.
    for card_id in ("ultrasonic_sensor", "timer_chip", "robot_arm"):
        take(state, card_id)
        state.hands[seat].append(card_id)


# Who asks, in the live-play permission matrices (a device of this table, of another table of
# the same session, of another session).
LIVE_ROLES = [
    "anonymous",
    "other_teacher",
    "colleague",
    "teacher",
    "admin",
    "device_here",
    "device_other_table",
    "device_other_session",
]
