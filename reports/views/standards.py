"""The administrator's standards page: which codes of the shipped list the school reports its
results against."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from classroom.services import ServiceError
from reports import access
from reports.selectors.standards import picked
from reports.services.standards import school_standards_set
from reports.standards import CRITERION_STANDARDS, GAME_STANDARDS, STANDARDS


@login_required
@require_http_methods(["GET", "POST"])
def standards(request: HttpRequest) -> HttpResponse:
    school = access.get_school(request)
    error = None
    if request.method == "POST":
        try:
            school_standards_set(
                school=school, codes=request.POST.getlist("codes"), by=request.user
            )
        except ServiceError as exc:
            error = str(exc)
        else:
            messages.success(request, gettext("Standards saved."))
            return redirect("reports:standards")
    chosen = {s.code for s in picked(school)}
    rows = [
        {
            "standard": s,
            "chosen": s.code in chosen,
            "games": [g for g, codes in GAME_STANDARDS.items() if s.code in codes],
            "criteria": [k for k, codes in CRITERION_STANDARDS.items() if s.code in codes],
        }
        for s in STANDARDS
    ]
    context = {"school": school, "rows": rows, "error": error}
    return render(request, "reports/standards.html", context, status=400 if error else 200)
