"""Every write to a table game goes through a function here (keyword-only, one transaction,
the TableGame row locked). Nothing in this package knows the rules of a particular game: it
talks to engines through `games.engine_registry`. `from games import services`."""

from games.services.control import (
    game_end_now,
    game_pause,
    game_resume,
    game_robot_turn,
    game_undo,
)
from games.services.errors import MoveRefused, ServiceError
from games.services.moves import MoveOutcome, move_submit
from games.services.tables import session_start_tables, table_add_robot, table_start
from games.services.tabletop import bench_record

__all__ = [
    "MoveOutcome",
    "MoveRefused",
    "ServiceError",
    "bench_record",
    "game_end_now",
    "game_pause",
    "game_resume",
    "game_robot_turn",
    "game_undo",
    "move_submit",
    "session_start_tables",
    "table_add_robot",
    "table_start",
]
