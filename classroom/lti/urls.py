"""LTI 1.3 URLs, namespace `lti` (the shared contract: /work/notes/lti-contract.md)."""

from django.urls import path

from classroom.lti.views import deep_linking, dynamic, keys, launch, lesson, platforms, services

app_name = "lti"

urlpatterns = [
    path("login/", launch.login, name="login"),
    path("launch/", launch.launch, name="launch"),
    path("jwks.json", keys.jwks, name="jwks"),
    path("register/", dynamic.dynamic_register, name="dynamic-register"),
    path("deep-link/", deep_linking.deep_link, name="deep-link"),
    path("links/<int:pk>/", lesson.activity, name="activity"),
    path("links/<int:pk>/start/", lesson.activity_start, name="activity-start"),
    path("learner/", lesson.learner, name="learner"),
    path("platforms/", platforms.platforms, name="platforms"),
    path("platforms/registration-link/", platforms.registration_link, name="registration-link"),
    path("platforms/<int:pk>/", platforms.platform, name="platform"),
    path("platforms/<int:pk>/active/", platforms.platform_active, name="platform-active"),
    path("platforms/<int:pk>/deployments/", platforms.deployment_add, name="deployment-add"),
    path(
        "platforms/<int:pk>/deployments/<int:deployment_pk>/remove/",
        platforms.deployment_remove,
        name="deployment-remove",
    ),
    path("classes/<int:class_pk>/roster/", services.roster_sync, name="roster"),
    path("sessions/<int:session_pk>/grades/", services.grades_status, name="grades"),
    path(
        "sessions/<int:session_pk>/grades/send-again/",
        services.grades_send_again,
        name="grades_send_again",
    ),
]
