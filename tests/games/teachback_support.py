"""Builders for teach-back tests: a finished Bot-Builders table in the database, played to the
end by the engine's robot player (`suggest`), with teams whose members can join as devices."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from classroom.models import Session, Student, Table, Team, TeamMembership
from games.engines import bot_builders
from games.models import TableGame, TableMode, TableStatus

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


def set_bench(finished: FinishedTable, team: Team, bench: dict[str, str | None]) -> None:
    """Give a team a known final bench, keeping the stored state valid (each of the 48 cards in
    exactly one place): the wanted cards are taken from wherever they are, and the cards they
    replace go to the discard pile."""
    state = finished.game.state
    old = state["benches"][team.seat]
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
    finished.game.state = state
    finished.game.save(update_fields=["state"])


GOOD_SENTENCE = {
    "senses_with": "a camera that sees people",
    "thinks_with": "an if/then board",
    "acts_with": "drive wheels",
    "powered_by": "a battery pack",
    "because": "it finds people after a storm and brings them supplies",
}
