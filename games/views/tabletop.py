"""Tabletop Bot-Builders: a team records the bench it built with printed cards."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import services
from games.access import get_game_for_device
from games.engine_registry import final_benches
from games.engines import bot_builders
from games.forms import BenchForm
from games.models import TableMode
from games.views.screens import new_client_move_id


@require_http_methods(["GET", "POST"])
def bench(request: HttpRequest, game_id: int) -> HttpResponse:
    ds = get_game_for_device(request, game_id)
    game = ds.game
    if game.mode != TableMode.TABLETOP:
        raise Http404("This table is played on the devices.")
    recorded = final_benches(game).get(ds.seat) or {}
    if request.method == "POST":
        form = BenchForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.bench_record(
                    game_id=game.pk,
                    seat=ds.seat,
                    bench={slot: data[slot] for slot in bot_builders.SLOTS},
                    client_move_id=data["client_move_id"],
                    by_device=ds.binding,
                )
            except services.ServiceError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("Your bench is recorded."))
                return redirect("games:device")
    else:
        initial = {slot: recorded.get(slot) or "" for slot in bot_builders.SLOTS}
        form = BenchForm(initial={**initial, "client_move_id": new_client_move_id()})
    if form.is_bound and not form.is_valid():
        # A new id so the corrected bench is not taken for a repeat of the refused one.
        form.data = form.data.copy()
        form.data["client_move_id"] = new_client_move_id()
    return render(
        request,
        "games/bot_builders/tabletop_bench.html",
        {"form": form, "team": ds.team, "game_over": game.is_over},
    )
