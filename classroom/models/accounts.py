"""Schools and the adults who use BotBench: teachers and administrators."""

import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class School(models.Model):
    name = models.CharField(_("name"), max_length=200)
    created_at = models.DateTimeField(default=timezone.now)
    # Students are minors: the administrator says how long an archived class keeps their data
    # (rosters, devices, teach-backs, exports). Empty: until someone deletes it by hand.
    retention_months = models.PositiveSmallIntegerField(
        _("keep archived classes' student data for (months)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(120)],
        help_text=_("Empty keeps it until you delete it."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("school")
        verbose_name_plural = _("schools")

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    TEACHER = "teacher", _("Teacher")
    ADMINISTRATOR = "administrator", _("Administrator")


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def _create_user(self, email: str, password: str | None, **extra) -> "User":
        if not email:
            raise ValueError(_("An e-mail address is required."))
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email: str, password: str | None = None, **extra) -> "User":
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra)

    def create_superuser(self, email: str, password: str | None = None, **extra) -> "User":
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self._create_user(email, password, **extra)


class User(AbstractUser):
    """An adult account, signed in by e-mail. Students never have one."""

    username = None
    email = models.EmailField(_("e-mail address"), unique=True)
    display_name = models.CharField(_("name"), max_length=120, blank=True)
    school = models.ForeignKey(
        School, on_delete=models.PROTECT, null=True, blank=True, related_name="members"
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.TEACHER)
    # Empty: follow the browser. Set, it wins on every device the adult signs in on.
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, blank=True, default=""
    )

    objects = UserManager()

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []

    class Meta:
        ordering = ["email"]
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return self.display_name or self.email

    @property
    def is_teacher(self) -> bool:
        return self.role == Role.TEACHER and self.school_id is not None

    @property
    def is_school_admin(self) -> bool:
        return self.role == Role.ADMINISTRATOR and self.school_id is not None


def _invitation_token() -> str:
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    """A link an administrator sends so a teacher can join the school."""

    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    token = models.CharField(max_length=64, unique=True, default=_invitation_token)
    invited_by = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return _("Invitation for %(email)s to %(school)s") % {
            "email": self.email,
            "school": self.school,
        }

    @property
    def is_usable(self) -> bool:
        return self.accepted_at is None and self.expires_at > timezone.now()
