"""BotBench as an LTI 1.3 tool inside a school's learning management system (LMS).

A school registers its LMS (`LtiPlatform`, one or more `LtiDeployment`s); a course of that LMS is
linked to one BotBench class (`LtiCourse`); an activity a teacher placed in the course through
deep linking is an `LtiResourceLink`. People who launched are `LtiPerson`s: only a keyed hash of
the LMS's user id is kept, pointing at the teacher's account or at the roster's student (whose
roster entry holds a given name and an initial, nothing more).

BotBench's own signing keys are django-lti's `lti_tool.Key` (rotated by its `rotate_keys`
command). django-lti's other models (LtiRegistration, LtiUser, ...) are not used: LtiUser keeps
names, e-mails and pictures, which a roster of minors must not."""

import secrets
import uuid

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from classroom.models.accounts import School, User
from classroom.models.classes import Classroom, Student
from classroom.models.sessions import GameKind, Variant


class LtiPlatform(models.Model):
    """An LMS registered with BotBench by a school's administrator or the site operator."""

    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="lti_platforms")
    name = models.CharField(_("name"), max_length=120)
    issuer = models.CharField(_("issuer"), max_length=255)
    client_id = models.CharField(_("client ID"), max_length=255)
    # The OAuth2 audience of the token endpoint, when it is not the token URL itself.
    audience = models.CharField(_("token audience"), max_length=255, blank=True)
    auth_url = models.URLField(_("authentication URL"), max_length=500)
    token_url = models.URLField(_("access token URL"), max_length=500)
    keyset_url = models.URLField(_("keyset URL"), max_length=500)
    is_active = models.BooleanField(_("active"), default=True)
    created_by = models.ForeignKey(
        User, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["issuer", "client_id"],
                name="unique_lti_client_per_issuer",
                violation_error_message=_("This LMS (issuer and client ID) is already registered."),
            )
        ]
        verbose_name = _("LMS platform")
        verbose_name_plural = _("LMS platforms")

    def __str__(self) -> str:
        return self.name


class LtiDeployment(models.Model):
    """A deployment id the platform sends in launches; an unknown one is refused."""

    platform = models.ForeignKey(LtiPlatform, on_delete=models.CASCADE, related_name="deployments")
    deployment_id = models.CharField(_("deployment ID"), max_length=255)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["platform_id", "deployment_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["platform", "deployment_id"],
                name="unique_lti_deployment_per_platform",
                violation_error_message=_("This deployment ID is already registered."),
            )
        ]
        verbose_name = _("LMS deployment")
        verbose_name_plural = _("LMS deployments")

    def __str__(self) -> str:
        return self.deployment_id


class LtiCourse(models.Model):
    """An LMS course (an LTI context) and the BotBench class it is taught in."""

    platform = models.ForeignKey(LtiPlatform, on_delete=models.CASCADE, related_name="courses")
    deployment = models.ForeignKey(LtiDeployment, on_delete=models.CASCADE, related_name="courses")
    context_id = models.CharField(max_length=255)
    classroom = models.OneToOneField(Classroom, on_delete=models.CASCADE, related_name="lti_course")
    title = models.CharField(_("course title"), max_length=255, blank=True)
    # Service endpoints from the latest launch (Names and Role Provisioning; Assignment and Grade
    # Services); empty when the platform offered none.
    memberships_url = models.URLField(max_length=500, blank=True)
    lineitems_url = models.URLField(max_length=500, blank=True)
    ags_scopes = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["platform_id", "context_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["platform", "context_id"], name="unique_lti_course_per_platform"
            )
        ]
        verbose_name = _("LMS course")
        verbose_name_plural = _("LMS courses")

    def __str__(self) -> str:
        return self.title or self.context_id


class LtiActivity(models.Model):
    """What a teacher chose through deep linking. Its key travels in the link's custom
    parameters, so the platform's link keeps working after restarts and survives course copies."""

    key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    course = models.ForeignKey(LtiCourse, on_delete=models.CASCADE, related_name="activities")
    game = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    variant = models.CharField(
        _("variant"), max_length=20, choices=Variant.choices, default=Variant.STANDARD
    )
    title = models.CharField(_("title"), max_length=120)
    # The line item's maximum, for the teach-back score; None: no grade line.
    score_maximum = models.PositiveSmallIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        User, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("LMS activity")
        verbose_name_plural = _("LMS activities")

    def __str__(self) -> str:
        return self.title

    @property
    def has_teachback(self) -> bool:
        return self.game == GameKind.BOT_BUILDERS and self.variant == Variant.CLASSROOM


class LtiResourceLink(models.Model):
    """A link of the LMS course (resource link id) and the activity it opens."""

    course = models.ForeignKey(LtiCourse, on_delete=models.CASCADE, related_name="resource_links")
    resource_link_id = models.CharField(max_length=255)
    activity = models.ForeignKey(
        LtiActivity, on_delete=models.SET_NULL, null=True, blank=True, related_name="links"
    )
    game = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    variant = models.CharField(
        _("variant"), max_length=20, choices=Variant.choices, default=Variant.STANDARD
    )
    title = models.CharField(_("title"), max_length=255, blank=True)
    # The AGS line item of this link (from the launch's endpoint claim); empty: no grade line.
    line_item_url = models.URLField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["course_id", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["course", "resource_link_id"], name="unique_lti_link_per_course"
            )
        ]
        verbose_name = _("LMS link")
        verbose_name_plural = _("LMS links")

    def __str__(self) -> str:
        return self.title or self.resource_link_id


class LtiPerson(models.Model):
    """Someone who launched from (or was listed by) an LMS course. `sub_hash` is a keyed hash
    of the LMS user id (classroom.lti.people.hash_subject); the id itself is never stored."""

    platform = models.ForeignKey(LtiPlatform, on_delete=models.CASCADE, related_name="people")
    course = models.ForeignKey(LtiCourse, on_delete=models.CASCADE, related_name="people")
    sub_hash = models.CharField(max_length=64)
    user = models.ForeignKey(
        User, on_delete=models.CASCADE, null=True, blank=True, related_name="lti_people"
    )
    student = models.ForeignKey(
        Student, on_delete=models.CASCADE, null=True, blank=True, related_name="lti_people"
    )
    # Set when the roster sync finds the learner gone from the course (never deleted silently).
    departed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_launch_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["course_id", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["course", "sub_hash"], name="unique_lti_person_per_course"
            ),
            models.CheckConstraint(
                condition=(Q(user__isnull=True) & Q(student__isnull=False))
                | (Q(user__isnull=False) & Q(student__isnull=True)),
                name="lti_person_is_teacher_or_student",
            ),
        ]
        indexes = [models.Index(fields=["platform", "sub_hash"], name="lti_person_platform_sub")]
        verbose_name = _("LMS person")
        verbose_name_plural = _("LMS people")

    def __str__(self) -> str:
        return str(self.user or self.student)


class LtiLaunchState(models.Model):
    """Short-lived OIDC login state for pylti1p3 (nonces, login parameters, the launch's
    claims without personal ones), in the database so a restart or a Redis outage between login
    and launch loses nothing, and a nonce is consumed by one DELETE (used once)."""

    key = models.CharField(max_length=255, unique=True)
    value = models.JSONField(null=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("LTI login state")
        verbose_name_plural = _("LTI login states")

    def __str__(self) -> str:
        return self.key


def _registration_token() -> str:
    return secrets.token_urlsafe(32)


class LtiRegistrationLink(models.Model):
    """A one-time LTI Dynamic Registration URL an administrator pastes into the LMS: whoever
    holds it may register one platform for that school, once, before it expires."""

    school = models.ForeignKey(
        School, on_delete=models.CASCADE, related_name="lti_registration_links"
    )
    token = models.CharField(max_length=64, unique=True, default=_registration_token)
    created_by = models.ForeignKey(
        User, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    platform = models.ForeignKey(
        LtiPlatform, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("LMS registration link")
        verbose_name_plural = _("LMS registration links")

    def __str__(self) -> str:
        return str(self.created_at)

    @property
    def is_usable(self) -> bool:
        return self.used_at is None and self.expires_at > timezone.now()
