"""The fuzz table of the games and reports URLs (see routes.py)."""

from __future__ import annotations

from tests.fuzz.routes import TEACHER_AND_ADMIN, FuzzRoute


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
    FuzzRoute(
        "reports:session_insights",
        "get",
        TEACHER_AND_ADMIN,
        lambda w: [w.finished.table.session.pk],
    ),
    FuzzRoute(
        "reports:session_insights_export",
        "get",
        TEACHER_AND_ADMIN,
        lambda w: [w.finished.table.session.pk, "csv"],
        fuzz_path=True,
    ),
    FuzzRoute("reports:class_insights", "get", TEACHER_AND_ADMIN, lambda w: [w.classroom.pk]),
    FuzzRoute(
        "reports:class_insights_sentences",
        "get",
        TEACHER_AND_ADMIN,
        lambda w: [w.classroom.pk],
        params=lambda w: {"blank": "senses_with", "group": "card:camera"},
    ),
    FuzzRoute(
        "reports:class_insights_export",
        "get",
        TEACHER_AND_ADMIN,
        lambda w: [w.classroom.pk, "xlsx"],
        fuzz_path=True,
    ),
    FuzzRoute("reports:class_standards", "get", TEACHER_AND_ADMIN, lambda w: [w.classroom.pk]),
    FuzzRoute(
        "reports:class_standards",
        args=lambda w: [w.classroom.pk],
        params=lambda w: {"criterion": "complete", "version": "1", "codes": "CSTA-1A-CS-01"},
    ),
    FuzzRoute("reports:standards", "get", ("admin",)),
    FuzzRoute(
        "reports:standards",
        roles=("admin",),
        params=lambda w: {"codes": "CSTA-1A-CS-01"},
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
