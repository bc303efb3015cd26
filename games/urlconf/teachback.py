"""Teach-back: the team's sentence form, the teacher's assessments and rubric, the projector."""

from django.urls import path

from games.views import teachback

urlpatterns = [
    path("sessions/<int:session_pk>/teachback/", teachback.teachback, name="teachback"),
    path("sessions/<int:session_pk>/assessments/", teachback.assessments, name="assessments"),
    path(
        "sessions/<int:session_pk>/assessments/<int:teachback_pk>/",
        teachback.assessment_save,
        name="assessment_save",
    ),
    path(
        "sessions/<int:session_pk>/teachbacks/lock/",
        teachback.teachback_lock,
        name="teachback_lock",
    ),
    path("sessions/<int:session_pk>/spotlight/", teachback.spotlight, name="spotlight"),
    path(
        "sessions/<int:session_pk>/spotlight/projector/",
        teachback.spotlight_projector,
        name="spotlight_projector",
    ),
    path("classes/<int:class_pk>/rubric/", teachback.rubric_edit, name="rubric_edit"),
]
