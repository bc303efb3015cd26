"""LTI Dynamic Registration: the LMS opens BotBench's one-time link (made by the school's
administrator) with its OpenID configuration and a registration token."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from classroom.lti import registration
from classroom.lti.frame import allow_frame, origin_of
from classroom.lti.params import storable
from classroom.models import LtiRegistrationLink
from classroom.services.errors import ServiceError


def _framed(response: HttpResponse, openid_configuration: str) -> HttpResponse:
    origin = origin_of(openid_configuration)
    allow_frame(response, [origin] if origin else [])
    return response


# The one-time link's token is the secret that authorises this form (the LMS shows it in its own
# frame, where BotBench's Lax CSRF cookie is not sent), so CSRF protection adds nothing here.
@csrf_exempt
@never_cache
@require_http_methods(["GET", "POST"])
def dynamic_register(request: HttpRequest) -> HttpResponse:
    params = request.POST if request.method == "POST" else request.GET
    token = params.get("link", "")[:64]
    openid_configuration = params.get("openid_configuration", "")[:2000]
    registration_token = params.get("registration_token", "")[:4000]
    values = (token, openid_configuration, registration_token)
    link = (
        LtiRegistrationLink.objects.select_related("school").filter(token=token).first()
        if all(storable(value, 4000) for value in values)
        else None
    )
    context = {
        "link": link,
        "openid_configuration": openid_configuration,
        "registration_token": registration_token,
    }
    if link is None or not link.is_usable or not openid_configuration:
        context["error"] = "missing" if link is not None and link.is_usable else "link"
        return _framed(
            render(request, "lti/dynamic_register.html", context, status=400),
            openid_configuration,
        )
    if request.method == "POST":
        try:
            platform = registration.dynamic_register(
                link=link,
                openid_configuration=openid_configuration,
                registration_token=registration_token,
                urls=registration.tool_urls(request),
            )
        except ServiceError as exc:
            context["message"] = str(exc)
            return _framed(
                render(request, "lti/dynamic_register.html", context, status=400),
                openid_configuration,
            )
        return _framed(
            render(request, "lti/dynamic_done.html", {"platform": platform}),
            openid_configuration,
        )
    return _framed(render(request, "lti/dynamic_register.html", context), openid_configuration)
