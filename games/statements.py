"""The games app's written-out statements: the few checks and reads so frequent that the ORM's
time to build them mattered beside the database's to answer (each says where beside it).

Each asks a rule stated in `games.access` or `classroom.access`, built from the same pieces as
the ORM's form there (`Session.JOINABLE_STATUSES`, `classroom.access.VISIBLE_CLASS_WHERE`), and
a test holds each to the ORM's answer over every case it can tell apart: SEATED and
SEAT_VERSION in tests/games/live/test_seat_version.py, SESSION_VERSIONS in
tests/games/live/test_session_versions.py, LOCK and FACTS in
tests/games/live/test_move_statements.py. `classroom.sql` runs them and makes the model
instances of their rows.
"""

from __future__ import annotations

from django.db import connection

from classroom.access import VISIBLE_CLASS_WHERE
from classroom.models import (
    Classroom,
    DeviceBinding,
    Session,
    Student,
    Table,
    Team,
    TeamMembership,
)
from classroom.sql import columns
from games.models import Move, TableGame

# --- A device's seat: games.access.get_game_for_device's rule ---------------------------------

# Who plays a seat at a game: the cookie's binding, live, in a joinable session
# (classroom.devices.current_binding, Session.is_joinable), and the student's team in that
# session (one a student a session: a constraint) seated at the table holding the game. The
# membership's session is implied by the team's and kept as a second guard. Whether the team's
# seat is among the game's seats is read from the row (a JSON list) by the caller.
#
# The three session checks say IS NOT DISTINCT FROM, which for these NOT NULL columns is "=":
# written as equalities, they joined every table to every other through the session id, and
# PostgreSQL took 10-11 ms to plan what it ran in 0.2 ms (2.2-2.4 ms as checks:
# benchmarks/bench_statements.py). A statement is planned every time until its connection has
# prepared it and PostgreSQL has settled on a plan (11 runs on each pooled connection) and
# every time behind PgBouncer, and this is each move's and each stream open's check.
_SEAT_JOINS = f"""
    FROM {DeviceBinding._meta.db_table} b
    JOIN {Session._meta.db_table} s ON s.id = b.session_id
    JOIN {TeamMembership._meta.db_table} m
        ON m.student_id = b.student_id AND m.session_id IS NOT DISTINCT FROM b.session_id
    JOIN {Team._meta.db_table} t
        ON t.id = m.team_id AND t.session_id IS NOT DISTINCT FROM b.session_id
    JOIN {TableGame._meta.db_table} g
        ON g.table_id = t.table_id AND g.session_id IS NOT DISTINCT FROM b.session_id
"""
_JOINABLE = ", ".join(["%s"] * len(Session.JOINABLE_STATUSES))
_SEAT_RULE = f"""b.token = %s AND b.revoked_at IS NULL
        AND s.status IN ({_JOINABLE}) AND s.room_code IS NOT NULL AND s.room_code <> ''
        AND g.id = %s"""


def seat_params(token: str, game_id: int) -> list:
    """The parameters of SEATED, and the first of SEAT_VERSION's."""
    return [token, *Session.JOINABLE_STATUSES, game_id]


# get_game_for_device's allowed case, with every row the device's screens read (the binding's
# student and the team's table too): every move of a team device and each redraw its poll does
# not find drawn asks it, and the ORM's three queries (binding, game, team) took longer to build
# than the database to answer them.
SEATED_PARTS = (
    (DeviceBinding, "b"),
    (Session, "s"),
    (Student, "st"),
    (Team, "t"),
    (Table, "tb"),
    (TableGame, "g"),
)
SEATED = f"""
    SELECT {", ".join(columns(model, alias) for model, alias in SEATED_PARTS)}
    {_SEAT_JOINS}
    JOIN {Student._meta.db_table} st ON st.id = b.student_id
    JOIN {Table._meta.db_table} tb ON tb.id = t.table_id
    WHERE {_SEAT_RULE}
"""

# The same rule for the device and table a poll's signed watch names, with the watch's binding
# (parameters: seat_params, then the binding's id), reading only what keys a cached drawing: a
# device's redraw found drawn is little more than this check, so it builds no rows; the ORM's
# form of it, built each time, slowed that redraw by more than the goal allows.
SEAT_VERSION = f"""
    SELECT t.id, t.number, g.seats, g.version, g.status
    {_SEAT_JOINS}
    WHERE {_SEAT_RULE} AND b.id = %s
"""

# --- A session's viewer: classroom.access.get_session_for_viewer's rule ------------------------

# The session with its class, and its games' versions, if the viewer may read it (parameters:
# the session's id, then classroom.access.visible_class_params), one row a game (one row of no
# game before the tables start): what a projector grid's drawing is keyed by, and what the
# teacher's dashboard is redrawn from. Every move of every table makes each grid and dashboard of
# the class redraw, and building the ORM's queries for it cost those redraws more than the
# database took to answer them (measured: docs/architecture.md, "What keeps a redraw
# cheap").
SESSION_VERSIONS_PARTS = ((Session, "s"), (Classroom, "c"))
SESSION_VERSIONS = f"""
    SELECT {", ".join(columns(model, alias) for model, alias in SESSION_VERSIONS_PARTS)},
        g.id, g.version
    FROM {Session._meta.db_table} s
    JOIN {Classroom._meta.db_table} c ON c.id = s.classroom_id
    LEFT JOIN {TableGame._meta.db_table} g ON g.session_id = s.id
    WHERE s.id = %s AND {VISIBLE_CLASS_WHERE}
"""

# --- A move's lock: games.services.state.lock_game -------------------------------------------

# The game's row with its session and class, locked on the game's row alone, as
# `select_for_update(of=("self",))` locks it; SQLite has no row locks, and its transactions take
# the database's write lock as they begin (config.settings). Every move of every table takes it,
# and the ORM's form of it cost a move several times this statement's time.
LOCK_PARTS = ((TableGame, "g"), (Session, "s"), (Classroom, "c"))
LOCK = f"""
    SELECT {", ".join(columns(model, alias) for model, alias in LOCK_PARTS)}
    FROM {TableGame._meta.db_table} g
    JOIN {Session._meta.db_table} s ON s.id = g.session_id
    JOIN {Classroom._meta.db_table} c ON c.id = s.classroom_id
    WHERE g.id = %s
    {"FOR UPDATE OF g" if connection.features.has_select_for_update_of else ""}
"""

# --- What a move needs of its locked table: games.services.state.move_facts ---------------------

# The move this client move id made already, the table's last sequence number, and a row for
# each robot team of the table (one with a NULL number when there is none): every move of every
# table asks them, and the ORM's three reads cost a move more than the lock and this statement
# together. Run after the lock, never within its statement: a statement that waited for the
# lock keeps the snapshot it began with, which misses the moves of the transaction it waited
# for. Parameters: the game's id, the client move id, the game's id, the game's table's id.
FACTS = f"""
    SELECT t.number,
        (SELECT m.id FROM {Move._meta.db_table} m WHERE m.game_id = %s AND m.client_move_id = %s),
        (SELECT MAX(m.seq) FROM {Move._meta.db_table} m WHERE m.game_id = %s)
    FROM (SELECT 1 AS one) AS one
    LEFT JOIN {Team._meta.db_table} t ON t.table_id = %s AND t.is_robot
"""
