"""The poll every live screen makes: on its stream's word that something changed, and on a
slow fallback (see games/live.py for the protocol).

Unchanged: 204, decided from the signed token and the cache alone, with no database query
(the unchanged-poll middleware usually answers it before the rest of the stack).
Changed: the screen's redraw, registered by the module that draws its page
(classroom.watch.redraws), which checks who asks as the page does and sends the region.
This module registers the screens of the games.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from classroom import watch
from classroom.access import is_class_teacher
from classroom.watch import DEVICE, GRID, PROJECTOR, TEACHER, WAITING
from games import live
from games.access import (
    get_device,
    get_game_for_device,
    get_game_for_viewer,
    get_session_for_viewer,
    get_session_versions,
)
from games.views.projector import render_for_projector
from games.views.regions import (
    cached_device_region,
    device_region,
    grid_region,
    render_dashboard,
)
from games.views.screens import projector_screen


@require_GET
def poll(request: HttpRequest) -> HttpResponse:
    seen = live.quick_answer(request.GET.get("t", ""), request.GET.get("v", ""))
    if isinstance(seen, HttpResponse):
        return seen
    redraw = watch.redraw_of(seen.watch.view)
    if redraw is None:  # a screen of an app this site does not serve
        return live.reload_answer()
    return redraw(request, seen)


def _viewer_only(request: HttpRequest, seen: watch.Seen) -> None:
    if request.user.pk != seen.watch.user_id:
        raise Http404("This screen belongs to someone else.")


@watch.redraws(WAITING)
def _waiting(request: HttpRequest, seen: live.Fingerprint) -> HttpResponse:
    if get_device(request).pk != seen.watch.binding_id:
        raise Http404("This screen belongs to another device.")
    return live.reload_answer()


@watch.redraws(DEVICE)
def _device(request: HttpRequest, seen: live.Fingerprint) -> HttpResponse:
    served = cached_device_region(request, seen.watch)
    if served is not None:
        return served
    ds = get_game_for_device(request, seen.watch.game_ids[0])
    if ds.binding.pk != seen.watch.binding_id or ds.seat != seen.watch.seat:
        return live.reload_answer()
    return device_region(request, ds)


@watch.redraws(PROJECTOR)
def _projector(request: HttpRequest, seen: live.Fingerprint) -> HttpResponse:
    _viewer_only(request, seen)
    game = get_game_for_viewer(request, seen.watch.game_ids[0])
    can_control = is_class_teacher(request.user, game.session.classroom)
    context = projector_screen(game, seen.watch.user_id, can_control=can_control)
    return render_for_projector(request, game.session, "games/projector.html#live", context)


@watch.redraws(GRID)
def _grid(request: HttpRequest, seen: live.Fingerprint) -> HttpResponse:
    _viewer_only(request, seen)
    return grid_region(request, seen)


@watch.redraws(TEACHER)
def _dashboard(request: HttpRequest, seen: live.Fingerprint) -> HttpResponse:
    _viewer_only(request, seen)
    # get_session_for_viewer's rule in the grid's one statement, which brings the class the
    # dashboard needs; when it does not allow the request, get_session_for_viewer says so (404).
    now = get_session_versions(request, seen.watch.session_id)
    if now is None:
        return render_dashboard(request, get_session_for_viewer(request, seen.watch.session_id))
    return render_dashboard(request, now.session)
