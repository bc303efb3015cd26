"""Classes: list, create, detail (roster and sessions), edit, archive, delete."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from classroom import access, selectors, services
from classroom.forms import ClassForm, CsvRosterForm, PasteRosterForm


@login_required
def class_list(request: HttpRequest) -> HttpResponse:
    access.classes_visible_to(request.user)  # an adult of a school, or nothing to list
    context = {
        "classes": selectors.classes_with_counts(request.user, archived=False),
        "archived": selectors.classes_with_counts(request.user, archived=True),
        "can_create": request.user.is_teacher,
    }
    return render(request, "classroom/class_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def class_create(request: HttpRequest) -> HttpResponse:
    teacher = access.require_teacher(request)
    form = ClassForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            classroom = services.class_create(by=teacher, **form.cleaned_data)
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(
                request,
                gettext("%(name)s is ready. Now add your students.") % {"name": classroom.name},
            )
            return redirect(classroom)
    return render(request, "classroom/class_form.html", {"form": form, "classroom": None})


@login_required
def class_detail(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = access.get_class_for_viewer(request, pk)
    context = {
        "classroom": classroom,
        "can_edit": access.is_class_teacher(request.user, classroom),
        "students": selectors.class_roster(classroom),
        "sessions": selectors.class_sessions(classroom),
        "lti_course": selectors.class_lti_course(classroom),
        "paste_form": PasteRosterForm(),
        "csv_form": CsvRosterForm(),
    }
    return render(request, "classroom/class_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def class_edit(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = access.get_class_for_teacher(request, pk)
    form = ClassForm(request.POST or None, instance=classroom)
    if request.method == "POST" and form.is_valid():
        try:
            services.class_update(classroom=classroom, by=request.user, **form.cleaned_data)
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, gettext("Class saved."))
            return redirect(classroom)
    # A refused edit must not leak into the page header: show the saved name there.
    classroom.refresh_from_db()
    return render(request, "classroom/class_form.html", {"form": form, "classroom": classroom})


@login_required
@require_POST
def class_archive(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = access.get_class_for_teacher(request, pk)
    services.class_archive(classroom=classroom, by=request.user)
    messages.success(
        request,
        gettext("%(name)s is archived: hidden from the dashboard.") % {"name": classroom.name},
    )
    return redirect(classroom)


@login_required
@require_POST
def class_unarchive(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = access.get_class_for_teacher(request, pk)
    services.class_unarchive(classroom=classroom, by=request.user)
    messages.success(
        request, gettext("%(name)s is back on your dashboard.") % {"name": classroom.name}
    )
    return redirect(classroom)


@login_required
@require_http_methods(["GET", "POST"])
def class_delete(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = access.get_class_for_teacher(request, pk)
    counts = selectors.class_deletion_counts(classroom)
    error = ""
    if request.method == "POST":
        if request.POST.get("confirm_name", "").strip().casefold() == classroom.name.casefold():
            name = classroom.name
            services.class_delete(classroom=classroom, by=request.user)
            messages.success(
                request,
                gettext("%(name)s and everything about its students was deleted.") % {"name": name},
            )
            return redirect("classroom:class_list")
        error = gettext("Type the class's name exactly to confirm. Nothing was deleted.")
    context = {"classroom": classroom, "counts": counts, "error": error}
    return render(
        request, "classroom/class_confirm_delete.html", context, status=400 if error else 200
    )
