"""The outbox of grade passback (LTI Assignment and Grade Services): one row per student and
resource link, holding the score to send, which version of it the platform has, and what the
platform last said. The row, not Celery, is the truth the teacher's status page shows."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from classroom.models.classes import Student
from classroom.models.lti import LtiResourceLink
from classroom.models.sessions import Session


class ScoreStatus(models.TextChoices):
    WAITING = "waiting", _("Waiting to be sent")
    SENT = "sent", _("Sent")
    REFUSED = "refused", _("Refused by the LMS")


class LtiScore(models.Model):
    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="lti_scores")
    link = models.ForeignKey(LtiResourceLink, on_delete=models.CASCADE, related_name="scores")
    # The session whose assessment the score comes from (the newest one locked on this link).
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="lti_scores")
    score_given = models.DecimalField(max_digits=6, decimal_places=2)
    score_maximum = models.DecimalField(max_digits=6, decimal_places=2)
    comment = models.TextField(blank=True)
    # Grows by one each time the score or its comment changes; `sent_version` is the newest
    # version the platform acknowledged. Equal: nothing to send.
    version = models.PositiveIntegerField(default=1)
    sent_version = models.PositiveIntegerField(default=0)
    # The AGS timestamp of this version: a resend of the same version carries the same one, so
    # the platform, which keeps the newest timestamp per user, cannot count it twice.
    timestamp = models.DateTimeField(default=timezone.now)
    status = models.CharField(
        max_length=10, choices=ScoreStatus.choices, default=ScoreStatus.WAITING
    )
    attempts = models.PositiveIntegerField(default=0)
    message = models.CharField(max_length=500, blank=True)
    # A sender holds the row until then (set before its request, cleared after): a second
    # sender for the same row waits instead of posting the same score twice.
    claimed_until = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["link_id", "student_id"]
        constraints = [
            models.UniqueConstraint(fields=["student", "link"], name="one_lti_score_per_link"),
            models.CheckConstraint(
                condition=models.Q(sent_version__lte=models.F("version")),
                name="lti_score_sent_version_not_ahead",
            ),
        ]
        verbose_name = _("LMS score")
        verbose_name_plural = _("LMS scores")

    def __str__(self) -> str:
        return f"{self.student} on {self.link_id}: {self.score_given}/{self.score_maximum}"
