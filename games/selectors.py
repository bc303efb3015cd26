"""Reads for the live-play pages: what a screen shows of a table, never more.

Templates never receive a TableGame (its `state` holds every hand): they get a `TableInfo`
and the engine's `view(seat)` (or `view(None)` for the projector and the teacher).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, F, OuterRef, Prefetch, Window, prefetch_related_objects
from django.db.models.functions import RowNumber

from classroom import sql as rows
from classroom.models import Session, Table, Team
from games.engine_registry import engine_for
from games.models import Move, TableGame, TableMode, TableStatus
from games.services.state import live_moves, replay
from games.table_cache import (
    MOVE_FIELDS,
    RECENT_MOVES,
    ShownMove,
    through_cache,
    version_key,
)


@dataclass(frozen=True)
class TableInfo:
    """The facts about a table game a page may show: no state, no seed."""

    pk: int
    number: int
    kind: str
    mode: str
    status: str
    status_label: str
    version: int
    seats: tuple[str, ...]
    names: dict[str, str]
    robots: frozenset[str]
    last_move_at: datetime | None
    results: list[dict] | None

    @property
    def is_over(self) -> bool:
        return self.status == TableStatus.OVER

    @property
    def is_paused(self) -> bool:
        return self.status == TableStatus.PAUSED

    @property
    def is_tabletop(self) -> bool:
        return self.mode == TableMode.TABLETOP

    @property
    def team_names(self) -> list[str]:
        return [self.name(seat) for seat in self.seats]

    def name(self, seat: str | None) -> str:
        return self.names.get(seat or "", seat or "")


def _version_key(game: TableGame, what: str) -> str:
    return version_key(game.pk, game.version, what)


def _per_version(game: TableGame, what: str, read: Callable[[], Any]) -> Any:
    key = _version_key(game, what)
    return through_cache([key], lambda _missing: {key: read()})[key]


def _many_per_version(games: list[TableGame], what: str, read: Callable) -> dict[int, Any]:
    """`_per_version` for many tables: `read(missing_games)` (a dict by game) reads the tables
    whose version no screen has read yet, all at once."""
    keys = {game.pk: _version_key(game, what) for game in games}
    game_of = {keys[game.pk]: game for game in games}

    def read_missing(missing: list[str]) -> dict[str, Any]:
        read_by_game = read([game_of[key] for key in missing])
        return {key: read_by_game[game_of[key].pk] for key in missing}

    found = through_cache(list(keys.values()), read_missing)
    return {game.pk: found[keys[game.pk]] for game in games}


def _teams_per_version(games: list[TableGame]) -> dict[int, list[Team]]:
    """Each game's teams (see table_info), for many tables."""

    def read(missing: list[TableGame]) -> dict[int, list[Team]]:
        teams = teams_by_table([game.table_id for game in missing])
        return {game.pk: teams.get(game.table_id, []) for game in missing}

    return _many_per_version(games, "teams", read)


def teams_by_table(table_ids: list[int]) -> dict[int, list[Team]]:
    teams: dict[int, list[Team]] = {}
    found = Team.objects.filter(table_id__in=table_ids).only(
        "table_id", "number", "name", "is_robot", "seat_position"
    )
    for team in found.order_by("seat_position", "number"):
        teams.setdefault(team.table_id, []).append(team)
    return teams


def table_info(game: TableGame, teams: list[Team] | None = None) -> TableInfo:
    if teams is None:
        # The teams in a dealt game's seats keep their names, numbers and robot flags for the
        # game's life (classroom.services.teams changes seats only before the tables start).
        teams = _teams_per_version([game])[game.pk]
    return TableInfo(
        pk=game.pk,
        number=game.table.number,
        kind=game.kind,
        mode=game.mode,
        status=game.status,
        status_label=game.get_status_display(),
        version=game.version,
        seats=tuple(game.seats),
        names={team.seat: team.name for team in teams},
        robots=frozenset(team.seat for team in teams if team.is_robot),
        last_move_at=game.last_move_at,
        results=game.results,
    )


# The session's tables, each with its game once dealt, written out (see classroom.sql): the
# projector grid and the teacher's dashboard read them again after every move of the session,
# and the ORM took longer to build the queries than the database to answer them.
_TABLES_PARTS = ((Table, "t"), (TableGame, "g"))
_SESSION_TABLES = f"""
    SELECT {rows.columns(Table, "t")}, {rows.columns(TableGame, "g")}
    FROM {Table._meta.db_table} t
    LEFT JOIN {TableGame._meta.db_table} g ON g.table_id = t.id AND g.session_id = t.session_id
    WHERE t.session_id = %s
    ORDER BY t.number, t.id
"""


def _dealt_and_waiting(session: Session) -> tuple[list[TableGame], list[Table]]:
    """The session's games (their tables and session filled in, as `select_related` would) and
    its tables with no game dealt yet, each in table-number order."""
    dealt: list[TableGame] = []
    waiting: list[Table] = []
    for row in rows.all_rows(_SESSION_TABLES, [session.pk]):
        table, game = rows.build_joined(row, *_TABLES_PARTS)
        table.session = session
        if game is None:
            waiting.append(table)
            continue
        game.table, game.session = table, session
        TableGame._meta.get_field("table").remote_field.set_cached_value(table, game)
        dealt.append(game)
    return dealt, waiting


def session_games(session: Session) -> list[TableGame]:
    return _dealt_and_waiting(session)[0]


def _with_info(games: list[TableGame]) -> list[tuple[TableGame, TableInfo]]:
    teams = _teams_per_version(games)
    return [(game, table_info(game, teams[game.pk])) for game in games]


def session_tables(session: Session) -> list[tuple[TableGame, TableInfo]]:
    """Every game of the session with its info: one query, and a second only for the tables
    that changed since any screen last drew them."""
    return _with_info(session_games(session))


def session_tables_and_waiting(
    session: Session,
) -> tuple[list[tuple[TableGame, TableInfo]], list[Table]]:
    """`session_tables`, and the tables with no game dealt yet with their teams (a query more
    only when there are some), from the same read of the tables."""
    games, waiting = _dealt_and_waiting(session)
    prefetch_related_objects(
        waiting, Prefetch("teams", queryset=Team.objects.order_by("seat_position", "number"))
    )
    return _with_info(games), waiting


def seat_screen(game: TableGame, seat: str | None) -> tuple[dict, list[dict]]:
    """What `seat` may see (None: the public view) and the actions it may take now, from one
    load of the state."""
    state = engine_for(game).load(game.state)
    playing = game.status == TableStatus.PLAYING and seat is not None
    return state.view(seat), state.legal_actions(seat) if playing else []


def seat_view(game: TableGame, seat: str | None) -> dict:
    return seat_screen(game, seat)[0]


def legal_actions(game: TableGame, seat: str) -> list[dict]:
    return seat_screen(game, seat)[1]


def _newest_moves(game: TableGame, count: int) -> list[ShownMove]:
    found = live_moves(game).only(*MOVE_FIELDS).order_by("-seq")[:count]
    return [ShownMove.of(move) for move in found]


def recent_moves(game: TableGame, limit: int = RECENT_MOVES) -> list[ShownMove]:
    """The last live moves, newest first (their events are public by the engines' contract)."""
    if limit > RECENT_MOVES:
        return _newest_moves(game, limit)
    return _per_version(game, "moves", lambda: _newest_moves(game, RECENT_MOVES))[:limit]


def table_info_and_moves(game: TableGame) -> tuple[TableInfo, list[ShownMove]]:
    """`table_info(game)` and `recent_moves(game)` from one cache round trip: a device's redraw
    needs both, and there are several such redraws of each version."""
    readers = {
        _version_key(game, "teams"): lambda: teams_by_table([game.table_id]).get(game.table_id, []),
        _version_key(game, "moves"): lambda: _newest_moves(game, RECENT_MOVES),
    }
    found = through_cache(list(readers), lambda missing: {key: readers[key]() for key in missing})
    teams, moves = (found[key] for key in readers)
    return table_info(game, teams), moves


def recent_moves_of(games: list[TableGame]) -> dict[int, list[ShownMove]]:
    """`recent_moves` of many tables (the projector grid draws each table that moved): shared
    with the devices' drawings of the same versions, and one query for the rest."""
    return _many_per_version(
        games, "moves", lambda missing: _recent_moves_by_game(missing, RECENT_MOVES)
    )


def _recent_moves_by_game(games: list[TableGame], limit: int) -> dict[int, list[ShownMove]]:
    newest_first = Window(RowNumber(), partition_by=[F("game_id")], order_by=F("seq").desc())
    found = (
        Move.objects.filter(game__in=games, undone_at__isnull=True)
        .only("game_id", *MOVE_FIELDS)
        .annotate(recency=newest_first)
        .filter(recency__lte=limit)
        .order_by("game_id", "-seq")
    )
    moves: dict[int, list[ShownMove]] = {game.pk: [] for game in games}
    for move in found:
        moves[move.game_id].append(ShownMove.of(move))
    return moves


def current_seat(game: TableGame) -> str | None:
    if game.status == TableStatus.OVER:
        return None
    return engine_for(game).load(game.state).current_seat


def recorded_seats(game: TableGame) -> list[str]:
    """The seats of a tabletop table that have recorded a bench."""
    return engine_for(game).load(game.state).recorded_seats()


def replay_view(game: TableGame, step: int) -> tuple[dict, int, list[Move]]:
    """The public view after the first `step` live moves, the number of live moves, and the
    moves up to `step` (for narrating the last one). Rebuilt from the seed, never the cache."""
    moves = list(live_moves(game))
    step = max(0, min(step, len(moves)))
    state: Any = replay(game, moves[:step])
    return state.view(None), len(moves), moves[:step]


def has_moves() -> Exists:
    """Annotation for TableGame querysets: True when the game has a move that was not undone."""
    return Exists(Move.objects.filter(game=OuterRef("pk"), undone_at__isnull=True))


def was_played(*, moved: bool, results: list[dict] | None) -> bool:
    """False for a table ended ("End round now") before any move: its all-zero standings are
    not a result (everybody tied first with 0 points). `moved` is the `has_moves()`
    annotation; a game stored without its move log (the demo's robot-played sessions) counts
    as played when a team scored."""
    return moved or any(row.get("score") or row.get("vp") for row in results or [])
