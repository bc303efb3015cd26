"""The games tests' cast and builders, shared by every module under tests/games (and imported by
the browser tests): tables in the database started through the real services, dealt from fixed
cards so every screen is known, helpers that read a device's screen and post its moves, and a
Bot-Builders table already played to the end for the teach-back tests.

Sections: dealing fixed cards, Bot-Builders live tables, 3 Laws live tables, finished tables
for teach-backs.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse

from classroom import services as classroom_services
from classroom.models import GameKind, Session, Student, Table, Team, TeamMembership
from games import engine_registry
from games.engines import bot_builders, three_laws
from games.models import TableGame, TableMode, TableStatus

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


def seat_tables(session: Session, classroom, tables: int, *, teams: int = 2) -> None:
    """`tables` tables of `teams` one-student teams each, numbered on across the tables."""
    students = [
        Student.objects.create(classroom=classroom, name=f"Kid {i}") for i in range(tables * teams)
    ]
    for number in range(1, tables + 1):
        seat_teams(
            session,
            students[(number - 1) * teams : number * teams],
            teams=teams,
            number=number,
            first_team_number=(number - 1) * teams + 1,
        )


@contextmanager
def dealing(kind: str, extra: Callable[[list[str], bool], dict]) -> Iterator[None]:
    """Tables started inside this block are dealt by the real service and engine with
    `extra(seats, skip_first_round)` added to the session's options (fixed cards, who starts),
    so every hand is known and no test writes a game's state itself."""
    engine = engine_registry.ENGINES[kind]

    def options_for(variant, skip_first_round, seats, birth_months):
        options = engine.options_for(variant, skip_first_round, seats, birth_months)
        return {**options, **extra(seats, skip_first_round)}

    engine_registry.ENGINES[kind] = dataclasses.replace(engine, options_for=options_for)
    try:
        yield
    finally:
        engine_registry.ENGINES[kind] = engine


def fixed_bot_builders(**options) -> Callable[[list[str], bool], dict]:
    """The fixed deck, team-1 first (and `options`), for `dealing("bot_builders", ...)`."""
    return lambda seats, skip_first_round: {
        "deck": fixed_deck(seats),
        "start_seat": seats[0],
        **options,
    }


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
    """`teams` one-student teams at table 1, started by the teacher's service from the fixed
    deck with team-1 to move first; one joined device per team."""
    from games import services

    table, made = seat_teams(session, students, teams=teams)
    devices = [device_client(session, students[i]) for i in range(teams)]
    with dealing(GameKind.BOT_BUILDERS, fixed_bot_builders(**opts)):
        services.session_start_tables(session=session, by=teacher)
    game = TableGame.objects.get(table=table)
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


# -- 3 Laws live tables ----------------------------------------------------------------------

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


def three_laws_at_questions(classroom, teacher, students) -> TableGame:
    """A five-team 3 Laws table dealt the fixed cards, woken up, at its questions: Team 1 asks
    first."""
    from games import services

    session = three_laws_session(classroom, teacher)
    table, _ = seat_teams(session, students, teams=5)
    with dealing(GameKind.THREE_LAWS, fixed_three_laws()):
        services.session_start_tables(session=session, by=teacher)
    game = TableGame.objects.get(table=table)
    advance(game, teacher, 2)
    return game


def fixed_three_laws(**extra) -> Callable[[list[str], bool], dict]:
    """The fixed cards, Team 1 first (and `extra`), for `dealing("three_laws", ...)`."""
    return lambda seats, skip_first_round: {**options(3 if skip_first_round else 4), **extra}


def start_table(session, teacher, students, device_client, *, teams: int = 5) -> LiveTable:
    from games import services

    table, made = seat_teams(session, students, teams=teams)
    devices = [device_client(session, students[i]) for i in range(teams)]
    with dealing(GameKind.THREE_LAWS, fixed_three_laws()):
        services.session_start_tables(session=session, by=teacher)
    game = TableGame.objects.get(table=table)
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


# -- finished tables for teach-backs ------------------------------------------------------------

MAX_MOVES = 2000


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """The cast's accounts are made with the production hasher (about half a second each);
    these tests never check a password, so a fast hasher keeps the permission matrix quick.
    Import it into a test module to use it there."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@dataclass
class FinishedTable:
    table: Table
    game: TableGame
    teams: list[Team]
    # The first member of each team, in team order: join as `device_client(session, student)`.
    members: list[Student]


def play_to_end(seats: list[str], seed: int) -> bot_builders.Game:
    game = bot_builders.new_game(seats, seed=seed)
    for _ in range(MAX_MOVES):
        if game.is_over:
            return game
        seat = game.current_seat
        game.apply(seat, bot_builders.suggest(game, seat))
    raise AssertionError("The robot game did not end.")


def make_table(
    session: Session,
    students: list[Student],
    *,
    teams: int = 2,
    per_team: int = 2,
    number: int = 1,
    seed: int = 7,
    over: bool = True,
    first_team_number: int = 1,
) -> FinishedTable:
    """A table of `teams` teams (students taken in order), its game played to the end with
    `over=True`, or left as dealt with `over=False`."""
    table = Table.objects.create(session=session, number=number)
    made, members = [], []
    for i in range(teams):
        team = Team.objects.create(
            session=session,
            number=first_team_number + i,
            name=f"Team {first_team_number + i}",
            table=table,
            seat_position=i,
        )
        for student in students[i * per_team : (i + 1) * per_team]:
            TeamMembership.objects.create(session=session, team=team, student=student)
        made.append(team)
        members.append(students[i * per_team])
    seats = [team.seat for team in made]
    engine = play_to_end(seats, seed) if over else bot_builders.new_game(seats, seed=seed)
    game = TableGame.objects.create(
        table=table,
        session=session,
        kind="bot_builders",
        mode=TableMode.LIVE,
        seed=seed,
        seats=seats,
        state=engine.to_dict(),
        status=TableStatus.OVER if over else TableStatus.PLAYING,
        results=engine.results() if over else None,
    )
    return FinishedTable(table=table, game=game, teams=made, members=members)


# A bench with one empty slot, which the teach-back tests describe: Camera, no Think part, Drive
# wheels, Solar panel, and the Rescue rover Mission.
SAMPLE_BENCH: dict[str, str | None] = {
    "sense": "camera",
    "think": None,
    "act": "drive_wheels",
    "power": "solar_panel",
    "mission": "rescue_rover",
}


def finished_with_sample_bench(session, students, *, teams: int) -> FinishedTable:
    """A finished table whose first team has `SAMPLE_BENCH`."""
    finished = make_table(session, students, teams=teams)
    set_bench(finished, finished.teams[0], SAMPLE_BENCH)
    return finished


def set_bench(finished: FinishedTable, team: Team, bench: dict[str, str | None]) -> None:
    """Give a team a known final bench (see place_bench)."""
    place_bench(finished.game, team.seat, bench)


def place_bench(game: TableGame, seat: str, bench: dict[str, str | None]) -> None:
    """Give a seat a known bench, keeping the stored state valid (each of the 48 cards in
    exactly one place): the wanted cards are taken from wherever they are, and the cards they
    replace go to the discard pile."""
    state = game.state
    old = state["benches"][seat]
    for slot in bot_builders.SLOTS:
        if old.get(slot) and old[slot] != bench.get(slot):
            state["discard"].append(old[slot])
            old[slot] = None
    for slot in bot_builders.SLOTS:
        wanted = bench.get(slot)
        if wanted is None or old.get(slot) == wanted:
            continue
        for pile in (state["draw_pile"], state["discard"], *state["hands"].values()):
            if wanted in pile:
                pile.remove(wanted)
        for other in state["benches"].values():
            if other.get(slot) == wanted:
                other[slot] = None
        old[slot] = wanted
    bot_builders.Game.from_dict(state)  # still a valid game
    game.state = state
    game.save(update_fields=["state"])


GOOD_SENTENCE = {
    "senses_with": "a camera that sees people",
    "thinks_with": "an if/then board",
    "acts_with": "drive wheels",
    "powered_by": "a battery pack",
    "because": "it finds people after a storm and brings them supplies",
}
