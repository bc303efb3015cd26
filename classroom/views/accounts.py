from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from classroom import services, throttle
from classroom.forms import EmailLoginForm, TeacherSignupForm


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
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("classroom:dashboard")
    return render(request, "registration/signup.html", {"form": form})
