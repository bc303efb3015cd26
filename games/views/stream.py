"""The Server-Sent Events stream every live screen holds (htmx's SSE extension connects to it).

The stream says only *that* the screen may be stale: `event: changed`, with no data. The screen
then asks for its region through the poll (games/views/poll.py), which checks permissions and
the viewer's secrets like any page. So nothing a viewer may not see ever travels in an event.

Who may hold a stream is checked when it connects: for a table's screen, the same checks as its
redraw; for a screen that watches topics only (a lobby, the spotlight, an export), that the
device or person is the one the page was drawn for (each redraw checks the rest). It is checked
again whenever the device's binding changes: a device the teacher frees gets `event: gone` (the
page closes its stream on it, and its next request sends it back to the join page) and the
stream ends; a reconnect is refused.

Events:
- `hello` once on connect, `ping` every PING_SECONDS: the page's fallback (static/js/live.js)
  polls faster while it hears neither, e.g. behind a proxy that buffers streams;
- `changed`: fetch the region;
- `gone`: this screen may no longer watch;
- `replaced`: a newer stream of the same device or address took this one's place (the limits
  of games/streams.py); it comes with a long `retry`, so the page does not take the place back
  at once and keeps itself current by its fallback poll meanwhile.

The view is async and so is the stream to the hub: sync work (the checks) runs in short calls on
the stream process's small shared pool (games/streams.py), so an idle stream holds no thread.

Streams need an ASGI server (uvicorn): under WSGI the view answers 503 and pages fall back to
polling, rather than tying up a worker thread for hours.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from classroom import push
from classroom.devices import DEVICE_COOKIE, forget_binding
from classroom.throttle import client_address
from classroom.watch import DEVICE, GRID, PROJECTOR, TEACHER, Watch, read
from games import live, streams
from games.access import (
    get_device,
    get_game_for_device,
    get_game_for_viewer,
    get_session_for_viewer,
)

PING_SECONDS = 20
# Browsers reconnect this long after a dropped stream (a server restart).
RETRY_MS = 2000
# ... and this long after their stream was replaced by a newer one of the same device.
REPLACED_RETRY_MS = 10 * 60 * 1000


@dataclass
class Subject:
    """What one stream watches, and how to re-check that its viewer still may."""

    keys: list[str]
    stale: bool = False
    binding_key: str | None = None
    recheck: Callable[[], bool] | None = field(default=None, repr=False)
    # Checked again once the stream listens, closing the gap between the checks and listening.
    fresh: Callable[[], bool] | None = field(default=None, repr=False)
    binding_stamp: object = None
    # (holder, most streams it may hold): the device or browser, and the client address.
    holders: list[tuple[str, int]] = field(default_factory=list)


def _device_check(request: HttpRequest, binding_id: int) -> Callable[[], bool]:
    def still_bound() -> bool:
        forget_binding(request)
        try:
            return get_device(request).pk == binding_id
        except (Http404, PermissionDenied):
            return False
        finally:
            connections.close_all()

    return still_bound


def _watch_subject(request: HttpRequest, watch: Watch, shown: str) -> Subject:
    """Raises Http404/PermissionDenied like the redraw would."""
    if watch.binding_id is not None:
        # A table's screen first: its seat check reads the device's binding in the same
        # statement, so get_device then needs no query of its own.
        if watch.view == DEVICE:
            ds = get_game_for_device(request, watch.game_ids[0])
            if ds.seat != watch.seat:
                raise PermissionDenied("Your team plays another seat now.")
        if get_device(request).pk != watch.binding_id:
            raise Http404("This screen belongs to another device.")
    else:
        if request.user.pk != watch.user_id:
            raise Http404("This screen belongs to someone else.")
        if watch.view == PROJECTOR:
            get_game_for_viewer(request, watch.game_ids[0])
        elif watch.view in (GRID, TEACHER):
            get_session_for_viewer(request, watch.session_id)
    keys = [live.version_key(game_id) for game_id in watch.game_ids]
    if watch.watches_session:
        keys.append(live.session_key(watch.session_id))
    keys.extend(push.topic_key(name) for name in watch.topics)
    subject = Subject(keys=keys, stale=bool(shown) and not live.unchanged(watch, shown))
    if shown:
        subject.fresh = lambda: live.unchanged(watch, shown)
    if watch.binding_id is not None:
        _watch_binding(subject, request, watch.binding_id)
    subject.holders = _holders(request, watch)
    return subject


def _holders(request: HttpRequest, watch: Watch) -> list[tuple[str, int]]:
    """Whose streams this one counts among: the device the checks just matched (a phone's
    binding; an adult's browser, by its session) and the client's address."""
    if watch.binding_id is not None:
        device = f"binding:{watch.binding_id}"
    else:
        device = f"browser:{request.session.session_key or request.COOKIES.get(DEVICE_COOKIE)}"
    return [
        (device, settings.STREAMS_PER_DEVICE),
        (f"address:{client_address(request)}", settings.STREAMS_PER_ADDRESS),
    ]


def _watch_binding(subject: Subject, request: HttpRequest, binding_id: int) -> None:
    subject.binding_key = push.topic_key(push.binding_topic(binding_id))
    subject.keys.append(subject.binding_key)
    subject.recheck = _device_check(request, binding_id)
    subject.binding_stamp = cache.get(subject.binding_key)


def _subject(request: HttpRequest) -> Subject | None:
    """What the stream of this request's token watches; None for a token that is not ours or a
    viewer the screen was not drawn for."""
    watch = read(request.GET.get("t", ""))
    if watch is None:
        return None
    try:
        return _watch_subject(request, watch, request.GET.get("v", ""))
    except (Http404, PermissionDenied):
        return None
    finally:
        # A stream lives for hours: it must not hold a database connection meanwhile.
        connections.close_all()


def _event(name: str) -> str:
    return f"event: {name}\ndata: \n\n"


def _changed_since_checked(subject: Subject) -> tuple[bool, bool]:
    """(shows something older, binding changed) since the checks at connect."""
    try:
        stale = subject.stale or (subject.fresh is not None and not subject.fresh())
        moved = subject.binding_key is not None and cache.get(subject.binding_key) != (
            subject.binding_stamp
        )
    finally:
        connections.close_all()  # a missing cached version costs one query
    return stale, moved


async def _events(subject: Subject) -> AsyncIterator[str]:
    async with streams.hub().listen(subject.keys, subject.holders) as listener:
        stale, moved = await sync_to_async(_changed_since_checked)(subject)
        if moved and not await sync_to_async(subject.recheck)():
            yield _event("gone")
            return
        yield f"retry: {RETRY_MS}\n" + _event("hello")
        if stale:
            yield _event("changed")
        while True:
            changed = await listener.wait(PING_SECONDS)
            if listener.replaced:
                yield f"retry: {REPLACED_RETRY_MS}\n" + _event("replaced")
                return
            if not changed:
                yield _event("ping")
                continue
            # Only a change to the binding can take the stream away (the region's fetch checks
            # everything else): a move wakes a table's streams without a query each.
            if subject.binding_key in changed and not await sync_to_async(subject.recheck)():
                yield _event("gone")
                return
            yield _event("changed")


@require_GET
async def stream(request: HttpRequest) -> HttpResponse:
    if not isinstance(request, ASGIRequest):
        return HttpResponse(
            gettext("Live updates need the ASGI server; this page updates by polling."), status=503
        )
    subject = await sync_to_async(_subject)(request)
    if subject is None:
        # Not 200: the browser stops this stream; the page's poll tells the screen what to do.
        return HttpResponse(status=204)
    response = StreamingHttpResponse(_events(subject), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass events on at once
    return response
