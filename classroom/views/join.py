"""Students' devices: the join page (room code, then name), and the device's own page that
waits for the tables to start. No account: the device holds a signed cookie."""

import re

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from classroom import selectors, services, throttle, watch
from classroom.devices import clear_device_cookie, current_binding, set_device_cookie
from classroom.models import DeviceBinding, Session, SessionStatus
from classroom.models.sessions import ROOM_CODE_LENGTH

_NOT_CODE = re.compile(r"[\s\-]")


def normalise_code(raw: str) -> str:
    """Room codes are typed on phones: ignore case, spaces and dashes."""
    return _NOT_CODE.sub("", raw).upper()[: ROOM_CODE_LENGTH * 2]


def _find_session(code: str) -> Session | None:
    if len(code) != ROOM_CODE_LENGTH:
        return None
    return (
        Session.objects.select_related("classroom")
        .filter(room_code=code, status__in=Session.JOINABLE_STATUSES)
        .first()
    )


@never_cache
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest) -> HttpResponse:
    response = _join(request)
    throttle.ensure_browser_cookie(request, response)
    return response


def _join(request: HttpRequest) -> HttpResponse:
    current = current_binding(request)
    raw = request.POST.get("code") if request.method == "POST" else request.GET.get("code")
    context: dict = {"current": current, "code": "", "error": ""}
    if raw is None:
        return render(request, "classroom/join.html", context)
    refusal = throttle.join_refusal(request)
    if refusal is not None:
        context["error"] = refusal.message
        response = render(request, "classroom/join.html", context, status=429)
        response["Retry-After"] = str(refusal.wait_seconds)
        return response
    code = normalise_code(raw)
    context["code"] = code
    session = _find_session(code)
    if session is None:
        if code:
            throttle.join_miss(request)
        context["error"] = (
            gettext(
                "No game is open with the code “%(code)s”. Check the code on the board and try "
                "again."
            )
            % {"code": code}
            if code
            else gettext("Type the room code shown on the board.")
        )
        return render(request, "classroom/join.html", context, status=400 if code else 200)
    context["session"] = session
    context["students"] = selectors.joinable_students(session, current)
    context["names"] = selectors.join_names(session, current)
    context["any_taken"] = any(taken for _, taken in context["names"])
    if request.method == "POST" and "student" in request.POST:
        chosen = next(
            (s for s in context["students"] if str(s.pk) == request.POST["student"]), None
        )
        if chosen is None:
            context["error"] = gettext(
                "That name is not free: another device has it. Pick your own name, or ask "
                "your teacher to free it."
            )
            return render(request, "classroom/join.html", context, status=400)
        try:
            binding = services.device_join(session=session, student=chosen, current=current)
        except services.ServiceError as exc:
            context["error"] = str(exc)
            return render(request, "classroom/join.html", context, status=409)
        response = redirect("classroom:device_home")
        set_device_cookie(response, binding, secure=request.is_secure())
        return response
    return render(request, "classroom/join.html", context)


@never_cache
def device_home(request: HttpRequest) -> HttpResponse:
    """The device's own page, until the teacher starts the tables. Its region is re-drawn by the
    poll (`device_lobby_region`), which sends the device on to the game once they are."""
    binding = current_binding(request)
    if binding is None:
        return redirect("classroom:join")
    services.device_seen(binding=binding)
    # The stamps before what is drawn (the session's status read again after them): a change
    # in between is drawn again, never missed.
    urls = watch.topic_page_urls(_device_lobby_watch(binding))
    binding.session.refresh_from_db(fields=["status"])
    if binding.session.status == SessionStatus.PLAYING:
        return redirect("games:device")
    return render(request, "classroom/device_home.html", {**_device_lobby(binding), **urls})


def _device_lobby_watch(binding: DeviceBinding) -> watch.Watch:
    return watch.Watch(watch.DEVICE_LOBBY, binding.session_id, binding_id=binding.pk)


def _device_lobby(binding: DeviceBinding) -> dict:
    team, mates = selectors.device_teammates(binding)
    return {"binding": binding, "session": binding.session, "team": team, "mates": mates}


@watch.redraws(watch.DEVICE_LOBBY)
def device_lobby_region(request: HttpRequest, seen: watch.Seen) -> HttpResponse:
    binding = current_binding(request)
    if binding is None:
        return HttpResponseClientRedirect(reverse("classroom:join"))
    if binding.pk != seen.watch.binding_id:
        return HttpResponseClientRedirect(reverse("classroom:device_home"))
    if binding.session.status == SessionStatus.PLAYING:
        return HttpResponseClientRedirect(reverse("games:device"))
    context = {**_device_lobby(binding), **watch.redrawn_urls(seen)}
    return render(request, "classroom/device_home.html#waiting", context)


@require_POST
def device_leave(request: HttpRequest) -> HttpResponse:
    binding = current_binding(request)
    if binding is not None:
        services.device_leave(binding=binding)
        messages.info(
            request, gettext("%(name)s left this device.") % {"name": binding.student.name}
        )
    response = redirect("classroom:join")
    clear_device_cookie(response)
    return response
