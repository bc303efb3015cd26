"""The administrator's retention page: set how long archived classes keep their students'
data, see what that deletes today (a dry run), and confirm to delete it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from classroom import services as classroom_services
from classroom.services import ServiceError
from reports import access
from reports.forms import PurgeConfirmForm, RetentionForm
from reports.retention import archived_data_count, archived_data_purge

TEMPLATE = "reports/retention.html"


def _summary(counts) -> str:
    # The English wording (with its "(s)") is what the tests and the people know; one sentence
    # with placeholders, so Spanish can order it its own way.
    return gettext(
        "Deleted %(students)s student(s), %(devices)s device(s), %(teachbacks)s teach-back(s) "
        "and %(exports)s export(s) of %(classes)s archived class(es)."
    ) % {
        "students": counts.students,
        "devices": counts.devices,
        "teachbacks": counts.teachbacks,
        "exports": counts.exports,
        "classes": counts.classes,
    }


@login_required
@require_http_methods(["GET", "POST"])
def retention(request: HttpRequest) -> HttpResponse:
    school = access.get_school(request)
    action = request.POST.get("action") if request.method == "POST" else None
    form = RetentionForm(
        request.POST if action == "save" else None,
        initial={"months": school.retention_months},
    )
    confirm = PurgeConfirmForm(request.POST if action == "purge" else None)
    if action == "save" and form.is_valid():
        try:
            classroom_services.school_retention_set(
                school=school, months=form.cleaned_data["months"], by=request.user
            )
        except ServiceError as exc:
            form.add_error("months", str(exc))
        else:
            messages.success(request, gettext("Retention setting saved."))
            return redirect("reports:retention")
    if action == "purge" and confirm.is_valid():
        try:
            deleted = archived_data_purge(school=school, by=request.user)
        except ServiceError as exc:
            confirm.add_error(None, str(exc))
        else:
            messages.success(request, _summary(deleted))
            return redirect("reports:retention")
    counts = archived_data_count(school=school)
    context = {
        "school": school,
        "form": form,
        "confirm": confirm,
        "counts": counts,
    }
    status = 400 if form.errors or confirm.errors else 200
    return render(request, TEMPLATE, context, status=status)
