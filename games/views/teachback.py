"""Teach-back pages: the team's sentence form on its device, the teacher's assessments page,
the rubric editor, the lock, and the projector spotlight. Each view: access check, at most one
service call, then render (htmx: the changed partial) or redirect."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from classroom import access as classroom_access
from classroom import watch
from classroom.http import HtmxHttpRequest, safe_next
from classroom.lti import grades
from classroom.services import ServiceError
from games.teachback import access, services
from games.teachback.forms import (
    AssessmentForm,
    CriterionFormSet,
    TeachBackForm,
    criteria_from_formset,
    criterion_rows,
    first_error,
    formset_with_blank_row,
)
from games.teachback.rubrics import rubric_shown, rubric_update
from games.teachback.screens import (
    assessment_row_page,
    assessments_page,
    device_page,
    rubric_page,
    spotlight_context,
)
from games.views.projector import render_for_projector

DEVICE_TEMPLATE = "games/teachback/device.html"
ASSESSMENTS_TEMPLATE = "games/teachback/assessments.html"
RUBRIC_TEMPLATE = "games/teachback/rubric_edit.html"
SPOTLIGHT_TEMPLATE = "games/teachback/spotlight.html"


def _partial(request: HtmxHttpRequest, template: str, name: str) -> str:
    return f"{template}#{name}" if request.htmx else template


# -- the team's device -----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def teachback(request: HtmxHttpRequest, session_pk: int) -> HttpResponse:
    team = access.get_team_for_device(request, session_pk)
    error = None
    if request.method == "POST":
        form = TeachBackForm(request.POST)
        if not form.is_valid():
            error = first_error(form)
        else:
            try:
                services.teachback_submit(
                    team=team,
                    fields=form.cleaned_data,
                    by_device=classroom_access.get_device(request),
                    language=translation.get_language() or "en",
                )
            except ServiceError as exc:
                error = str(exc)
            else:
                if not request.htmx:
                    return redirect("games:teachback", session_pk=session_pk)
                form = TeachBackForm(initial=services.teachback_initial(team))
    else:
        form = TeachBackForm(initial=services.teachback_initial(team))
    just_sent = request.method == "POST" and error is None
    context = device_page(team, form=form, error=error, just_sent=just_sent)
    return render(request, _partial(request, DEVICE_TEMPLATE, "sentence"), context)


# -- the teacher's page ----------------------------------------------------------------------


@require_GET
def assessments(request: HtmxHttpRequest, session_pk: int) -> HttpResponse:
    session = access.get_session_for_reader(request, session_pk)
    context = assessments_page(session, can_assess=access.can_assess(request, session))
    return render(request, ASSESSMENTS_TEMPLATE, context)


@require_POST
def assessment_save(request: HtmxHttpRequest, session_pk: int, teachback_pk: int) -> HttpResponse:
    session = access.get_session_for_assessor(request, session_pk)
    teachback = access.get_teachback_in(session, teachback_pk)
    form = AssessmentForm(request.POST, criteria=rubric_shown(session.classroom)[1])
    error = None
    if not form.is_valid():
        error = first_error(form)
    else:
        try:
            services.assessment_save(
                teachback=teachback,
                scores=form.scores(),
                comment=form.cleaned_data["comment"],
                by=request.user,
                rubric_version=form.cleaned_data["rubric_version"],
            )
        except ServiceError as exc:
            error = str(exc)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(
                request, _("Saved the assessment of %(team)s.") % {"team": teachback.team}
            )
        return redirect(f"{reverse('games:assessments', args=[session.pk])}#tb-{teachback.pk}")
    posted = {
        "scores": form.scores() if form.is_valid() else {},
        "comment": form.data.get("comment", ""),
    }
    context = assessment_row_page(session, teachback, posted=posted, error=error)
    return render(request, f"{ASSESSMENTS_TEMPLATE}#row", context)


@require_POST
def teachback_lock(request: HtmxHttpRequest, session_pk: int) -> HttpResponse:
    session = access.get_session_for_assessor(request, session_pk)
    try:
        if request.POST.get("action") == "unlock":
            services.session_unlock_teachbacks(session=session, by=request.user)
            messages.success(request, _("Teams can change their sentences again."))
        else:
            services.session_lock_teachbacks(session=session, by=request.user)
            messages.success(request, _("Sentences locked: teams can no longer change them."))
            if grades.link_for_session(session) is not None:
                messages.info(
                    request,
                    _("The assessed scores are on their way to the LMS gradebook."),
                )
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("games:assessments", session_pk=session.pk)


@require_POST
def spotlight(request: HtmxHttpRequest, session_pk: int) -> HttpResponse:
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
    # The insights page sends its own address, so the teacher goes back to the patterns.
    return redirect(safe_next(request) or reverse("games:assessments", args=[session.pk]))


@require_GET
def spotlight_projector(request: HtmxHttpRequest, session_pk: int) -> HttpResponse:
    """The spotlight on the projector; the poll re-draws it (`spotlight_region`)."""
    session = access.get_session_for_reader(request, session_pk)
    spotlight_watch = watch.Watch(watch.SPOTLIGHT, session.pk, user_id=request.user.pk)
    # The stamp before the content: a change in between is drawn again, never missed.
    urls = watch.topic_page_urls(spotlight_watch)
    context = {"session": session, **spotlight_context(session), **urls}
    return render_for_projector(request, session, SPOTLIGHT_TEMPLATE, context)


@watch.redraws(watch.SPOTLIGHT)
def spotlight_region(request: HtmxHttpRequest, seen: watch.Seen) -> HttpResponse:
    if request.user.pk != seen.watch.user_id:
        raise Http404("This screen belongs to someone else.")
    session = access.get_session_for_reader(request, seen.watch.session_id)
    context = {"session": session, **spotlight_context(session), **watch.redrawn_urls(seen)}
    return render_for_projector(request, session, f"{SPOTLIGHT_TEMPLATE}#spotlight", context)


# -- the rubric editor -----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def rubric_edit(request: HtmxHttpRequest, class_pk: int) -> HttpResponse:
    if request.method == "POST":
        classroom = access.get_class_for_rubric_editor(request, class_pk)
    else:
        classroom = access.get_class_for_rubric_reader(request, class_pk)
    page = rubric_page(
        classroom, can_edit=classroom_access.is_class_teacher(request.user, classroom)
    )
    error = None
    if request.method != "POST":
        formset = CriterionFormSet(initial=criterion_rows(page["criteria"]))
    elif "add" in request.POST:
        formset = formset_with_blank_row(request.POST)
    else:
        formset = CriterionFormSet(request.POST)
        if formset.is_valid():
            try:
                saved = rubric_update(
                    classroom=classroom, criteria=criteria_from_formset(formset), by=request.user
                )
            except ServiceError as exc:
                error = str(exc)
            else:
                messages.success(request, _saved_note(page["rubric"], saved))
                return redirect(safe_next(request) or reverse("games:rubric_edit", args=[class_pk]))
    context = {**page, "formset": formset, "error": error, "next": safe_next(request)}
    return render(request, RUBRIC_TEMPLATE, context)


def _saved_note(before, saved) -> str:
    if saved.version != before.version:
        return _("Version %(new)s — your earlier scores keep version %(old)s.") % {
            "new": saved.version,
            "old": before.version,
        }
    return _("Rubric saved (version %(version)s).") % {"version": saved.version}
