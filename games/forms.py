"""Forms check that input is well-formed; the services decide whether it is allowed."""

from django import forms

from games.engines import bot_builders


def _choices(kind: str) -> list[tuple[str, str]]:
    return [("", "(empty)")] + [(c.id, c.name) for c in bot_builders.cards_of_kind(kind)]


class BenchForm(forms.Form):
    """A tabletop team's final bench: one card (or none) per slot."""

    sense = forms.ChoiceField(label="Sense", choices=_choices("sense"), required=False)
    think = forms.ChoiceField(label="Think", choices=_choices("think"), required=False)
    act = forms.ChoiceField(label="Act", choices=_choices("act"), required=False)
    power = forms.ChoiceField(label="Power", choices=_choices("power"), required=False)
    mission = forms.ChoiceField(label="Mission", choices=_choices("mission"), required=False)
    client_move_id = forms.CharField(widget=forms.HiddenInput, max_length=64)
