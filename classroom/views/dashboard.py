from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from classroom import access


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    classes = access.classes_visible_to(request.user).filter(archived_at__isnull=True)
    return render(request, "classroom/dashboard.html", {"classes": classes})
