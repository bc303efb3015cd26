"""The poll every live screen makes every 1.5 seconds (see games/live.py for the protocol).

Unchanged: 204, decided from the signed token and the cache alone, with no database query.
Changed: the full permission check, then the re-drawn region.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from classroom.access import is_class_teacher
from games import live
from games.access import (
    get_device,
    get_game_for_device,
    get_game_for_viewer,
    get_session_for_viewer,
)
from games.views.projector import render_for_projector
from games.views.regions import (
    cached_device_region,
    device_region,
    grid_region,
    render_dashboard,
)
from games.views.screens import projector_screen


def _reload() -> HttpResponse:
    """Ask the page to load itself again (a new token, or the page it should now be on)."""
    return HttpResponse(status=204, headers={"HX-Refresh": "true"})


def quick_answer(request: HttpRequest) -> HttpResponse | None:
    """The poll's answer when it needs neither the database nor the person: a token that is
    not ours (reload) or a screen that is current (204). None: something changed, and what
    the cache says now (the token's watch, its tables' versions and session stamp) is kept as
    `request.live_seen` (UnchangedPollMiddleware asks first, and the view must not read the
    cache a second time)."""
    if getattr(request, "live_seen", None) is not None:
        return None
    watch = live.read(request.GET.get("t", ""))
    if watch is None:
        return _reload()
    now = live.current_fingerprint(watch)
    if now.render() == request.GET.get("v", ""):
        return HttpResponse(status=204)
    request.live_seen = now
    return None


@require_GET
def poll(request: HttpRequest) -> HttpResponse:
    answer = quick_answer(request)
    if answer is not None:
        return answer
    return _redraw(request, request.live_seen)


def _redraw(request: HttpRequest, seen: live.Fingerprint) -> HttpResponse:
    watch = seen.watch
    if watch.view == live.WAITING:
        if get_device(request).pk != watch.binding_id:
            raise Http404("This screen belongs to another device.")
        return _reload()
    if watch.view == live.DEVICE:
        served = cached_device_region(request, watch)
        if served is not None:
            return served
        ds = get_game_for_device(request, watch.game_ids[0])
        if ds.binding.pk != watch.binding_id or ds.seat != watch.seat:
            return _reload()
        return device_region(request, ds)
    if request.user.pk != watch.user_id:
        raise Http404("This screen belongs to someone else.")
    if watch.view == live.PROJECTOR:
        game = get_game_for_viewer(request, watch.game_ids[0])
        can_control = is_class_teacher(request.user, game.session.classroom)
        context = projector_screen(game, watch.user_id, can_control=can_control)
        return render_for_projector(request, game.session, "games/projector.html#live", context)
    if watch.view == live.GRID:
        return grid_region(request, seen)
    session = get_session_for_viewer(request, watch.session_id)
    return render_dashboard(request, session, "games/teacher_tables.html#live")
