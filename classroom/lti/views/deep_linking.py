"""The teacher's lesson picker of a deep-linking launch, and the signed answer to the LMS."""

from django import forms
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from classroom import access
from classroom.lti.deep_linking import deep_link_answer
from classroom.lti.frame import origin_of
from classroom.lti.launch import Refusal
from classroom.lti.views.launch import DEEP_LINK_KEY, refused


class ActivityForm(forms.Form):
    choice = forms.ChoiceField(
        label=_("Lesson"),
        widget=forms.RadioSelect,
        choices=[
            ("bot_builders_teachback", _("Bot-Builders lesson with teach-back (graded)")),
            ("three_laws", _("3 Laws of Robotics lesson")),
        ],
        initial="bot_builders_teachback",
    )
    title = forms.CharField(
        label=_("Title in the course"), max_length=120, initial=_("BotBench lesson")
    )


@never_cache
@require_http_methods(["GET", "POST"])
def deep_link(request: HttpRequest) -> HttpResponse:
    held = request.session.get(DEEP_LINK_KEY)
    if not isinstance(held, dict):
        return refused(request, Refusal("replayed"), status=400)
    course = access.get_lti_course_for_teacher(request, held.get("course"))
    form = ActivityForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            return_url, token = deep_link_answer(
                request,
                launch_id=held.get("launch", ""),
                course=course,
                choice=form.cleaned_data["choice"],
                title=form.cleaned_data["title"],
                by=request.user,
            )
        except Refusal as refusal:
            return refused(request, refusal, status=400)
        request.session.pop(DEEP_LINK_KEY, None)
        response = render(
            request, "lti/deep_link_return.html", {"return_url": return_url, "token": token}
        )
        # The answer is a form posted to the LMS: allow that one form target.
        target = origin_of(return_url)
        if target:
            response._csp_config = {
                **settings.SECURE_CSP,
                "form-action": [*settings.SECURE_CSP.get("form-action", []), target],
            }
        return response
    return render(request, "lti/deep_link.html", {"form": form, "course": course})
