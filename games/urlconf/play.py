"""Live play: the device, moves, the poll, the projector, the teacher's tables and controls."""

from django.urls import path

from games.views import play, poll, projector, tabletop, teacher

urlpatterns = [
    path("", play.device, name="device"),
    path("tables/<int:game_id>/move/", play.move, name="move"),
    path("poll/", poll.poll, name="poll"),
    path("tables/<int:game_id>/bench/", tabletop.bench, name="tabletop_bench"),
    path("tables/<int:game_id>/projector/", projector.projector, name="projector"),
    path("sessions/<int:session_pk>/projector/", projector.projector_grid, name="projector_grid"),
    path("sessions/<int:session_pk>/start/", teacher.start_tables, name="start_tables"),
    path("sessions/<int:session_pk>/tables/", teacher.teacher_tables, name="teacher_tables"),
    path(
        "sessions/<int:session_pk>/tables/<int:table_pk>/robot/",
        teacher.table_add_robot,
        name="table_add_robot",
    ),
    path(
        "sessions/<int:session_pk>/tables/<int:table_pk>/start/",
        teacher.table_start_one,
        name="table_start",
    ),
    path("tables/<int:game_id>/replay/", teacher.replay, name="replay"),
    *[
        path(
            f"tables/<int:game_id>/{name.replace('_', '-')}/",
            teacher.control,
            {"name": name},
            name=name,
        )
        for name in teacher.CONTROLS
    ],
]
