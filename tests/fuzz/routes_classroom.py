"""The fuzz table of the accounts and classroom URLs (see routes.py)."""

from __future__ import annotations

from tests.fuzz.routes import TEACHER_AND_ADMIN, FuzzRoute


def _session_form(w) -> dict:
    return {
        "date": "2026-12-09",
        "title": "Lesson 3",
        "game": "bot_builders",
        "variant": "standard",
        "team_size": "2",
        "skip_first_round": "",
    }


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
    FuzzRoute("classroom:account", "get", roles=TEACHER_AND_ADMIN),
    FuzzRoute("classroom:account", roles=TEACHER_AND_ADMIN, params=lambda w: {"language": "es"}),
    FuzzRoute(
        "classroom:set_language",
        roles=("anonymous", "device_setup"),
        params=lambda w: {"language": "es", "next": "/join/"},
    ),
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
    FuzzRoute("classroom:teacher_unlock_login", roles=("admin",), args=lambda w: [w.teacher.pk]),
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
    FuzzRoute(
        "classroom:session_projector_language",
        args=lambda w: [w.setup.pk],
        params=lambda w: {"projector_language": "both"},
    ),
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
]
