"""Forms check that input is well-formed; the services decide whether it is allowed."""

from django import forms
from django.utils.translation import gettext_lazy as _

from classroom.validators import StorableJSONField
from games.engines import bot_builders
from games.services.moves import CLIENT_MOVE_ID_MAX, is_action_shaped


def _choices(kind: str) -> list[tuple[str, str]]:
    return [("", _("(empty)"))] + [(c.id, _(c.name)) for c in bot_builders.cards_of_kind(kind)]


class BenchForm(forms.Form):
    """A tabletop team's final bench: one card (or none) per slot."""

    sense = forms.ChoiceField(label=_("Sense"), choices=_choices("sense"), required=False)
    think = forms.ChoiceField(label=_("Think"), choices=_choices("think"), required=False)
    act = forms.ChoiceField(label=_("Act"), choices=_choices("act"), required=False)
    power = forms.ChoiceField(label=_("Power"), choices=_choices("power"), required=False)
    mission = forms.ChoiceField(label=_("Mission"), choices=_choices("mission"), required=False)
    client_move_id = forms.CharField(widget=forms.HiddenInput, max_length=64)


# A move's action is a small JSON object (a button's fixed action, or a 3 Laws question).
ACTION_MAX_CHARS = 4000


class MoveForm(forms.Form):
    """A move as a device (or the facilitator's dashboard) posts it."""

    action = StorableJSONField(max_chars=ACTION_MAX_CHARS)
    version = forms.IntegerField(min_value=0)
    client_move_id = forms.CharField(max_length=CLIENT_MOVE_ID_MAX)

    def clean_action(self) -> dict:
        action = self.cleaned_data["action"]
        if not is_action_shaped(action):
            raise forms.ValidationError(_("That move could not be read."), code="shape")
        return action
