"""The LMS's doors: OIDC login initiation and the launch every LTI message posts to."""

from urllib.parse import urlencode

from django.contrib.auth import login as sign_in
from django.contrib.auth import logout as sign_out
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from pylti1p3.contrib.django import DjangoOIDCLogin
from pylti1p3.contrib.django.request import DjangoRequest
from pylti1p3.exception import LtiException, OIDCException

from classroom.devices import current_binding, set_device_cookie
from classroom.lti import launch as lti_launch
from classroom.lti.frame import IframeCookieService, allow_frame, mark_framed, origin_of
from classroom.lti.params import storable
from classroom.lti.privacy import privacy_screen
from classroom.lti.storage import DatabaseLaunchDataStorage, sweep_expired
from classroom.lti.tool_config import BotBenchToolConf

LOGIN_PARAMS = (
    "iss",
    "login_hint",
    "target_link_uri",
    "lti_message_hint",
    "lti_deployment_id",
    "client_id",
)
LEARNER_KEY = "lti_learner"
DEEP_LINK_KEY = "lti_deep_link"


def _request_origin(request: HttpRequest) -> str | None:
    """The page that sent this request: its Origin header (a POST), else its Referer's origin
    (a GET in a frame). Only used to let that page frame a refusal or the cookie check."""
    origin = request.headers.get("Origin")
    if origin and origin != "null":
        return origin_of(origin)
    return origin_of(request.headers.get("Referer"))


def refused(request: HttpRequest, refusal: lti_launch.Refusal, status: int = 403) -> HttpResponse:
    """A clear page, in the frame it was asked from; nothing was written."""
    response = render(
        request,
        "lti/refused.html",
        {"message": refusal.message, "reason": refusal.reason},
        status=status,
    )
    origin = _request_origin(request)
    allow_frame(response, [origin] if origin else [])
    return response


@csrf_exempt
@never_cache
@require_http_methods(["GET", "POST"])
def login(request: HttpRequest) -> HttpResponse:
    """OIDC third-party login initiation. In a frame, first a page checks that the browser
    keeps cookies there; where it does not, it offers to open BotBench in a new window."""
    params = request.POST if request.method == "POST" else request.GET
    login_params = {key: params[key] for key in LOGIN_PARAMS if params.get(key)}
    if (
        not login_params.get("iss")
        or not login_params.get("login_hint")
        or not all(storable(value, 2000) for value in login_params.values())
    ):
        return refused(request, lti_launch.Refusal("malformed"), status=400)
    query = urlencode({**login_params, "cookies_checked": "1"})
    if not params.get("cookies_checked"):
        response = render(
            request,
            "lti/cookie_check.html",
            {"continue_url": f"{reverse('lti:login')}?{query}"},
        )
        origin = _request_origin(request)
        allow_frame(response, [origin] if origin else ["*"])
        return response
    sweep_expired()
    django_request = DjangoRequest(request)
    oidc = DjangoOIDCLogin(
        django_request,
        BotBenchToolConf(),
        cookie_service=IframeCookieService(django_request),
        launch_data_storage=DatabaseLaunchDataStorage(),
    )
    try:
        # The launch URL is always BotBench's own: target_link_uri is never followed blindly.
        return oidc.pass_params_to_launch(login_params).redirect(
            request.build_absolute_uri(reverse("lti:launch"))
        )
    except (LtiException, OIDCException):
        return refused(request, lti_launch.Refusal("unknown_issuer"))


def _frame_origins(request: HttpRequest, launch: lti_launch.CheckedLaunch) -> list[str]:
    presentation = launch.claims.get(lti_launch.CLAIM + "launch_presentation") or {}
    candidates = [
        _request_origin(request),
        origin_of(presentation.get("return_url")),
        origin_of(launch.platform.issuer),
        origin_of(launch.platform.auth_url),
    ]
    return [origin for origin in candidates if origin]


def _cookies_blocked(request: HttpRequest) -> HttpResponse:
    params = lti_launch.LtiLaunchStateKeys.login_params(request.POST.get("state", ""))
    if not params:
        return refused(request, lti_launch.Refusal("replayed"))
    new_window_url = f"{reverse('lti:login')}?{urlencode({**params, 'cookies_checked': '1'})}"
    response = render(request, "lti/cookies_blocked.html", {"new_window_url": new_window_url})
    origin = _request_origin(request)
    allow_frame(response, [origin] if origin else [])
    return response


@csrf_exempt
@never_cache
@require_POST
def launch(request: HttpRequest) -> HttpResponse:
    """Every LTI message: resource link, deep linking and data privacy launches."""
    id_token, state = request.POST.get("id_token"), request.POST.get("state")
    if not id_token or not state or not storable(id_token, 20000) or not storable(state, 200):
        return refused(request, lti_launch.Refusal("malformed"))
    if lti_launch.state_cookie_missing(request):
        return _cookies_blocked(request)
    try:
        checked = lti_launch.check_launch(request)
        response = _answer(request, checked)
    except lti_launch.Refusal as refusal:
        return refused(request, refusal)
    mark_framed(response, _frame_origins(request, checked))
    return response


def _answer(request: HttpRequest, checked: lti_launch.CheckedLaunch) -> HttpResponse:
    message_type = checked.message_type
    if message_type == "DataPrivacyLaunchRequest":
        context = privacy_screen(checked)
        if context["teacher"] is not None and context["teacher"].is_active:
            # The delete links are the teacher's own pages: they open signed in.
            sign_in(request, context["teacher"])
        return render(request, "lti/privacy.html", context)
    if message_type == "LtiDeepLinkingRequest":
        teacher, course = lti_launch.instructor_arrive(launch=checked)
        sign_in(request, teacher)
        request.session[DEEP_LINK_KEY] = {"launch": checked.launch_id, "course": course.pk}
        return redirect("lti:deep-link")
    if message_type != "LtiResourceLinkRequest":
        raise lti_launch.Refusal("wrong_message")
    if checked.is_instructor:
        teacher, course = lti_launch.instructor_arrive(launch=checked)
        link = lti_launch.link_arrive(launch=checked, course=course, by_instructor=True)
        sign_in(request, teacher)
        return redirect("lti:activity", pk=link.pk)
    student, course, binding = lti_launch.learner_arrive(
        launch=checked, current=current_binding(request)
    )
    # A learner's launch signs out any adult this browser held (a shared classroom computer).
    sign_out(request)
    request.session[LEARNER_KEY] = {"student": student.pk, "course": course.pk}
    if binding is None:
        return redirect("lti:learner")
    response = redirect("classroom:device_home")
    set_device_cookie(response, binding, secure=True)
    return response
