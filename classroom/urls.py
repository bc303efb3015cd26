from django.contrib.auth import views as auth_views
from django.urls import path

from classroom.forms import EmailLoginForm
from classroom.views import accounts, dashboard, health

app_name = "classroom"

urlpatterns = [
    path("", dashboard.dashboard, name="dashboard"),
    path("healthz", health.healthz, name="healthz"),
    path("accounts/signup/", accounts.signup, name="signup"),
]

# Django's own auth views keep their global names (login, logout, password_reset...).
auth_urlpatterns = [
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(
            authentication_form=EmailLoginForm, redirect_authenticated_user=True
        ),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password-reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
