from django import forms
from django.utils.translation import gettext_lazy as _

from classroom.models import GameKind, Variant


class SessionForm(forms.Form):
    # An <input type="date"> sends ISO dates (2026-11-30) in every language.
    date = forms.DateField(
        label=_("Date"),
        input_formats=["%Y-%m-%d"],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    title = forms.CharField(
        label=_("Title"), max_length=120, required=False, help_text=_("For example Lesson 3.")
    )
    game = forms.ChoiceField(label=_("Game"), choices=GameKind.choices)
    variant = forms.ChoiceField(
        label=_("Variant"),
        choices=Variant.choices,
        initial=Variant.STANDARD,
        help_text=_("Bot-Builders only; 3 Laws of Robotics plays Standard."),
    )
    skip_first_round = forms.BooleanField(
        required=False, label=_("Skip round 1 (3 Laws only, for experienced groups)")
    )
    team_size = forms.TypedChoiceField(
        label=_("Students a team"),
        coerce=int,
        choices=[(1, "1"), (2, "2"), (3, "3")],
        initial=2,
    )
