"""The standards pages: the administrator's (which codes of the shipped list the school reports
against, and which codes each game carries) and a class's (which codes each criterion of its
rubric carries, picked by the class's teacher)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from classroom.models import GameKind
from classroom.services import ServiceError
from games.teachback.rubrics import rubric_shown
from reports import access
from reports.selectors.standards import picked, school_game_codes
from reports.services.standards import (
    criterion_standards_set,
    school_game_standards_set,
    school_standards_set,
)
from reports.standards import CRITERION_STANDARDS, STANDARDS, criterion_codes


@login_required
@require_http_methods(["GET", "POST"])
def standards(request: HttpRequest) -> HttpResponse:
    school = access.get_school(request)
    error = None
    if request.method == "POST":
        codes = request.POST.getlist("codes")
        try:
            if "game" in request.POST:
                school_game_standards_set(
                    school=school, game=request.POST["game"], codes=codes, by=request.user
                )
            else:
                school_standards_set(school=school, codes=codes, by=request.user)
        except ServiceError as exc:
            error = str(exc)
        else:
            messages.success(request, gettext("Standards saved."))
            return redirect("reports:standards")
    chosen = {s.code for s in picked(school)}
    game_codes = school_game_codes(school)
    rows = [
        {
            "standard": s,
            "chosen": s.code in chosen,
            "games": [g for g, codes in game_codes.items() if s.code in codes],
            "criteria": [k for k, codes in CRITERION_STANDARDS.items() if s.code in codes],
        }
        for s in STANDARDS
    ]
    games = [
        {
            "kind": kind,
            "label": kind.label,
            "options": [{"standard": s, "chosen": s.code in game_codes[kind]} for s in STANDARDS],
        }
        for kind in GameKind
    ]
    context = {"school": school, "rows": rows, "games": games, "error": error}
    return render(request, "reports/standards.html", context, status=400 if error else 200)


@login_required
@require_http_methods(["GET", "POST"])
def class_standards(request: HttpRequest, pk: int) -> HttpResponse:
    if request.method == "POST":
        classroom = access.get_class_for_standards_editor(request, pk)
    else:
        classroom = access.get_class_for_standards(request, pk)
    error = None
    if request.method == "POST":
        try:
            criterion = criterion_standards_set(
                classroom=classroom,
                key=request.POST.get("criterion", ""),
                version=request.POST.get("version", ""),
                codes=request.POST.getlist("codes"),
                by=request.user,
            )
        except ServiceError as exc:
            error = str(exc)
        else:
            messages.success(
                request,
                gettext("Standards of “%(title)s” saved.") % {"title": criterion.shown_title},
            )
            return redirect("reports:class_standards", pk=classroom.pk)
    rubric, criteria = rubric_shown(classroom)
    rows = []
    for criterion in criteria:
        own = criterion_codes(criterion.key, criterion.standards)
        rows.append(
            {
                "criterion": criterion,
                "options": [{"standard": s, "chosen": s.code in own} for s in STANDARDS],
                "chosen": [s for s in STANDARDS if s.code in own],
            }
        )
    context = {
        "classroom": classroom,
        "rubric": rubric,
        "rows": rows,
        "can_edit": access.may_edit_class_standards(request.user, classroom),
        "error": error,
    }
    return render(request, "reports/class_standards.html", context, status=400 if error else 200)
