"""Forms for classes and rosters: they check the shape of the input; the services decide."""

from django import forms

from classroom.models import Classroom, Student
from classroom.roster import MAX_CSV_BYTES, RosterError, parse_csv, parse_pasted


class ClassForm(forms.ModelForm):
    class Meta:
        model = Classroom
        fields = ["name", "grade", "school_year"]
        labels = {"name": "Class name"}
        help_texts = {"grade": "For example Grade 4.", "school_year": "For example 2026-27."}


class PasteRosterForm(forms.Form):
    names = forms.CharField(
        label="Students' first names or nicknames",
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off", "spellcheck": "false"}),
        help_text="One a line. Add a birth month after a comma if you wish: Ava, 2016-04.",
    )

    def clean_names(self):
        try:
            return parse_pasted(self.cleaned_data["names"])
        except RosterError as exc:
            raise forms.ValidationError(exc.problems) from None


class CsvRosterForm(forms.Form):
    file = forms.FileField(
        label="CSV file",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
        help_text="Columns name and, optionally, birth_month (YYYY-MM). UTF-8, at most 200 KB.",
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_CSV_BYTES:
            raise forms.ValidationError(
                f"The file is {upload.size // 1024} KB; a roster file may be at most 200 KB."
            )
        try:
            return parse_csv(upload.read())
        except RosterError as exc:
            raise forms.ValidationError(exc.problems) from None


class StudentForm(forms.ModelForm):
    class Meta:
        model = Student
        fields = ["name", "birth_month"]
        widgets = {"birth_month": forms.TextInput(attrs={"placeholder": "YYYY-MM"})}
