"""The teacher's controls over one table: pause, resume, play an absent team's turn with the
robot, undo the last move, end the round now. Each takes the version the teacher's screen
showed, so a double click or a stale dashboard never acts twice."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from classroom.models import User
from classroom.services.sessions import require_session_teacher
from games.engine_registry import engine_for
from games.models import Move, TableGame, TableMode, TableStatus
from games.services.errors import MoveRefused, ServiceError
from games.services.moves import ensure_playable, ensure_version, play_robots
from games.services.state import live_moves, lock_game, next_seq, replay, save_changed


def _locked_for_teacher(game_id: int, by: User, expected_version: int, doing: str) -> TableGame:
    game = lock_game(game_id)
    require_session_teacher(game.session, by, doing)
    ensure_version(game, expected_version)
    return game


def game_pause(*, game_id: int, by: User, expected_version: int) -> TableGame:
    with transaction.atomic():
        game = _locked_for_teacher(game_id, by, expected_version, gettext_noop("pause this table"))
        if game.status == TableStatus.OVER:
            raise MoveRefused(_("This game is over."), reason=MoveRefused.OVER)
        if game.status != TableStatus.PAUSED:
            game.status = TableStatus.PAUSED
            game.save(update_fields=["status"])
            save_changed(game, moved=False)
    return game


def game_resume(*, game_id: int, by: User, expected_version: int) -> TableGame:
    with transaction.atomic():
        game = _locked_for_teacher(game_id, by, expected_version, gettext_noop("resume this table"))
        if game.status == TableStatus.PAUSED:
            game.status = TableStatus.PLAYING
            game.save(update_fields=["status"])
            save_changed(game, moved=False)
    return game


def game_robot_turn(*, game_id: int, by: User, expected_version: int) -> list[Move]:
    """The robot player takes the whole turn of the team whose turn it is (an absent team);
    robot seats that follow then play as usual."""
    with transaction.atomic():
        game = _locked_for_teacher(game_id, by, expected_version, gettext_noop("play a turn"))
        ensure_playable(game)
        if game.mode != TableMode.LIVE:
            raise ServiceError(_("Tabletop games are played with printed cards."))
        engine = engine_for(game)
        state = engine.load(game.state)
        seat = state.current_seat
        if seat is None:
            raise ServiceError(_("No team is to move now: there is no turn to play."))
        seq = next_seq(game)
        moves = play_robots(game, engine, state, first_seq=seq, seats={seat}, by_teacher=by)
        moves += play_robots(game, engine, state, first_seq=seq + len(moves))
        save_changed(game, state)
    return moves


def _is_teacher_move(move: Move) -> bool:
    """A move a person asked for: a device's, or a turn the teacher had the robot play."""
    return not move.by_robot or move.by_teacher_id is not None


def game_undo(*, game_id: int, by: User, expected_version: int) -> list[Move]:
    """Take back the last move a person made, with the robot moves that answered it.

    Rows stay (marked undone) and the state is rebuilt from the seed and the moves still live.
    A round the teacher ended early is first reopened as it stood, without taking back a move.
    Returns the moves undone.
    """
    with transaction.atomic():
        game = _locked_for_teacher(game_id, by, expected_version, gettext_noop("undo a move"))
        moves = list(live_moves(game))
        engine = engine_for(game)
        # A tabletop game is never over by itself: only ever ended by the teacher.
        if game.status == TableStatus.OVER and not engine.load(game.state).is_over:
            _reopen(game)
            save_changed(game, moved=False)
            return []
        cut = len(moves)
        while cut > 0 and not _is_teacher_move(moves[cut - 1]):
            cut -= 1
        if cut == 0:
            if game.mode == TableMode.TABLETOP:
                raise ServiceError(_("No bench has been recorded yet: nothing to undo."))
            raise ServiceError(_("There is no move to undo."))
        undone = moves[cut - 1 :]
        state = replay(game, moves[: cut - 1])
        Move.objects.filter(pk__in=[m.pk for m in undone]).update(undone_at=timezone.now())
        if game.status == TableStatus.OVER:
            _reopen(game)
        save_changed(game, state)
    return undone


def _reopen(game: TableGame) -> None:
    game.status = TableStatus.PLAYING
    game.results = None
    game.ended_at = None
    game.save(update_fields=["status", "results", "ended_at"])


def game_end_now(*, game_id: int, by: User, expected_version: int) -> TableGame:
    """End the round now and score the benches as they stand (a tabletop game: as recorded)."""
    with transaction.atomic():
        game = _locked_for_teacher(game_id, by, expected_version, gettext_noop("end this round"))
        if game.status == TableStatus.OVER:
            return game
        engine = engine_for(game)
        if engine.results_now is None:
            raise ServiceError(_("This game cannot be ended early: play it to the end."))
        state = engine.load(game.state)
        results = state.results() if state.is_over else engine.results_now(state)
        game.status = TableStatus.OVER
        game.results = results
        game.ended_at = timezone.now()
        game.save(update_fields=["status", "results", "ended_at"])
        save_changed(game, moved=False)
    return game
