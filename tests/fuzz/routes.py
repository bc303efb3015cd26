"""Every URL of the site with the parameters it reads, who can reach the code that reads them,
and which of them are saved. `test_fuzz_inputs` sends each parameter every nasty value.

Like the permission matrix (tests/classroom/matrix.py): a URL that is not listed here, or in
NOT_FUZZED with a reason, fails `test_every_url_is_fuzzed`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

TEACHER_AND_ADMIN = ("teacher", "admin")


@dataclass(frozen=True)
class FuzzRoute:
    name: str
    method: str = "post"
    # Who reaches the code that reads the parameters (others are turned away before it, which
    # the permission matrices check).
    roles: tuple[str, ...] = ("teacher",)
    args: Callable[[Any], list] = lambda w: []
    # Valid values for every parameter: each in turn gets the nasty values, the others keep these.
    params: Callable[[Any], dict[str, Any]] = lambda w: {}
    # Parameters whose text is saved: a value no column can take must change nothing.
    stores: tuple[str, ...] = ()
    # The str arguments in the path get the nasty values too.
    fuzz_path: bool = False
    # A file field whose content gets the nasty values (as the bytes of a CSV).
    upload: str = ""
    htmx: bool = False

    @property
    def label(self) -> str:
        return f"{self.method.upper()} {self.name}"


def _session_form(w) -> dict:
    return {
        "date": "2026-12-09",
        "title": "Lesson 3",
        "game": "bot_builders",
        "variant": "standard",
        "team_size": "2",
        "skip_first_round": "",
    }


def _bench(w) -> dict:
    return {
        "sense": "camera",
        "think": "",
        "act": "",
        "power": "",
        "mission": "",
        "client_move_id": "bench-1",
    }


def _live_move(w) -> dict:
    w.live.game.refresh_from_db()
    return {
        "action": '{"type": "draw"}',
        "version": str(w.live.game.version),
        "client_move_id": "fuzz-move",
    }


def _laws_version(w) -> str:
    w.laws.game.refresh_from_db()
    return str(w.laws.game.version)


def _assessment(w) -> dict:
    from games.teachback.rubrics import rubric_for_class

    w.teachback  # noqa: B018 - the sentence must exist to be assessed
    rubric = rubric_for_class(w.classroom)
    scores = {f"score-{c.key}": "1" for c in rubric.criteria.all()}
    return {**scores, "comment": "Good link", "rubric_version": str(rubric.version)}


def _rubric_form(w) -> dict:
    return {
        "form-TOTAL_FORMS": "1",
        "form-INITIAL_FORMS": "0",
        "form-0-key": "",
        "form-0-title": "Clear",
        "form-0-description": "Said clearly",
        "form-0-max_score": "3",
        "form-0-optional": "",
        "form-0-order": "1",
        "next": "/classes/",
    }


def _controls() -> list[FuzzRoute]:
    from games.views.teacher import CONTROLS

    return [
        FuzzRoute(
            name,
            args=lambda w: [w.live.game.pk],
            params=lambda w: {"version": str(w.live.game.version), "screen": "projector"},
            htmx=True,
        )
        for name in [f"games:{n}" for n in CONTROLS]
    ]


ROUTES: list[FuzzRoute] = [
    # -- accounts -----------------------------------------------------------------------------
    FuzzRoute(
        "login", roles=("anonymous",), params=lambda w: {"username": "a@b.c", "password": "x"}
    ),
    FuzzRoute("logout", roles=("teacher",)),
    FuzzRoute("password_reset", roles=("anonymous",), params=lambda w: {"email": "a@b.c"}),
    FuzzRoute("password_reset_done", "get", roles=("anonymous",)),
    FuzzRoute(
        "password_reset_confirm",
        "get",
        roles=("anonymous",),
        args=lambda w: w.reset_args(),
        fuzz_path=True,
    ),
    FuzzRoute(
        "password_reset_confirm",
        roles=("anonymous",),
        args=lambda w: w.reset_args(),
        params=lambda w: {"new_password1": "x", "new_password2": "x"},
    ),
    FuzzRoute("password_reset_complete", "get", roles=("anonymous",)),
    FuzzRoute(
        "classroom:signup",
        roles=("anonymous",),
        params=lambda w: {
            "display_name": "New Teacher",
            "email": "new@school.test",
            "school_name": "New School",
            "password": "short",
        },
        stores=("display_name", "school_name"),
    ),
    FuzzRoute(
        "classroom:invitation_accept",
        "get",
        roles=("anonymous",),
        args=lambda w: [w.invitation.token],
        fuzz_path=True,
    ),
    FuzzRoute(
        "classroom:invitation_accept",
        roles=("anonymous",),
        args=lambda w: [w.invitation.token],
        params=lambda w: {"display_name": "Newbie", "password": "short"},
        stores=("display_name",),
    ),
    # -- the school ---------------------------------------------------------------------------
    FuzzRoute("classroom:dashboard", "get", roles=TEACHER_AND_ADMIN),
    FuzzRoute("classroom:school", "get", roles=("admin",)),
    FuzzRoute("classroom:teacher_invite", "get", roles=("admin",)),
    FuzzRoute(
        "classroom:teacher_invite",
        roles=("admin",),
        params=lambda w: {"email": "a@b.c"},
        stores=("email",),
    ),
    FuzzRoute(
        "classroom:teacher_set_active",
        roles=("admin",),
        args=lambda w: [w.teacher.pk],
        params=lambda w: {"active": "1"},
    ),
    # -- classes and rosters ------------------------------------------------------------------
    FuzzRoute("classroom:class_list", "get", roles=TEACHER_AND_ADMIN),
    FuzzRoute("classroom:class_create", "get"),
    FuzzRoute(
        "classroom:class_create",
        params=lambda w: {"name": "Robotics", "grade": "4", "school_year": "2026-27"},
        stores=("name", "grade", "school_year"),
    ),
    FuzzRoute("classroom:class_detail", "get", TEACHER_AND_ADMIN, lambda w: [w.classroom.pk]),
    FuzzRoute("classroom:class_edit", "get", args=lambda w: [w.classroom.pk]),
    FuzzRoute(
        "classroom:class_edit",
        args=lambda w: [w.classroom.pk],
        params=lambda w: {"name": "Robotics", "grade": "4", "school_year": "2026-27"},
        stores=("name", "grade", "school_year"),
    ),
    FuzzRoute("classroom:class_archive", args=lambda w: [w.classroom.pk]),
    FuzzRoute("classroom:class_unarchive", args=lambda w: [w.classroom.pk]),
    FuzzRoute("classroom:class_delete", "get", args=lambda w: [w.classroom.pk]),
    FuzzRoute(
        "classroom:class_delete",
        args=lambda w: [w.classroom.pk],
        params=lambda w: {"confirm_name": "not the name"},
    ),
    FuzzRoute("classroom:roster_paste", "get", args=lambda w: [w.classroom.pk]),
    FuzzRoute(
        "classroom:roster_paste",
        args=lambda w: [w.classroom.pk],
        params=lambda w: {"names": "Zed"},
        stores=("names",),
    ),
    FuzzRoute("classroom:roster_upload", "get", args=lambda w: [w.classroom.pk]),
    FuzzRoute("classroom:roster_upload", args=lambda w: [w.classroom.pk], upload="file"),
    FuzzRoute("classroom:student_edit", "get", args=lambda w: [w.student.pk]),
    FuzzRoute(
        "classroom:student_edit",
        args=lambda w: [w.student.pk],
        params=lambda w: {"name": "Avery", "birth_month": "2016-04"},
        stores=("name", "birth_month"),
    ),
    FuzzRoute("classroom:student_delete", "get", args=lambda w: [w.student.pk]),
    FuzzRoute("classroom:student_delete", args=lambda w: [w.student.pk]),
    FuzzRoute("classroom:student_export", "get", ("admin",), lambda w: [w.student.pk]),
    # -- sessions, teams, tables --------------------------------------------------------------
    FuzzRoute("classroom:session_create", "get", args=lambda w: [w.classroom.pk]),
    FuzzRoute(
        "classroom:session_create",
        args=lambda w: [w.classroom.pk],
        params=_session_form,
        stores=("title",),
    ),
    FuzzRoute("classroom:session_detail", "get", TEACHER_AND_ADMIN, lambda w: [w.setup.pk]),
    FuzzRoute("classroom:session_edit", "get", args=lambda w: [w.setup.pk]),
    FuzzRoute(
        "classroom:session_edit",
        args=lambda w: [w.setup.pk],
        params=_session_form,
        stores=("title",),
    ),
    FuzzRoute(
        "classroom:session_presence",
        args=lambda w: [w.setup.pk],
        params=lambda w: {"present": [str(w.student.pk)], "all": "0"},
        htmx=True,
    ),
    FuzzRoute("classroom:session_open", args=lambda w: [w.setup.pk]),
    FuzzRoute("classroom:session_close", args=lambda w: [w.setup.pk]),
    FuzzRoute("classroom:session_lobby", "get", args=lambda w: [w.setup.pk]),
    FuzzRoute("classroom:device_unbind", args=lambda w: [w.setup.pk, w.device_setup.binding.pk]),
    FuzzRoute("classroom:team_autopair", args=lambda w: [w.setup.pk], htmx=True),
    FuzzRoute(
        "classroom:team_move",
        args=lambda w: [w.setup.pk],
        params=lambda w: {"student": str(w.student.pk), "team": str(w.team.pk)},
        htmx=True,
    ),
    FuzzRoute(
        "classroom:team_add_robot",
        args=lambda w: [w.setup.pk],
        params=lambda w: {"table": str(w.table.pk)},
        htmx=True,
    ),
    FuzzRoute("classroom:team_remove_robot", args=lambda w: [w.setup.pk, w.robot.pk]),
    FuzzRoute("classroom:tables_autosplit", args=lambda w: [w.setup.pk]),
    FuzzRoute(
        "classroom:team_table",
        args=lambda w: [w.setup.pk],
        params=lambda w: {"team": str(w.team.pk), "table": "new"},
        htmx=True,
    ),
    # -- students' devices --------------------------------------------------------------------
    FuzzRoute(
        "classroom:join",
        "get",
        roles=("anonymous", "device_setup"),
        params=lambda w: {"code": w.setup.room_code},
    ),
    FuzzRoute(
        "classroom:join",
        roles=("anonymous", "device_setup"),
        params=lambda w: {"code": w.setup.room_code, "student": str(w.students[5].pk)},
    ),
    FuzzRoute("classroom:device_home", "get", roles=("device_setup",), htmx=True),
    FuzzRoute("classroom:device_leave", roles=("device_setup",)),
    # -- live play ----------------------------------------------------------------------------
    FuzzRoute("games:device", "get", roles=("device_live", "device_laws", "device_tabletop")),
    FuzzRoute(
        "games:move",
        roles=("device_live",),
        args=lambda w: [w.live.game.pk],
        params=_live_move,
        stores=("action", "client_move_id"),
        htmx=True,
    ),
    FuzzRoute(
        "games:poll",
        "get",
        roles=("device_live",),
        params=lambda w: {"t": w.live_poll_token(), "v": "0"},
        htmx=True,
    ),
    FuzzRoute(
        "games:tabletop_bench",
        "get",
        roles=("device_tabletop",),
        args=lambda w: [w.tabletop[0].pk],
    ),
    FuzzRoute(
        "games:tabletop_bench",
        roles=("device_tabletop",),
        args=lambda w: [w.tabletop[0].pk],
        params=_bench,
        stores=("client_move_id",),
    ),
    FuzzRoute("games:projector", "get", TEACHER_AND_ADMIN, lambda w: [w.live.game.pk]),
    FuzzRoute("games:projector_grid", "get", TEACHER_AND_ADMIN, lambda w: [w.live.session.pk]),
    FuzzRoute("games:start_tables", args=lambda w: [w.setup.pk]),
    FuzzRoute("games:teacher_tables", "get", TEACHER_AND_ADMIN, lambda w: [w.live.session.pk]),
    FuzzRoute("games:table_add_robot", args=lambda w: [w.setup.pk, w.table.pk]),
    FuzzRoute("games:table_start", args=lambda w: [w.setup.pk, w.table.pk]),
    FuzzRoute(
        "games:replay",
        "get",
        TEACHER_AND_ADMIN,
        lambda w: [w.live.game.pk],
        params=lambda w: {"step": "1"},
    ),
    *_controls(),
    FuzzRoute(
        "games:three_laws_ask",
        roles=("device_laws",),
        args=lambda w: [w.laws.game.pk],
        params=lambda w: {
            "target": "team-2",
            "question": "Am I the highest?",
            "version": _laws_version(w),
            "client_move_id": "fuzz-ask",
        },
        stores=("question", "target", "client_move_id"),
        htmx=True,
    ),
    FuzzRoute(
        "games:three_laws_call",
        roles=("device_laws",),
        args=lambda w: [w.laws.game.pk],
        params=lambda w: {
            "kind": "error",
            "offender": "team-2",
            "law": "law_01",
            "call": "",
            "client_move_id": "fuzz-call",
        },
        stores=("offender", "law", "client_move_id"),
        htmx=True,
    ),
    FuzzRoute(
        "games:facilitate",
        args=lambda w: [w.laws.game.pk],
        params=lambda w: {
            "action": '{"type": "advance"}',
            "version": _laws_version(w),
            "client_move_id": "fuzz-facilitate",
            "screen": "projector",
        },
        stores=("action", "client_move_id"),
        htmx=True,
    ),
    # -- teach-back ---------------------------------------------------------------------------
    FuzzRoute(
        "games:teachback",
        "get",
        roles=("device_teachback",),
        args=lambda w: [w.finished.table.session.pk],
    ),
    FuzzRoute(
        "games:teachback",
        roles=("device_teachback",),
        args=lambda w: [w.finished.table.session.pk],
        params=lambda w: {
            "senses_with": "a camera",
            "thinks_with": "a board",
            "acts_with": "wheels",
            "powered_by": "a battery",
            "because": "it helps",
        },
        stores=("senses_with", "thinks_with", "acts_with", "powered_by", "because"),
        htmx=True,
    ),
    FuzzRoute(
        "games:assessments", "get", TEACHER_AND_ADMIN, lambda w: [w.finished.table.session.pk]
    ),
    FuzzRoute(
        "games:assessment_save",
        args=lambda w: [w.finished.table.session.pk, w.teachback.pk],
        params=_assessment,
        stores=("comment",),
        htmx=True,
    ),
    FuzzRoute(
        "games:teachback_lock",
        args=lambda w: [w.finished.table.session.pk],
        params=lambda w: {"action": "unlock"},
    ),
    FuzzRoute(
        "games:spotlight",
        args=lambda w: [w.finished.table.session.pk],
        params=lambda w: {"teachback": str(w.teachback.pk)},
        htmx=True,
    ),
    FuzzRoute(
        "games:spotlight_projector",
        "get",
        TEACHER_AND_ADMIN,
        lambda w: [w.finished.table.session.pk],
        params=lambda w: {"since": "0"},
        htmx=True,
    ),
    FuzzRoute(
        "games:rubric_edit",
        "get",
        TEACHER_AND_ADMIN,
        lambda w: [w.classroom.pk],
        params=lambda w: {"next": "/classes/"},
    ),
    FuzzRoute(
        "games:rubric_edit",
        args=lambda w: [w.classroom.pk],
        params=_rubric_form,
        stores=("form-0-title", "form-0-description", "form-0-key"),
    ),
    FuzzRoute(
        "games:rubric_edit",
        args=lambda w: [w.classroom.pk],
        params=lambda w: {**_rubric_form(w), "add": "1"},
    ),
    FuzzRoute("games:printables", "get", roles=("anonymous", "teacher")),
    FuzzRoute(
        "games:printable",
        "get",
        roles=("anonymous",),
        args=lambda w: ["bot-builders-rules"],
        params=lambda w: {"download": "1"},
    ),
    # -- reports ------------------------------------------------------------------------------
    FuzzRoute("reports:index", "get", TEACHER_AND_ADMIN),
    FuzzRoute("reports:session", "get", TEACHER_AND_ADMIN, lambda w: [w.finished.table.session.pk]),
    FuzzRoute(
        "reports:session_csv",
        "get",
        TEACHER_AND_ADMIN,
        lambda w: [w.finished.table.session.pk, "results"],
    ),
    FuzzRoute("reports:class_progress", "get", TEACHER_AND_ADMIN, lambda w: [w.classroom.pk]),
    FuzzRoute(
        "reports:class_csv", "get", TEACHER_AND_ADMIN, lambda w: [w.classroom.pk, "sessions"]
    ),
    FuzzRoute("reports:student_progress", "get", TEACHER_AND_ADMIN, lambda w: [w.student.pk]),
    FuzzRoute(
        "reports:student_csv", "get", TEACHER_AND_ADMIN, lambda w: [w.student.pk, "sessions"]
    ),
    FuzzRoute("reports:school_overview", "get", ("admin",)),
    FuzzRoute("reports:school_csv", "get", ("admin",), lambda w: ["classes"]),
    FuzzRoute("reports:retention", "get", ("admin",)),
    FuzzRoute(
        "reports:retention",
        roles=("admin",),
        params=lambda w: {"action": "save", "months": "12"},
        stores=("months",),
    ),
    FuzzRoute(
        "reports:retention",
        roles=("admin",),
        params=lambda w: {"action": "purge", "confirm": ""},
    ),
    FuzzRoute(
        "reports:exports",
        "get",
        TEACHER_AND_ADMIN,
        params=lambda w: {"class": str(w.classroom.pk)},
    ),
    FuzzRoute(
        "reports:export_create",
        roles=TEACHER_AND_ADMIN,
        params=lambda w: {"kind": "class", "target": str(w.classroom.pk), "next": "/reports/"},
        htmx=True,
    ),
    FuzzRoute("reports:export_status", "get", TEACHER_AND_ADMIN, lambda w: [w.export.pk]),
    FuzzRoute("reports:export_download", "get", TEACHER_AND_ADMIN, lambda w: [w.export.pk]),
    FuzzRoute("reports:export_retry", args=lambda w: [w.export.pk]),
    FuzzRoute(
        "reports:export_delete_file",
        "get",
        args=lambda w: [w.export.pk],
        params=lambda w: {"next": "/reports/exports/"},
    ),
]

NOT_FUZZED = {
    # Its whole answer is the state of the database and the broker (503 when one is down, by
    # design); it reads no parameter. tests/foundation/test_health.py covers it.
    "classroom:healthz": "no parameters; 503 is its answer when a server is down",
}
