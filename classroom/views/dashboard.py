from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from classroom import selectors


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    user = request.user
    context = {
        "classes": selectors.classes_with_counts(user, archived=False),
        "upcoming": selectors.sessions_upcoming(user)[:20],
        "to_review": selectors.sessions_awaiting_assessment(user)[:20],
        "is_admin": user.is_school_admin,
    }
    return render(request, "classroom/dashboard.html", context)
