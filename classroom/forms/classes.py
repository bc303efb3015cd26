"""Forms for classes and rosters: they check the shape of the input; the services decide."""

from django import forms
from django.utils.translation import gettext_lazy as _

from classroom.models import Classroom, Student
from classroom.roster import (
    MAX_CSV_BYTES,
    RosterError,
    parse_csv,
    parse_pasted,
    too_big_message,
)


class ClassForm(forms.ModelForm):
    class Meta:
        model = Classroom
        fields = ["name", "grade", "school_year"]
        labels = {"name": _("Class name"), "grade": _("Grade"), "school_year": _("School year")}
        help_texts = {
            "grade": _("For example Grade 4."),
            "school_year": _("For example 2026-27."),
        }


class PasteRosterForm(forms.Form):
    names = forms.CharField(
        label=_("Students' first names or nicknames"),
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off", "spellcheck": "false"}),
        help_text=_("One a line. Add a birth month after a comma if you wish: Ava, 2016-04."),
    )

    def clean_names(self):
        try:
            return parse_pasted(self.cleaned_data["names"])
        except RosterError as exc:
            raise forms.ValidationError(exc.problems) from None


class CsvRosterForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
        help_text=_(
            "Columns name and, optionally, birth_month (YYYY-MM); in Spanish, nombre and "
            "mes_de_nacimiento. UTF-8, at most 200 KB."
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_CSV_BYTES:
            raise forms.ValidationError(too_big_message(upload.size))
        try:
            return parse_csv(upload.read())
        except RosterError as exc:
            raise forms.ValidationError(exc.problems) from None


class StudentForm(forms.ModelForm):
    class Meta:
        model = Student
        fields = ["name", "birth_month"]
        labels = {"name": _("First name or nickname"), "birth_month": _("Birth month")}
        # The placeholder shows the format (AAAA-MM in Spanish), which stays YYYY-MM as typed.
        widgets = {"birth_month": forms.TextInput(attrs={"placeholder": _("YYYY-MM")})}
