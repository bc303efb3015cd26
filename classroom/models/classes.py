"""Classes and their rosters. Students are minors: a first name or nickname, nothing more
unless the teacher adds an optional birth month (used only for the Bot-Builders tie-break)."""

from django.core.validators import RegexValidator
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from classroom.models.accounts import School, User
from classroom.validators import validate_storable_text

birth_month_validator = RegexValidator(
    r"^\d{4}-(0[1-9]|1[0-2])$", _("Write the birth month as YYYY-MM, for example 2015-04.")
)


class Classroom(models.Model):
    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="classes")
    teacher = models.ForeignKey(User, on_delete=models.PROTECT, related_name="classes")
    name = models.CharField(_("name"), max_length=120)
    grade = models.CharField(_("grade"), max_length=40, blank=True)
    school_year = models.CharField(
        _("school year"), max_length=20, blank=True, help_text=_("For example 2026-27.")
    )
    created_at = models.DateTimeField(default=timezone.now)
    archived_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("class")
        verbose_name_plural = _("classes")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("classroom:class_detail", args=[self.pk])

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None


class Student(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="students")
    name = models.CharField(
        _("first name or nickname"), max_length=60, validators=[validate_storable_text]
    )
    birth_month = models.CharField(
        _("birth month"),
        max_length=7,
        blank=True,
        validators=[birth_month_validator],
        help_text=_("Optional, YYYY-MM."),
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                "classroom",
                Lower("name"),
                name="unique_student_name_per_class",
                violation_error_message=_("This class already has a student with that name."),
            )
        ]
        verbose_name = _("student")
        verbose_name_plural = _("students")

    def __str__(self) -> str:
        return self.name
