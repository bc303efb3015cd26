from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from classroom import services
from classroom.forms import TeacherSignupForm


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
