"""3 Laws of Robotics: the moves that need more than one button's fixed action (a question with
free words, an Error call naming a team and a law, a counter), and the facilitator's moves.

All of them go through the one move service (`services.move_submit`), like every other move,
and answer with the same screens as the generic move and control views.
"""

from __future__ import annotations

from django import forms
from django.http import Http404, HttpResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from classroom.http import HtmxHttpRequest
from games import services
from games.access import get_game_for_device, get_game_for_teacher
from games.engine_registry import engine_for
from games.engines.three_laws.components import QUESTION_MAX_CHARS
from games.selectors import table_info
from games.views.play import UNREADABLE, answer_device, read_move
from games.views.screens import with_names
from games.views.teacher import answer_control


class QueryForm(forms.Form):
    target = forms.CharField(max_length=40, error_messages={"required": _("Pick a team to ask.")})
    question = forms.CharField(
        max_length=QUESTION_MAX_CHARS,
        required=False,
        error_messages={
            # The validator fills in the limit (QUESTION_MAX_CHARS).
            "max_length": _("That question is too long: keep it to %(limit_value)d letters.")
        },
    )
    version = forms.IntegerField()
    client_move_id = forms.CharField(max_length=64)


class CallForm(forms.Form):
    """An Error call (offender + law) or a counter (call). Which one is the `kind` field."""

    kind = forms.ChoiceField(choices=[("error", _("Error")), ("counter", _("Counter"))])
    offender = forms.CharField(max_length=40, required=False)
    law = forms.CharField(max_length=20, required=False)
    call = forms.CharField(max_length=20, required=False)
    client_move_id = forms.CharField(max_length=64)

    def clean(self) -> dict:
        data = super().clean()
        if data.get("kind") == "error":
            if not data.get("offender"):
                raise forms.ValidationError(_("Pick the team that broke a law."))
            if not data.get("law"):
                raise forms.ValidationError(_("Pick the law that was broken."))
        elif data.get("kind") == "counter" and not data.get("call"):
            raise forms.ValidationError(_("Pick the call that was wrong."))
        return data


def _first_error(form: forms.Form) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return str(UNREADABLE)


@require_POST
def ask(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The seat whose turn it is asks one team a question (the words are optional)."""
    ds = get_game_for_device(request, game_id)
    form = QueryForm(request.POST)
    error = ""
    outcome = None
    if not form.is_valid():
        error = _first_error(form)
    else:
        data = form.cleaned_data
        try:
            outcome = services.move_submit(
                game_id=ds.game.pk,
                seat=ds.seat,
                action={"type": "query", "target": data["target"], "question": data["question"]},
                expected_version=data["version"],
                client_move_id=data["client_move_id"],
                by_device=ds.binding,
            )
        except services.ServiceError as exc:
            error = str(exc)
    return answer_device(request, ds, error=error, outcome=outcome)


@require_POST
def call(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Any seat calls Error on a team for a law, or Error on the caller of a wrong call. Not
    a turn: the move service judges it on the table as it is now (`Engine.any_time_actions`),
    so the form carries no version."""
    ds = get_game_for_device(request, game_id)
    form = CallForm(request.POST)
    error = ""
    outcome = None
    if not form.is_valid():
        error = _first_error(form)
    else:
        data = form.cleaned_data
        if data["kind"] == "error":
            action = {"type": "error", "offender": data["offender"], "law": data["law"]}
        else:
            action = {"type": "counter", "call": data["call"]}
        try:
            outcome = services.move_submit(
                game_id=ds.game.pk,
                seat=ds.seat,
                action=action,
                expected_version=None,
                client_move_id=data["client_move_id"],
                by_device=ds.binding,
            )
        except services.ServiceError as exc:
            error = str(exc)
    return answer_device(request, ds, error=error, outcome=outcome)


@require_POST
def facilitate(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The teacher's own moves as the facilitator (advance a phase, void a call), from the
    dashboard or the projector page (`screen=projector`), on the version that screen showed."""
    game = get_game_for_teacher(request, game_id)
    engine = engine_for(game)
    if engine.facilitator is None:
        raise Http404("This game has no facilitator.")
    error = notice = ""
    parsed = read_move(request)
    if parsed is None:
        error = str(UNREADABLE)
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
        error = gettext("Table %(number)s: %(error)s") % {
            "number": game.table.number,
            "error": error,
        }
    else:
        notice = gettext("Done at table %(number)s.") % {"number": game.table.number}
    # A plain form shows only the error: the table itself shows what was done.
    return answer_control(request, game, notice=notice, error=error, message_done=False)
