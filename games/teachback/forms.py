"""Forms that carry the teach-back pages' input to the services. They only parse and label;
what is allowed is decided in services.py and rubrics.py."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.teachback.hints import BLANK_LABELS
from games.teachback.rubrics import MAX_CRITERIA, MAX_MAX_SCORE, MIN_MAX_SCORE

PART_PLACEHOLDER = _("the part you would add")


class TeachBackForm(forms.Form):
    # Not required here: the service refuses an empty blank with a message naming it.
    # The labels are the frame's words: "Mi robot percibe con __, piensa con __, actúa con __,
    # funciona con __, porque __" in Spanish, the same five fields.
    senses_with = forms.CharField(label=_(BLANK_LABELS["senses_with"]), required=False, strip=True)
    thinks_with = forms.CharField(label=_(BLANK_LABELS["thinks_with"]), required=False, strip=True)
    acts_with = forms.CharField(label=_(BLANK_LABELS["acts_with"]), required=False, strip=True)
    powered_by = forms.CharField(label=_(BLANK_LABELS["powered_by"]), required=False, strip=True)
    because = forms.CharField(
        label=_(BLANK_LABELS["because"]), required=False, strip=True, widget=forms.Textarea
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("senses_with", "thinks_with", "acts_with", "powered_by"):
            self.fields[name].widget.attrs.update(
                {"maxlength": 120, "placeholder": PART_PLACEHOLDER, "autocomplete": "off"}
            )
        self.fields["because"].widget.attrs.update(
            {
                "maxlength": 600,
                "rows": 3,
                "placeholder": _("how these parts help your bot do its Mission"),
            }
        )

    def part_fields(self) -> list[tuple[forms.BoundField, str]]:
        """The four part blanks with the category each names (for its colour)."""
        return [
            (self[name], category)
            for name, category in zip(
                ("senses_with", "thinks_with", "acts_with", "powered_by"),
                ("sense", "think", "act", "power"),
                strict=True,
            )
        ]


class CriterionRowForm(forms.Form):
    # The key of a kept criterion, as the page sent it: a slug like the model's, so a forged
    # one is a form error rather than a failure when the row is saved.
    key = forms.SlugField(required=False, max_length=40, widget=forms.HiddenInput)
    title = forms.CharField(label=_("Title"), required=False, max_length=80)
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": 300}),
    )
    # The class's own Spanish wording of the criterion, for Spanish screens (optional).
    title_es = forms.CharField(label=_("Title in Spanish"), required=False, max_length=80)
    description_es = forms.CharField(
        label=_("Description in Spanish"),
        required=False,
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": 300}),
    )
    max_score = forms.TypedChoiceField(
        label=_("Max score"),
        choices=[(n, str(n)) for n in range(MIN_MAX_SCORE, MAX_MAX_SCORE + 1)],
        coerce=int,
        initial=3,
    )
    optional = forms.BooleanField(label=_("May be skipped"), required=False)
    order = forms.IntegerField(label=_("Order"), required=False, min_value=1, max_value=99)
    remove = forms.BooleanField(label=_("Remove"), required=False)


CriterionFormSet = forms.formset_factory(
    CriterionRowForm, extra=0, max_num=MAX_CRITERIA + 4, absolute_max=MAX_CRITERIA + 4
)


def criterion_rows(criteria) -> list[dict]:
    """The editor's starting rows for a rubric's criteria."""
    return [
        {
            "key": c.key,
            "title": c.title,
            "description": c.description,
            "title_es": c.title_es,
            "description_es": c.description_es,
            "max_score": c.max_score,
            "optional": c.optional,
            "order": c.position,
        }
        for c in criteria
    ]


def formset_with_blank_row(data) -> CriterionFormSet:
    """The posted rows as typed, plus one blank row at the end (the "add a criterion" button:
    nothing is saved). The blank row is one more form in the management data."""
    data = data.copy()
    # The count as the formset's own management form reads it: "abc", "1e309" or "²" make it
    # invalid, which counts as no rows.
    total = CriterionFormSet(data).total_form_count()
    total = max(0, min(total, CriterionFormSet.absolute_max - 1))
    data["form-TOTAL_FORMS"] = str(total + 1)
    data[f"form-{total}-max_score"] = "3"
    data[f"form-{total}-order"] = str(total + 1)
    return CriterionFormSet(data)


class AssessmentForm(forms.Form):
    """One sentence's scores (`score-<criterion key>`: a number, "skip" or nothing), the
    comment, and the rubric version the form was drawn with. The service judges the values."""

    comment = forms.CharField(required=False, strip=False)
    rubric_version = forms.CharField(required=False)

    def __init__(self, data, *, criteria) -> None:
        super().__init__(data)
        self.criteria = list(criteria)
        for criterion in self.criteria:
            self.fields[f"score-{criterion.key}"] = forms.CharField(required=False)

    def clean_rubric_version(self) -> int | None:
        # A version that does not read as a number is no version: the save is not checked.
        try:
            return int(self.cleaned_data.get("rubric_version") or 0) or None
        except ValueError:
            return None

    def scores(self) -> dict[str, str]:
        return {c.key: self.cleaned_data.get(f"score-{c.key}") for c in self.criteria}


def first_error(form: forms.BaseForm) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return str(_("That form could not be read: reload the page and try again."))


def criteria_from_formset(formset) -> list[dict]:
    """The rows to keep, in the order asked for (rows without an order keep their place)."""
    rows = []
    for index, form in enumerate(formset.forms):
        data = form.cleaned_data
        if not data or data.get("remove"):
            continue
        if not (data.get("title") or "").strip() and not (data.get("description") or "").strip():
            continue  # the blank "add a criterion" row, left blank
        rows.append((data.get("order") or index + 1, index, data))
    return [data for _, _, data in sorted(rows, key=lambda row: (row[0], row[1]))]
