"""Teach-back pages: the team's sentence form on its device, the teacher's assessments page,
the rubric editor, the lock, and the projector spotlight. Each view: access check, at most one
service call, then render (htmx: the changed partial) or redirect."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from classroom import access as classroom_access
from classroom.services import ServiceError
from games.models import TableStatus, TeachBack
from games.teachback import access, selectors, services
from games.teachback.forms import CriterionFormSet, TeachBackForm, criteria_from_formset
from games.teachback.rows import assessment_row, spotlight_context
from games.teachback.rubrics import current_rubric, rubric_for_class, rubric_update

DEVICE_TEMPLATE = "games/teachback/device.html"
ASSESSMENTS_TEMPLATE = "games/teachback/assessments.html"
RUBRIC_TEMPLATE = "games/teachback/rubric_edit.html"
SPOTLIGHT_TEMPLATE = "games/teachback/spotlight.html"


def _partial(request: HttpRequest, template: str, name: str) -> str:
    return f"{template}#{name}" if request.htmx else template


# -- the team's device -----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def teachback(request: HttpRequest, session_pk: int) -> HttpResponse:
    team = access.get_team_for_device(request, session_pk)
    game = selectors.game_for(team)
    error = None
    if request.method == "POST":
        form = TeachBackForm(request.POST)
        form.is_valid()
        try:
            services.teachback_submit(
                team=team,
                fields=form.cleaned_data,
                by_device=classroom_access.get_device(request),
            )
        except ServiceError as exc:
            error = str(exc)
        else:
            if not request.htmx:
                return redirect("games:teachback", session_pk=session_pk)
            form = TeachBackForm(initial=services.teachback_initial(team))
    else:
        form = TeachBackForm(initial=services.teachback_initial(team))
    sent = TeachBack.objects.filter(team=team).first()
    bench = sent.bench_snapshot if sent else selectors.final_bench_for(team, game)
    team.session.refresh_from_db(fields=["teachbacks_locked_at"])
    context = {
        "team": team,
        "session": team.session,
        "form": form,
        "error": error,
        "sent": sent,
        "just_sent": request.method == "POST" and error is None,
        "game_over": game is not None and game.status == TableStatus.OVER,
        "locked": team.session.teachbacks_locked_at is not None,
        "mission": selectors.card(bench.get("mission")),
    }
    return render(request, _partial(request, DEVICE_TEMPLATE, "sentence"), context)


# -- the teacher's page ----------------------------------------------------------------------


def _assessments_context(request: HttpRequest, session) -> dict:
    can_assess = access.can_assess(request, session)
    classroom = session.classroom
    rubric = rubric_for_class(classroom) if can_assess else current_rubric(classroom)
    criteria = list(rubric.criteria.order_by("position")) if rubric else []
    entries = [
        assessment_row(entry.team, entry.teachback, rubric=rubric, criteria=criteria)
        for entry in selectors.assessment_entries(session)
    ]
    return {
        "session": session,
        "rubric": rubric,
        "criteria": criteria,
        "entries": entries,
        "can_assess": can_assess,
        "locked": session.teachbacks_locked_at is not None,
        "sent_count": sum(1 for entry in entries if entry["teachback"]),
        **spotlight_context(session),
    }


@require_GET
def assessments(request: HttpRequest, session_pk: int) -> HttpResponse:
    session = access.get_session_for_reader(request, session_pk)
    return render(request, ASSESSMENTS_TEMPLATE, _assessments_context(request, session))


@require_POST
def assessment_save(request: HttpRequest, session_pk: int, teachback_pk: int) -> HttpResponse:
    session = access.get_session_for_assessor(request, session_pk)
    teachback = access.get_teachback_in(session, teachback_pk)
    rubric = rubric_for_class(session.classroom)
    criteria = list(rubric.criteria.order_by("position"))
    scores = {c.key: request.POST.get(f"score-{c.key}") for c in criteria}
    comment = request.POST.get("comment", "")
    try:
        version = int(request.POST.get("rubric_version") or 0) or None
    except ValueError:
        version = None
    error = None
    try:
        services.assessment_save(
            teachback=teachback,
            scores=scores,
            comment=comment,
            by=request.user,
            rubric_version=version,
        )
    except ServiceError as exc:
        error = str(exc)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, f"Saved the assessment of {teachback.team}.")
        return redirect(f"{reverse('games:assessments', args=[session.pk])}#tb-{teachback.pk}")
    teachback = selectors.teachbacks_for_session(session).get(pk=teachback.pk)
    entry = assessment_row(
        teachback.team,
        teachback,
        rubric=rubric,
        criteria=criteria,
        posted={"scores": scores, "comment": comment} if error else None,
        error=error,
        saved=error is None,
    )
    context = {"session": session, "rubric": rubric, "entry": entry, "can_assess": True}
    return render(request, f"{ASSESSMENTS_TEMPLATE}#row", context)


@require_POST
def teachback_lock(request: HttpRequest, session_pk: int) -> HttpResponse:
    session = access.get_session_for_assessor(request, session_pk)
    try:
        if request.POST.get("action") == "unlock":
            services.session_unlock_teachbacks(session=session, by=request.user)
            messages.success(request, "Teams can change their sentences again.")
        else:
            services.session_lock_teachbacks(session=session, by=request.user)
            messages.success(request, "Sentences locked: teams can no longer change them.")
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("games:assessments", session_pk=session.pk)


@require_POST
def spotlight(request: HttpRequest, session_pk: int) -> HttpResponse:
    session = access.get_session_for_assessor(request, session_pk)
    raw = request.POST.get("teachback") or ""
    teachback = access.get_teachback_in(session, raw) if raw else None
    try:
        services.spotlight_set(session=session, teachback=teachback, by=request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    if request.htmx:
        context = {"session": session, "can_assess": True, **spotlight_context(session)}
        return render(request, f"{ASSESSMENTS_TEMPLATE}#spotlight-status", context)
    return redirect("games:assessments", session_pk=session.pk)


@require_GET
def spotlight_projector(request: HttpRequest, session_pk: int) -> HttpResponse:
    session = access.get_session_for_reader(request, session_pk)
    context = {"session": session, **spotlight_context(session)}
    if request.htmx:
        # The poll says which version it shows: an unchanged spotlight answers 204 and htmx
        # leaves the screen alone (no re-render, no flicker on the projector).
        if request.GET.get("since") == str(context["spotlight_version"]):
            return HttpResponse(status=204)
        return render(request, f"{SPOTLIGHT_TEMPLATE}#spotlight", context)
    return render(request, SPOTLIGHT_TEMPLATE, context)


# -- the rubric editor -----------------------------------------------------------------------


def _safe_next(request: HttpRequest) -> str | None:
    target = request.POST.get("next") or request.GET.get("next")
    # A path only: redirect() would take a bare word for a view name and fail to find it.
    if (
        target
        and target.startswith("/")
        and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        return target
    return None


@require_http_methods(["GET", "POST"])
def rubric_edit(request: HttpRequest, class_pk: int) -> HttpResponse:
    if request.method == "POST":
        classroom = access.get_class_for_rubric_editor(request, class_pk)
    else:
        classroom = access.get_class_for_rubric_reader(request, class_pk)
    can_edit = classroom.teacher_id == request.user.pk
    rubric = rubric_for_class(classroom) if can_edit else current_rubric(classroom)
    initial = [
        {
            "key": c.key,
            "title": c.title,
            "description": c.description,
            "max_score": c.max_score,
            "optional": c.optional,
            "order": c.position,
        }
        for c in (rubric.criteria.order_by("position") if rubric else [])
    ]
    error = None
    if request.method == "POST":
        formset = CriterionFormSet(request.POST)
        if "add" in request.POST:
            # Show one more blank row, keeping what was typed; nothing is saved yet.
            # The count comes from the formset's own management form, which refuses "abc",
            # "1e309" or "²" (an invalid one counts as no rows).
            data = request.POST.copy()
            total = max(0, min(formset.total_form_count(), CriterionFormSet.absolute_max - 1))
            data["form-TOTAL_FORMS"] = str(total + 1)
            data[f"form-{total}-max_score"] = "3"
            data[f"form-{total}-order"] = str(total + 1)
            formset = CriterionFormSet(data)
        elif formset.is_valid():
            before = rubric.version
            try:
                saved = rubric_update(
                    classroom=classroom, criteria=criteria_from_formset(formset), by=request.user
                )
            except ServiceError as exc:
                error = str(exc)
            else:
                if saved.version != before:
                    messages.success(
                        request,
                        f"Version {saved.version} — your earlier scores keep version {before}.",
                    )
                else:
                    messages.success(request, f"Rubric saved (version {saved.version}).")
                target = _safe_next(request)
                if target:
                    return redirect(target)
                return redirect("games:rubric_edit", class_pk=classroom.pk)
    else:
        formset = CriterionFormSet(initial=initial)
    context = {
        "classroom": classroom,
        "rubric": rubric,
        "formset": formset,
        "can_edit": can_edit,
        "error": error,
        "used": bool(rubric) and rubric.assessments.exists(),
        "next": _safe_next(request),
    }
    return render(request, RUBRIC_TEMPLATE, context)
