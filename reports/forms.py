"""The administrator's retention page: the setting, and the confirmation before deleting."""

from django import forms
from django.utils.translation import gettext_lazy as _


class RetentionForm(forms.Form):
    months = forms.IntegerField(
        label=_("Keep the students' data of archived classes for (months)"),
        required=False,
        min_value=1,
        max_value=120,
        help_text=_("For example 12. Leave it empty to keep the data until you delete it."),
    )


class PurgeConfirmForm(forms.Form):
    confirm = forms.BooleanField(
        label=_("I understand: these students' data is deleted for good."),
        error_messages={"required": _("Tick the box to confirm the deletion.")},
    )
