"""The team device: its play page and its moves."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from classroom.http import HtmxHttpRequest, htmx_or_redirect
from games import services
from games.access import DeviceSeat, get_device_seat, get_game_for_device
from games.forms import MoveForm
from games.selectors import table_info
from games.views.regions import device_region
from games.views.screens import CHANGING, device_screen, waiting_screen, with_names

UNREADABLE = _("That move could not be read. Tap one of the buttons again.")


def render_device(request: HtmxHttpRequest, ds: DeviceSeat, *, error: str = "") -> HttpResponse:
    if ds.game is None:
        return render(request, "games/device_waiting.html", waiting_screen(ds))
    if request.htmx and not error:
        return device_region(request, ds)
    template = "games/device.html#live" if request.htmx else "games/device.html"
    return render(request, template, device_screen(ds, error=error))


@require_GET
def device(request: HtmxHttpRequest) -> HttpResponse:
    """The device's play page: its team's table, or a waiting screen until the tables start."""
    return render_device(request, get_device_seat(request))


def read_move(request: HtmxHttpRequest) -> tuple[dict, int, str] | None:
    """The posted move, or None if it cannot be read (missing, not JSON, nested too deep,
    text the database cannot hold): the device is asked to tap again, nothing is saved."""
    form = MoveForm(request.POST)
    if not form.is_valid():
        return None
    data = form.cleaned_data
    return data["action"], data["version"], data["client_move_id"]


@require_POST
def move(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    ds = get_game_for_device(request, game_id)
    error = ""
    outcome = None
    parsed = read_move(request)
    if parsed is None:
        error = UNREADABLE
    else:
        action, version, client_move_id = parsed
        try:
            outcome = services.move_submit(
                game_id=ds.game.pk,
                seat=ds.seat,
                action=action,
                expected_version=version,
                client_move_id=client_move_id,
                by_device=ds.binding,
            )
        except services.ServiceError as exc:
            error = str(exc)
    return answer_device(request, ds, error=error, outcome=outcome)


def answer_device(
    request: HtmxHttpRequest,
    ds: DeviceSeat,
    *,
    error: str = "",
    outcome: services.MoveOutcome | None = None,
) -> HttpResponse:
    """The ending of every device move: htmx gets the re-drawn screen, a plain form the
    error as a message and the play page. `outcome`: what the move did, when it went
    through (its game is the table as the move left it; read again otherwise)."""

    def redraw() -> HttpResponse:
        # This move, or another device's, changed the table; who the device is and which
        # team it plays for were checked by the view and cannot change within this request.
        # A move that went through redraws the version it committed: a later one reaches
        # the device as any other change does.
        if outcome is None:
            ds.game.refresh_from_db(fields=CHANGING)
        else:
            for name in CHANGING:
                setattr(ds.game, name, getattr(outcome.game, name))
        return render_device(request, ds, error=error)

    if error and not request.htmx:
        error = with_names(error, table_info(ds.game).names)
    return htmx_or_redirect(request, redraw, "games:device", error=error)
