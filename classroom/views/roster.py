"""Rosters: adding students by pasting or a CSV file, editing, removing, exporting one."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from classroom import access, selectors, services
from classroom.forms import CsvRosterForm, PasteRosterForm, StudentForm


def _roster_form_page(request, classroom, form, *, kind: str) -> HttpResponse:
    context = {"classroom": classroom, "form": form, "kind": kind}
    status = 400 if form.is_bound else 200
    return render(request, "classroom/roster_form.html", context, status=status)


def _add(request: HttpRequest, classroom, form) -> HttpResponse | None:
    """The shared tail of both ways in: save all the entries or none, and say which."""
    field = "names" if isinstance(form, PasteRosterForm) else "file"
    try:
        added = services.roster_add(
            classroom=classroom, entries=form.cleaned_data[field], by=request.user
        )
    except services.ServiceError as exc:
        form.add_error(field, str(exc))
        return None
    messages.success(
        request,
        ngettext("Added %(count)s student.", "Added %(count)s students.", len(added))
        % {"count": len(added)},
    )
    return redirect(classroom)


@login_required
@require_http_methods(["GET", "POST"])
def roster_paste(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = access.get_class_for_teacher(request, pk)
    form = PasteRosterForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and (done := _add(request, classroom, form)):
        return done
    return _roster_form_page(request, classroom, form, kind="paste")


@login_required
@require_http_methods(["GET", "POST"])
def roster_upload(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = access.get_class_for_teacher(request, pk)
    form = CsvRosterForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid() and (done := _add(request, classroom, form)):
        return done
    return _roster_form_page(request, classroom, form, kind="upload")


@login_required
@require_http_methods(["GET", "POST"])
def student_edit(request: HttpRequest, pk: int) -> HttpResponse:
    student = access.get_student_for_teacher(request, pk)
    form = StudentForm(request.POST or None, instance=student)
    if request.method == "POST" and form.is_valid():
        try:
            services.student_update(
                student=student,
                by=request.user,
                name=form.cleaned_data["name"],
                birth_month=form.cleaned_data["birth_month"],
            )
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, gettext("Student saved."))
            return redirect(student.classroom)
    student.refresh_from_db()
    status = 400 if form.is_bound else 200
    return render(
        request, "classroom/student_form.html", {"form": form, "student": student}, status=status
    )


@login_required
@require_http_methods(["GET", "POST"])
def student_delete(request: HttpRequest, pk: int) -> HttpResponse:
    student = access.get_student_for_teacher(request, pk)
    if request.method == "POST":
        classroom = student.classroom
        services.student_delete(student=student, by=request.user)
        messages.success(
            request,
            gettext("%(student)s was removed from %(class)s.")
            % {"student": student.name, "class": classroom.name},
        )
        return redirect(classroom)
    return render(request, "classroom/student_confirm_delete.html", {"student": student})


@login_required
@require_GET
def student_export(request: HttpRequest, pk: int) -> HttpResponse:
    student = access.get_student_for_admin(request, pk)
    data = selectors.student_export_data(student)
    response = HttpResponse(
        json.dumps(data, indent=2, ensure_ascii=False), content_type="application/json"
    )
    filename = f"student-{slugify(student.name) or student.pk}-{student.pk}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
