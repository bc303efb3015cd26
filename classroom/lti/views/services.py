"""The teacher's pages for the LMS services: the roster sync (preview, then apply) and the
gradebook status of a session's scores (sent / waiting / refused, with the LMS's words)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from classroom import access
from classroom.lti import grades, roster, selectors
from classroom.services import ServiceError

ROSTER_TEMPLATE = "classroom/lti/roster.html"
GRADES_TEMPLATE = "classroom/lti/grades.html"


@login_required
@require_http_methods(["GET", "POST"])
def roster_sync(request: HttpRequest, class_pk: int) -> HttpResponse:
    course = access.get_lti_course_for_class_teacher(request, class_pk)
    error = None
    if request.method == "POST":
        try:
            changes = roster.roster_apply(
                course=course, by=request.user, fingerprint=request.POST.get("fingerprint", "")
            )
        except ServiceError as exc:
            error = str(exc)
        else:
            if changes.is_empty:
                messages.info(request, gettext("Nothing to change: the roster matches the LMS."))
            else:
                messages.success(
                    request,
                    gettext("Roster synced: %(added)s added, %(archived)s archived, %(back)s back.")
                    % {
                        "added": len(changes.arrivals),
                        "archived": len(changes.departures),
                        "back": len(changes.returns),
                    },
                )
            return redirect(course.classroom)
    try:
        changes = roster.roster_preview(course=course)
    except ServiceError as exc:
        changes, error = None, error or str(exc)
    context = {"classroom": course.classroom, "course": course, "changes": changes, "error": error}
    return render(request, ROSTER_TEMPLATE, context, status=400 if error and changes else 200)


@login_required
@require_http_methods(["GET"])
def grades_status(request: HttpRequest, session_pk: int) -> HttpResponse:
    session = access.get_session_for_grades(request, session_pk)
    link, rows = selectors.session_grades(session)
    context = {
        "session": session,
        "link": link,
        "rows": rows,
        "counts": selectors.grade_counts(session),
        "can_send": access.is_class_teacher(request.user, session.classroom),
        "locked": session.teachbacks_locked_at is not None,
    }
    return render(request, GRADES_TEMPLATE, context)


@login_required
@require_POST
def grades_send_again(request: HttpRequest, session_pk: int) -> HttpResponse:
    session = access.get_session_for_grades_teacher(request, session_pk)
    count = grades.scores_send_again(session=session)
    messages.success(
        request,
        ngettext(
            "%(count)s score will be sent again.", "%(count)s scores will be sent again.", count
        )
        % {"count": count},
    )
    return redirect("lti:grades", session_pk=session.pk)
