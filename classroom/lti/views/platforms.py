"""A school administrator's LMS pages: register a platform by hand, see BotBench's URLs to copy,
manage deployment IDs, and make a one-time Dynamic Registration link."""

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from classroom import access
from classroom.lti import registration
from classroom.models import LtiPlatform, LtiRegistrationLink
from classroom.services.errors import ServiceError


class PlatformForm(forms.ModelForm):
    deployment_ids = forms.CharField(
        label=_("Deployment IDs"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("One a line, as the LMS shows them. You can add more later."),
    )

    class Meta:
        model = LtiPlatform
        fields = ["name", "issuer", "client_id", "auth_url", "token_url", "keyset_url", "audience"]
        help_texts = {
            "issuer": _("For example https://canvas.instructure.com."),
            "audience": _("Only if the LMS names one (Moodle and Canvas do not)."),
        }

    def validate_unique(self):
        # The service says so in words; the form only checks the fields.
        pass


class DeploymentForm(forms.Form):
    deployment_id = forms.CharField(label=_("Deployment ID"), max_length=255)


def _page(request: HttpRequest, form: PlatformForm, status: int = 200) -> HttpResponse:
    platforms = access.lti_platforms_for_admin(request).prefetch_related("deployments")
    school = request.user.school
    links = LtiRegistrationLink.objects.filter(school=school, used_at__isnull=True)[:5]
    return render(
        request,
        "lti/platforms.html",
        {
            "platforms": platforms,
            "form": form,
            "urls": registration.tool_urls(request),
            "links": [
                (
                    link,
                    request.build_absolute_uri(reverse("lti:dynamic-register"))
                    + f"?link={link.token}",
                )
                for link in links
                if link.is_usable
            ],
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
def platforms(request: HttpRequest) -> HttpResponse:
    access.lti_platforms_for_admin(request)
    form = PlatformForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            platform = registration.platform_register(
                school=request.user.school,
                by=request.user,
                deployment_ids=data["deployment_ids"].splitlines(),
                **{k: v for k, v in data.items() if k != "deployment_ids"},
            )
        except ServiceError as exc:
            form.add_error(None, str(exc))
            return _page(request, form, status=400)
        messages.success(request, gettext("%(name)s is registered.") % {"name": platform.name})
        return redirect("lti:platform", pk=platform.pk)
    return _page(request, form, status=400 if form.errors else 200)


@require_http_methods(["GET", "POST"])
def platform(request: HttpRequest, pk: int) -> HttpResponse:
    platform = access.get_lti_platform_for_admin(request, pk)
    form = PlatformForm(request.POST or None, instance=platform)
    form.fields.pop("deployment_ids")
    if request.method == "POST" and form.is_valid():
        try:
            registration.platform_update(
                platform=LtiPlatform.objects.get(pk=platform.pk), **form.cleaned_data
            )
        except ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, gettext("Saved."))
            return redirect("lti:platform", pk=platform.pk)
    return render(
        request,
        "lti/platform_detail.html",
        {
            "platform": LtiPlatform.objects.get(pk=platform.pk),
            "form": form,
            "deployment_form": DeploymentForm(),
            "urls": registration.tool_urls(request),
        },
        status=400 if form.errors else 200,
    )


@require_POST
def deployment_add(request: HttpRequest, pk: int) -> HttpResponse:
    platform = access.get_lti_platform_for_admin(request, pk)
    form = DeploymentForm(request.POST)
    if form.is_valid():
        try:
            registration.deployment_add(
                platform=platform, deployment_id=form.cleaned_data["deployment_id"]
            )
        except ServiceError as exc:
            messages.error(request, str(exc))
    else:
        messages.error(request, gettext("Type the deployment ID the LMS shows."))
    return redirect("lti:platform", pk=platform.pk)


@require_POST
def deployment_remove(request: HttpRequest, pk: int, deployment_pk: int) -> HttpResponse:
    platform = access.get_lti_platform_for_admin(request, pk)
    try:
        registration.deployment_remove(platform=platform, pk=deployment_pk)
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("lti:platform", pk=platform.pk)


@require_POST
def platform_active(request: HttpRequest, pk: int) -> HttpResponse:
    platform = access.get_lti_platform_for_admin(request, pk)
    registration.platform_update(platform=platform, is_active=request.POST.get("active") == "1")
    return redirect("lti:platform", pk=platform.pk)


@require_POST
def registration_link(request: HttpRequest) -> HttpResponse:
    access.lti_platforms_for_admin(request)
    registration.registration_link_create(school=request.user.school, by=request.user)
    messages.success(request, gettext("A registration link is ready: paste it into the LMS."))
    return redirect("lti:platforms")
