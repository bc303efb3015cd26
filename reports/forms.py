"""The administrator's retention page: the setting, and the confirmation before deleting."""

from django import forms


class RetentionForm(forms.Form):
    months = forms.IntegerField(
        label="Keep the students' data of archived classes for (months)",
        required=False,
        min_value=1,
        max_value=120,
        help_text="For example 12. Leave it empty to keep the data until you delete it.",
    )


class PurgeConfirmForm(forms.Form):
    confirm = forms.BooleanField(
        label="I understand: these students' data is deleted for good.",
        error_messages={"required": "Tick the box to confirm the deletion."},
    )
