"""3 Laws of Robotics: the moves that need more than one button's fixed action (a question with
free words, an Error call naming a team and a law, a counter), and the facilitator's moves.

All of them go through the one move service (`services.move_submit`), like every other move,
and answer with the same screens as the generic move and control views.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from games import services
from games.access import get_game_for_device, get_game_for_teacher
from games.engine_registry import get_engine
from games.engines.three_laws.components import QUESTION_MAX_CHARS
from games.models import TableGame
from games.selectors import table_info
from games.views.play import UNREADABLE, read_move, render_device
from games.views.projector import PROJECTOR, render_projector
from games.views.screens import with_names
from games.views.teacher import render_dashboard


class QueryForm(forms.Form):
    target = forms.CharField(max_length=40, error_messages={"required": "Pick a team to ask."})
    question = forms.CharField(
        max_length=QUESTION_MAX_CHARS,
        required=False,
        error_messages={
            "max_length": f"That question is too long: keep it to {QUESTION_MAX_CHARS} letters."
        },
    )
    version = forms.IntegerField()
    client_move_id = forms.CharField(max_length=64)


class CallForm(forms.Form):
    """An Error call (offender + law) or a counter (call). Which one is the `kind` field."""

    kind = forms.ChoiceField(choices=[("error", "Error"), ("counter", "Counter")])
    offender = forms.CharField(max_length=40, required=False)
    law = forms.CharField(max_length=20, required=False)
    call = forms.CharField(max_length=20, required=False)
    client_move_id = forms.CharField(max_length=64)

    def clean(self) -> dict:
        data = super().clean()
        if data.get("kind") == "error":
            if not data.get("offender"):
                raise forms.ValidationError("Pick the team that broke a law.")
            if not data.get("law"):
                raise forms.ValidationError("Pick the law that was broken.")
        elif data.get("kind") == "counter" and not data.get("call"):
            raise forms.ValidationError("Pick the call that was wrong.")
        return data


def _first_error(form: forms.Form) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return UNREADABLE


def _answer_device(request: HttpRequest, game_id: int, error: str) -> HttpResponse:
    ds = get_game_for_device(request, game_id)
    if not request.htmx:
        if error:
            messages.error(request, with_names(error, table_info(ds.game).names))
        return redirect("games:device")
    return render_device(request, ds, error=error)


@require_POST
def ask(request: HttpRequest, game_id: int) -> HttpResponse:
    """The seat whose turn it is asks one team a question (the words are optional)."""
    ds = get_game_for_device(request, game_id)
    form = QueryForm(request.POST)
    error = ""
    if not form.is_valid():
        error = _first_error(form)
    else:
        data = form.cleaned_data
        try:
            services.move_submit(
                game_id=ds.game.pk,
                seat=ds.seat,
                action={"type": "query", "target": data["target"], "question": data["question"]},
                expected_version=data["version"],
                client_move_id=data["client_move_id"],
                by_device=ds.binding,
            )
        except services.ServiceError as exc:
            error = str(exc)
    return _answer_device(request, game_id, error)


@require_POST
def call(request: HttpRequest, game_id: int) -> HttpResponse:
    """Any seat calls Error on a team for a law, or Error on the caller of a wrong call.

    An Error call is not a turn: it is legal whenever the laws are enforced, which the engine
    checks on the table as it is now. So it is judged against the current version rather than
    the one the screen was drawn from; otherwise every other team's move would wipe out a
    half-picked call. The client move id still makes a double tap count once.
    """
    ds = get_game_for_device(request, game_id)
    form = CallForm(request.POST)
    error = ""
    if not form.is_valid():
        error = _first_error(form)
    else:
        data = form.cleaned_data
        if data["kind"] == "error":
            action = {"type": "error", "offender": data["offender"], "law": data["law"]}
        else:
            action = {"type": "counter", "call": data["call"]}
        version = TableGame.objects.values_list("version", flat=True).get(pk=ds.game.pk)
        try:
            services.move_submit(
                game_id=ds.game.pk,
                seat=ds.seat,
                action=action,
                expected_version=version,
                client_move_id=data["client_move_id"],
                by_device=ds.binding,
            )
        except services.ServiceError as exc:
            error = str(exc)
    return _answer_device(request, game_id, error)


@require_POST
def facilitate(request: HttpRequest, game_id: int) -> HttpResponse:
    """The teacher's own moves as the facilitator (advance a phase, void a call), from the
    dashboard or the projector page (`screen=projector`), on the version that screen showed."""
    game = get_game_for_teacher(request, game_id)
    engine = get_engine(game.kind)
    if engine.facilitator is None:
        raise Http404("This game has no facilitator.")
    error = notice = ""
    parsed = read_move(request)
    if parsed is None:
        error = UNREADABLE
    else:
        action, version, client_move_id = parsed
        try:
            services.move_submit(
                game_id=game.pk,
                seat=engine.facilitator,
                action=action,
                expected_version=version,
                client_move_id=client_move_id,
                by_teacher=request.user,
            )
        except services.ServiceError as exc:
            error = with_names(str(exc), table_info(game).names)
    if error:
        error = f"Table {game.table.number}: {error}"
    else:
        notice = f"Done at table {game.table.number}."
    on_projector = request.POST.get("screen") == PROJECTOR
    if not request.htmx:
        if error:
            messages.error(request, error)
        if on_projector:
            return redirect("games:projector", game.pk)
        return redirect("games:teacher_tables", game.session_id)
    if on_projector:
        return render_projector(request, game.pk, notice=notice, error=error)
    return render_dashboard(request, game.session, notice=notice, error=error)
