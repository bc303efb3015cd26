from django import forms

from classroom.models import GameKind, Variant


class SessionForm(forms.Form):
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    title = forms.CharField(max_length=120, required=False, help_text="For example Lesson 3.")
    game = forms.ChoiceField(choices=GameKind.choices)
    variant = forms.ChoiceField(
        choices=Variant.choices,
        initial=Variant.STANDARD,
        help_text="Bot-Builders only; 3 Laws of Robotics plays Standard.",
    )
    skip_first_round = forms.BooleanField(
        required=False, label="Skip round 1 (3 Laws only, for experienced groups)"
    )
    team_size = forms.TypedChoiceField(
        label="Students a team",
        coerce=int,
        choices=[(1, "1"), (2, "2"), (3, "3")],
        initial=2,
    )
