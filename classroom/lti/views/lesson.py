"""After a launch: the teacher's page for the LMS activity (start the lesson in one click) and
the learner's page while no lesson is open."""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from classroom import access, services
from classroom.devices import current_binding, set_device_cookie
from classroom.lti import grades
from classroom.lti.launch import open_session_of
from classroom.lti.views.launch import LEARNER_KEY


@never_cache
def activity(request: HttpRequest, pk: int) -> HttpResponse:
    link = access.get_lti_link_for_teacher(request, pk)
    classroom = link.course.classroom
    return render(
        request,
        "lti/activity.html",
        {"link": link, "classroom": classroom, "open_session": open_session_of(classroom)},
    )


@require_POST
def activity_start(request: HttpRequest, pk: int) -> HttpResponse:
    """Plan and open a session of the link's game for the course's class: students launching
    from the LMS land on it, no room code to type."""
    link = access.get_lti_link_for_teacher(request, pk)
    classroom = link.course.classroom
    session = open_session_of(classroom)
    if session is None:
        try:
            session = services.session_create(
                classroom=classroom,
                by=request.user,
                date=timezone.localdate(),
                game=link.game,
                variant=link.variant,
                title=link.title[:120],
            )
            session = services.session_open(session=session, by=request.user)
        except services.ServiceError as exc:
            messages.error(request, str(exc))
            return redirect("lti:activity", pk=link.pk)
    # The activity's gradebook column receives this session's teach-back scores.
    grades.session_link(session=session, link=link)
    return redirect(session.get_absolute_url())


@never_cache
def learner(request: HttpRequest) -> HttpResponse:
    """A learner launched while no lesson was open: this page checks again when asked."""
    held = request.session.get(LEARNER_KEY)
    if not isinstance(held, dict):
        raise Http404("No learner launch in this browser.")
    student, course = access.get_lti_learner(request, held.get("student"), held.get("course"))
    session = open_session_of(course.classroom)
    if session is not None:
        try:
            binding = services.device_join(
                session=session, student=student, current=current_binding(request)
            )
        except services.ServiceError as exc:
            return render(request, "lti/learner.html", {"student": student, "error": str(exc)})
        response = redirect("classroom:device_home")
        set_device_cookie(response, binding, secure=True)
        return response
    return render(request, "lti/learner.html", {"student": student, "classroom": course.classroom})
