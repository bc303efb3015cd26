from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from classroom import access, services, throttle
from classroom.forms import AccountLanguageForm, EmailLoginForm, TeacherSignupForm


class LoginView(auth_views.LoginView):
    """Django's login with the e-mail form; a login the throttle refused answers 429 with
    Retry-After, so scripts see it as well as people."""

    authentication_form = EmailLoginForm
    redirect_authenticated_user = True

    def form_invalid(self, form: EmailLoginForm) -> HttpResponse:
        response = super().form_invalid(form)
        if form.is_throttled():
            response.status_code = 429
            response["Retry-After"] = str(form.wait_seconds)
        return response


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Setting a new password from the e-mailed link proves the teacher holds the mailbox, so it
    also lifts a lockout on the account: the way back that does not wait for the window."""

    def form_valid(self, form) -> HttpResponse:
        response = super().form_valid(form)
        throttle.login_unlock(email=form.user.email)
        return response


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("classroom:dashboard")
    form = TeacherSignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = services.teacher_signup(**form.cleaned_data)
        login(request, user)  # the one backend: AUTHENTICATION_BACKENDS
        return redirect("classroom:dashboard")
    return render(request, "registration/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    """The adult's own settings: the language BotBench speaks to them on every computer."""
    user = access.require_adult(request)
    form = AccountLanguageForm(request.POST or None, initial={"language": user.language})
    if request.method == "POST" and form.is_valid():
        try:
            services.user_language_set(
                user=user, language=form.cleaned_data["language"], by=request.user
            )
        except services.ServiceError as exc:
            form.add_error("language", str(exc))
        else:
            # Said in the language just chosen (the next page speaks it).
            with translation.override(user.language or translation.get_language()):
                messages.success(request, gettext("Your language is saved."))
            return redirect("classroom:account")
    status = 400 if form.errors else 200
    return render(request, "classroom/account.html", {"form": form}, status=status)
