"""LTI 1.3 URLs, namespace `lti` (the shared contract: /work/notes/lti-contract.md)."""

from django.urls import path

from classroom.lti.views import services

app_name = "lti"

urlpatterns = [
    path("classes/<int:class_pk>/roster/", services.roster_sync, name="roster"),
    path("sessions/<int:session_pk>/grades/", services.grades_status, name="grades"),
    path(
        "sessions/<int:session_pk>/grades/send-again/",
        services.grades_send_again,
        name="grades_send_again",
    ),
]
