"""Export jobs: one row per PDF or ZIP someone asked for. The row, not Celery, is the truth the
pages show (after Open edX's instructor tasks): it is saved before its task is sent, it carries the
status, timestamps, attempts and the reason of a failure, and it names the file once ready."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from classroom.models import Classroom, School


class ExportKind(models.TextChoices):
    SESSION = "session", _("Session report")
    CLASS = "class", _("Class progress report")
    STUDENT = "student", _("Student progress report")
    SCHOOL_ZIP = "school_zip", _("Whole-school export (ZIP)")


class ExportStatus(models.TextChoices):
    QUEUED = "queued", pgettext_lazy("export status", "Queued")
    RENDERING = "rendering", pgettext_lazy("export status", "Rendering")
    READY = "ready", pgettext_lazy("export status", "Ready")
    FAILED = "failed", pgettext_lazy("export status", "Failed")


LIVE_STATUSES = (ExportStatus.QUEUED, ExportStatus.RENDERING)


def export_upload_to(instance: Export, filename: str) -> str:
    return f"exports/{filename}"


class Export(models.Model):
    kind = models.CharField(max_length=20, choices=ExportKind.choices)
    # What to render, e.g. {"classroom": 3}; `parameters_hash` is its canonical digest, so two
    # clicks for the same report meet in the unique constraint below.
    parameters = models.JSONField(default=dict)
    parameters_hash = models.CharField(max_length=64)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # Scoping: who may see the job. Every export belongs to a school; class, session and
    # student exports also to a class (None for the whole-school ZIP).
    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="exports")
    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, null=True, blank=True, related_name="exports"
    )
    title = models.CharField(max_length=200)
    # The language of the person who asked (their page's language at the click): the worker
    # renders the file, and any reason for a failure, in it.
    language = models.CharField(max_length=10, choices=settings.LANGUAGES, default="en")
    status = models.CharField(
        max_length=10, choices=ExportStatus.choices, default=ExportStatus.QUEUED
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Last sign of progress: the sweeper fails jobs whose rendering shows none for too long.
    updated_at = models.DateTimeField(default=timezone.now)
    file = models.FileField(upload_to=export_upload_to, max_length=300, blank=True)
    file_deleted_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0)
    # The whole-school ZIP fans out into one class export per class; each, when it finishes,
    # counts itself here under the parent's row lock, and the one that completes the set
    # queues the ZIP. Parts never show in the lists on their own.
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="parts"
    )
    parts_total = models.PositiveIntegerField(default=0)
    parts_done = models.PositiveIntegerField(default=0)
    parts_failed = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            # A second click while the first job is queued or rendering must not start a
            # second job: the insert fails and the service shows the existing one.
            models.UniqueConstraint(
                fields=["kind", "parameters_hash", "requested_by"],
                condition=Q(status__in=["queued", "rendering"], parent__isnull=True),
                name="one_live_export_per_request",
            ),
            models.CheckConstraint(
                condition=Q(parts_done__lte=models.F("parts_total"))
                & Q(parts_failed__lte=models.F("parts_total")),
                name="export_parts_within_total",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "updated_at"], name="export_status_updated"),
            models.Index(fields=["school", "-created_at"], name="export_school_created"),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("reports:export_status", args=[self.pk])

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_STATUSES

    @property
    def retry_attempt(self) -> int | None:
        """The attempt being made, when an earlier one stopped before finishing (its worker
        died, or someone pressed "Try again"); None on a first attempt or once finished."""
        if not self.is_live:
            return None
        attempt = self.attempts if self.status == ExportStatus.RENDERING else self.attempts + 1
        return attempt if attempt > 1 else None

    @property
    def has_file(self) -> bool:
        return self.status == ExportStatus.READY and bool(self.file)

    @property
    def extension(self) -> str:
        return "zip" if self.kind == ExportKind.SCHOOL_ZIP else "pdf"


class SchoolStandards(models.Model):
    """The standard codes a school reports against, picked from `reports.standards.STANDARDS`
    (codes only: the standards' words live with their publishers). No row: every code."""

    school = models.OneToOneField(School, on_delete=models.CASCADE, related_name="standards")
    codes = models.JSONField(default=list, blank=True)
    # {game kind: [codes]} for the games whose codes the school changed; a game not named here
    # carries its shipped default (reports.standards.GAME_STANDARDS).
    games = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"Standards of {self.school}"
