"""Lesson sessions: who is present, teams, the tables they sit at, and the devices joined to
them. The games themselves (seed, move log) live in the `games` app, one per table."""

import secrets

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from classroom.models.classes import Classroom, Student

# No look-alikes: no 0/O, 1/I/L.
ROOM_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
ROOM_CODE_LENGTH = 6


class GameKind(models.TextChoices):
    BOT_BUILDERS = "bot_builders", _("Bot-Builders")
    THREE_LAWS = "three_laws", _("3 Laws of Robotics")


class Variant(models.TextChoices):
    """How a session plays. Bot-Builders uses all of them; 3 Laws only STANDARD."""

    STANDARD = "standard", _("Standard (2 to 6 teams a table)")
    TWO_PLAYER = "two_player", _("2 players (2 teams a table)")
    SOLO = "solo", _("Solo (one team against the dummy bench)")
    CLASSROOM = "classroom", _("Classroom with teach-back")
    TABLETOP = "tabletop", _("Tabletop (printed cards, scored in the app)")
    PRACTICE = "practice", _("Practice against robot players")


class SessionStatus(models.TextChoices):
    DRAFT = "draft", _("Being prepared")
    OPEN = "open", _("Open for joining")
    PLAYING = "playing", _("Tables started")
    CLOSED = "closed", _("Closed")


def generate_room_code() -> str:
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


class ProjectorLanguage(models.TextChoices):
    """What the projector speaks, chosen on the lobby: one language, or both for bilingual rooms.
    Each language is named in its own language, so the labels are not translated."""

    ENGLISH = "en", "English"
    SPANISH = "es", "Español"
    BOTH = "both", "English + Español"


class Session(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="sessions")
    title = models.CharField(_("title"), max_length=120, blank=True)
    date = models.DateField(_("date"))
    game = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    variant = models.CharField(
        _("variant"), max_length=20, choices=Variant.choices, default=Variant.STANDARD
    )
    skip_first_round = models.BooleanField(
        _("skip round 1"),
        default=False,
        help_text=_("3 Laws only: start with round 2 (for experienced groups)."),
    )
    team_size = models.PositiveSmallIntegerField(_("students a team"), default=2)
    status = models.CharField(
        _("status"), max_length=10, choices=SessionStatus.choices, default=SessionStatus.DRAFT
    )
    # Set only while the session is open or playing; unique among those.
    room_code = models.CharField(max_length=ROOM_CODE_LENGTH, null=True, blank=True, unique=True)
    present = models.ManyToManyField(Student, blank=True, related_name="sessions_present")
    created_at = models.DateTimeField(default=timezone.now)
    opened_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    projector_language = models.CharField(
        _("projector language"),
        max_length=4,
        choices=ProjectorLanguage.choices,
        default=ProjectorLanguage.ENGLISH,
    )
    # Teach-backs can be revised until the teacher locks them.
    teachbacks_locked_at = models.DateTimeField(null=True, blank=True)
    # The LMS activity (LTI resource link) the session was started from: its gradebook column
    # receives the session's teach-back scores (classroom/lti/grades.py).
    lti_link = models.ForeignKey(
        "classroom.LtiResourceLink",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sessions",
    )

    # A device may join, and play, while its session is in one of these and has a room code
    # (`is_joinable`); classroom.statements and games.statements ask the same of the database.
    JOINABLE_STATUSES = (SessionStatus.OPEN, SessionStatus.PLAYING)

    class Meta:
        ordering = ["-date", "-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(team_size__gte=1) & Q(team_size__lte=3),
                name="session_team_size_1_to_3",
            ),
            models.CheckConstraint(
                condition=Q(room_code__isnull=True) | Q(status__in=["open", "playing"]),
                name="session_room_code_only_while_open",
            ),
        ]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")

    def __str__(self) -> str:
        if self.title:
            return self.title
        # The date in the active language's own format ("Nov. 30, 2026", "30 de noviembre de 2026").
        return _("%(game)s on %(date)s") % {
            "game": self.get_game_display(),
            "date": date_format(self.date, "DATE_FORMAT"),
        }

    def get_absolute_url(self) -> str:
        return reverse("classroom:session_detail", args=[self.pk])

    def clean(self) -> None:
        errors = {}
        if not 1 <= (self.team_size or 0) <= 3:
            errors["team_size"] = _("Teams have 1 to 3 students.")
        if self.game == GameKind.THREE_LAWS:
            if self.variant != Variant.STANDARD:
                errors["variant"] = _("3 Laws of Robotics has no variants: choose Standard.")
        elif self.skip_first_round:
            errors["skip_first_round"] = _("Skipping round 1 is for 3 Laws of Robotics only.")
        if errors:
            raise ValidationError(errors)

    @property
    def is_joinable(self) -> bool:
        return self.status in self.JOINABLE_STATUSES and bool(self.room_code)


class Table(models.Model):
    """A group of teams playing one game together; its game state lives in games.TableGame."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["session_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="unique_table_number")
        ]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return _("Table %(number)s") % {"number": self.number}


def seat_name(team_number: int) -> str:
    """The engine seat name of team `team_number`: stable, unique within the session."""
    return f"team-{team_number}"


class Team(models.Model):
    """A seat at a table: students sharing one device (or a robot filling an empty seat)."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="teams")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    table = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="teams"
    )
    # Turn order at the table, from 0.
    seat_position = models.PositiveSmallIntegerField(default=0)
    is_robot = models.BooleanField(default=False)
    members = models.ManyToManyField(
        Student, through="TeamMembership", related_name="teams", blank=True
    )

    class Meta:
        ordering = ["session_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="unique_team_number"),
        ]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self) -> str:
        return self.name

    @property
    def seat(self) -> str:
        """The engine seat name for this team: stable, unique within the session."""
        return seat_name(self.number)


class TeamMembership(models.Model):
    # Denormalised session makes "one team per student per session" a database constraint.
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="memberships")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["session", "student"], name="one_team_per_student_per_session"
            )
        ]

    def __str__(self) -> str:
        return _("%(student)s in %(team)s") % {"student": self.student, "team": self.team}


def _device_token() -> str:
    return secrets.token_urlsafe(24)


class DeviceBinding(models.Model):
    """A student's device joined to a session. The browser holds only a signed cookie with
    the token; the team is found through the student's membership, so it follows team edits."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="devices")
    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="devices")
    token = models.CharField(max_length=64, unique=True, default=_device_token)
    created_at = models.DateTimeField(default=timezone.now)
    last_seen_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session_id", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "student"],
                condition=Q(revoked_at__isnull=True),
                name="one_live_device_per_student_per_session",
            )
        ]
        verbose_name = _("device")
        verbose_name_plural = _("devices")

    def __str__(self) -> str:
        return _("%(student)s on %(session)s") % {"student": self.student, "session": self.session}

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
