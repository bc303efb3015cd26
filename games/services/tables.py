"""Starting the tables of a session: one TableGame per classroom Table, dealt from a fresh seed."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from classroom import services as classroom_services
from classroom.models import Session, SessionStatus, Table, Team, User, Variant
from classroom.services.sessions import require_session_teacher
from games import live
from games.engine_registry import get_engine
from games.models import TableGame, TableMode
from games.services.errors import ServiceError, refusal_text
from games.services.moves import play_robots
from games.services.state import save_changed

# A practice table: the one human team against robots up to this many seats.
PRACTICE_SEATS = 3


def session_start_tables(*, session: Session, by: User) -> list[TableGame]:
    """Deal a game at every table that has teams, then mark the session playing.

    Starting again changes nothing for a table already dealt (a repeated click), and deals a
    table added since. Robot seats whose turn comes first play at once.
    """
    return _start(session, by, table_id=None)


def table_start(*, table: Table, by: User) -> TableGame:
    """Deal the game of one table only (idempotent like the session's start)."""
    return _start(table.session, by, table_id=table.pk)[0]


def _start(session: Session, by: User, table_id: int | None) -> list[TableGame]:
    require_session_teacher(session, by, gettext_noop("start the tables"))
    with transaction.atomic():
        # The session row lock queues concurrent starts: the second finds the games made.
        locked = Session.objects.select_for_update().select_related("classroom").get(pk=session.pk)
        if locked.status == SessionStatus.CLOSED:
            raise ServiceError(_("This session is closed."))
        if locked.status == SessionStatus.DRAFT:
            raise ServiceError(_("Open the session first, so the teams' devices can join."))
        tables = locked.tables.order_by("number")
        if table_id is not None:
            tables = tables.filter(pk=table_id)
        games = [game for table in tables if (game := _start_table(locked, table, by)) is not None]
        if not games:
            raise ServiceError(_("No table has teams yet: make the teams and tables first."))
        classroom_services.session_mark_playing(session=locked, by=by)
        session_id = locked.pk
        transaction.on_commit(lambda: live.bump_session(session_id), robust=True)
    return games


def _seated(table: Table) -> list[Team]:
    return list(table.teams.order_by("seat_position", "number").prefetch_related("members"))


def youngest_months(teams: list[Team]) -> dict[str, str]:
    """Each team's youngest member's birth month, for teams whose every member has one."""
    months = {}
    for team in teams:
        known = [student.birth_month for student in team.members.all()]
        if known and all(known):
            months[team.seat] = max(known)  # "YYYY-MM" sorts like dates: the latest is youngest
    return months


def _start_table(session: Session, table: Table, by: User) -> TableGame | None:
    existing = TableGame.objects.filter(table=table).first()
    if existing is not None:
        return existing
    teams = _seated(table)
    if not teams:
        return None
    if session.variant == Variant.PRACTICE:
        for _ in range(PRACTICE_SEATS - len(teams)):
            classroom_services.team_add_robot(session=session, by=by, table=table)
        teams = _seated(table)
    seats = [team.seat for team in teams]
    mode = TableMode.TABLETOP if session.variant == Variant.TABLETOP else TableMode.LIVE
    engine = get_engine(session.game, mode)
    seed = secrets.randbits(63)
    try:
        options = engine.options_for(
            session.variant, session.skip_first_round, seats, youngest_months(teams)
        )
        state = engine.new_game(seats, seed, options)
    except ValueError as exc:
        raise ServiceError(f"{table}: {refusal_text(exc)}") from None
    game = TableGame.objects.create(
        table=table,
        session=session,
        kind=session.game,
        mode=mode,
        seed=seed,
        options=options,
        seats=seats,
        state=state.to_dict(),
    )
    robots = {team.seat for team in teams if team.is_robot}
    if play_robots(game, engine, state, first_seq=1, seats=robots):
        save_changed(game, state)
    return game


def table_add_robot(*, table: Table, by: User) -> Team:
    """Fill an empty seat of a table not dealt yet with a robot team (the classroom's robot
    seat). A dealt game keeps its seats: an absent team's turns are played with the robot."""
    require_session_teacher(table.session, by, gettext_noop("add a robot seat"))
    with transaction.atomic():
        # The row lock queues this behind a concurrent start of the same table.
        Table.objects.select_for_update().get(pk=table.pk)
        if TableGame.objects.filter(table=table).exists():
            raise ServiceError(
                f"{table} has started: its seats are dealt. For an absent team, use "
                "“Play this turn with the robot”."
            )
        return classroom_services.team_add_robot(session=table.session, by=by, table=table)
