from django.contrib.auth import views as auth_views
from django.urls import path

from classroom.forms import DeferredPasswordResetForm
from classroom.views import (
    accounts,
    classes,
    dashboard,
    health,
    join,
    language,
    roster,
    school,
    sessions,
    teams,
)

app_name = "classroom"

urlpatterns = [
    path("", dashboard.dashboard, name="dashboard"),
    path("healthz", health.healthz, name="healthz"),
    path("healthz/live", health.liveness, name="healthz_live"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/settings/", accounts.account, name="account"),
    # A device's language (the students' toggle); adults choose theirs on the account page.
    path("i18n/setlang/", language.set_language, name="set_language"),
    # Tokens are URL-safe base64 (secrets.token_urlsafe): anything else is not a token.
    path("accounts/invite/<slug:token>", school.invitation_accept, name="invitation_accept"),
    # Classes and rosters
    path("classes/", classes.class_list, name="class_list"),
    path("classes/new/", classes.class_create, name="class_create"),
    path("classes/<int:pk>/", classes.class_detail, name="class_detail"),
    path("classes/<int:pk>/edit/", classes.class_edit, name="class_edit"),
    path("classes/<int:pk>/archive/", classes.class_archive, name="class_archive"),
    path("classes/<int:pk>/unarchive/", classes.class_unarchive, name="class_unarchive"),
    path("classes/<int:pk>/delete/", classes.class_delete, name="class_delete"),
    path("classes/<int:pk>/roster/paste/", roster.roster_paste, name="roster_paste"),
    path("classes/<int:pk>/roster/upload/", roster.roster_upload, name="roster_upload"),
    path("students/<int:pk>/edit/", roster.student_edit, name="student_edit"),
    path("students/<int:pk>/delete/", roster.student_delete, name="student_delete"),
    path("students/<int:pk>/export/", roster.student_export, name="student_export"),
    # Sessions
    path("classes/<int:pk>/sessions/new/", sessions.session_create, name="session_create"),
    path("sessions/<int:pk>/", sessions.session_detail, name="session_detail"),
    path("sessions/<int:pk>/edit/", sessions.session_edit, name="session_edit"),
    path("sessions/<int:pk>/present/", sessions.session_presence, name="session_presence"),
    path("sessions/<int:pk>/open/", sessions.session_open, name="session_open"),
    path("sessions/<int:pk>/close/", sessions.session_close, name="session_close"),
    path("sessions/<int:pk>/lobby/", sessions.session_lobby, name="session_lobby"),
    path(
        "sessions/<int:pk>/projector-language/",
        sessions.session_projector_language,
        name="session_projector_language",
    ),
    path(
        "sessions/<int:pk>/devices/<int:device_pk>/unbind/",
        sessions.device_unbind,
        name="device_unbind",
    ),
    path("sessions/<int:pk>/teams/autopair/", teams.team_autopair, name="team_autopair"),
    path("sessions/<int:pk>/teams/move/", teams.team_move, name="team_move"),
    path("sessions/<int:pk>/teams/robot/", teams.team_add_robot, name="team_add_robot"),
    path(
        "sessions/<int:pk>/teams/<int:team_pk>/remove/",
        teams.team_remove_robot,
        name="team_remove_robot",
    ),
    path("sessions/<int:pk>/tables/autosplit/", teams.tables_autosplit, name="tables_autosplit"),
    path("sessions/<int:pk>/tables/move/", teams.team_table, name="team_table"),
    # Students' devices
    path("join", join.join, name="join"),
    path("me", join.device_home, name="device_home"),
    path("me/leave", join.device_leave, name="device_leave"),
    # Administrators
    path("school/", school.school, name="school"),
    path("school/invite/", school.teacher_invite, name="teacher_invite"),
    path(
        "school/teachers/<int:pk>/active/",
        school.teacher_set_active,
        name="teacher_set_active",
    ),
    path(
        "school/teachers/<int:pk>/unlock/",
        school.teacher_unlock_login,
        name="teacher_unlock_login",
    ),
]

# Django's own auth views keep their global names (login, logout, password_reset...).
auth_urlpatterns = [
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password-reset/",
        auth_views.PasswordResetView.as_view(form_class=DeferredPasswordResetForm),
        name="password_reset",
    ),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
