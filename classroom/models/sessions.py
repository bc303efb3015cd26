"""Lesson sessions: who is present, teams, the tables they sit at, and the devices joined to
them. The games themselves (seed, move log) live in the `games` app, one per table."""

import secrets

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from classroom.models.classes import Classroom, Student

# No look-alikes: no 0/O, 1/I/L.
ROOM_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
ROOM_CODE_LENGTH = 6


class GameKind(models.TextChoices):
    BOT_BUILDERS = "bot_builders", "Bot-Builders"
    THREE_LAWS = "three_laws", "3 Laws of Robotics"


class Variant(models.TextChoices):
    """How a session plays. Bot-Builders uses all of them; 3 Laws only STANDARD."""

    STANDARD = "standard", "Standard (2 to 6 teams a table)"
    TWO_PLAYER = "two_player", "2 players (2 teams a table)"
    SOLO = "solo", "Solo (one team against the dummy bench)"
    CLASSROOM = "classroom", "Classroom with teach-back"
    TABLETOP = "tabletop", "Tabletop (printed cards, scored in the app)"
    PRACTICE = "practice", "Practice against robot players"


class SessionStatus(models.TextChoices):
    DRAFT = "draft", "Being prepared"
    OPEN = "open", "Open for joining"
    PLAYING = "playing", "Tables started"
    CLOSED = "closed", "Closed"


def generate_room_code() -> str:
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(ROOM_CODE_LENGTH))


class ProjectorLanguage(models.TextChoices):
    """What the projector speaks, chosen on the lobby: one language, or both for bilingual rooms."""

    ENGLISH = "en", "English"
    SPANISH = "es", "Español"
    BOTH = "both", "English + Español"


class Session(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="sessions")
    title = models.CharField(max_length=120, blank=True)
    date = models.DateField()
    game = models.CharField(max_length=20, choices=GameKind.choices)
    variant = models.CharField(max_length=20, choices=Variant.choices, default=Variant.STANDARD)
    skip_first_round = models.BooleanField(
        default=False, help_text="3 Laws only: start with round 2 (for experienced groups)."
    )
    team_size = models.PositiveSmallIntegerField(default=2)
    status = models.CharField(
        max_length=10, choices=SessionStatus.choices, default=SessionStatus.DRAFT
    )
    # Set only while the session is open or playing; unique among those.
    room_code = models.CharField(max_length=ROOM_CODE_LENGTH, null=True, blank=True, unique=True)
    present = models.ManyToManyField(Student, blank=True, related_name="sessions_present")
    created_at = models.DateTimeField(default=timezone.now)
    opened_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    projector_language = models.CharField(
        max_length=4, choices=ProjectorLanguage.choices, default=ProjectorLanguage.ENGLISH
    )
    # Teach-backs can be revised until the teacher locks them.
    teachbacks_locked_at = models.DateTimeField(null=True, blank=True)

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

    def __str__(self) -> str:
        return self.title or f"{self.get_game_display()} on {self.date:%b %-d, %Y}"

    def get_absolute_url(self) -> str:
        return reverse("classroom:session_detail", args=[self.pk])

    def clean(self) -> None:
        errors = {}
        if not 1 <= (self.team_size or 0) <= 3:
            errors["team_size"] = "Teams have 1 to 3 students."
        if self.game == GameKind.THREE_LAWS:
            if self.variant != Variant.STANDARD:
                errors["variant"] = "3 Laws of Robotics has no variants: choose Standard."
        elif self.skip_first_round:
            errors["skip_first_round"] = "Skipping round 1 is for 3 Laws of Robotics only."
        if errors:
            raise ValidationError(errors)

    @property
    def is_joinable(self) -> bool:
        return self.status in (SessionStatus.OPEN, SessionStatus.PLAYING) and bool(self.room_code)


class Table(models.Model):
    """A group of teams playing one game together; its game state lives in games.TableGame."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="unique_table_number")
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"


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
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="unique_team_number"),
        ]

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
        return f"{self.student} in {self.team}"


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
        ordering = ["session", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "student"],
                condition=Q(revoked_at__isnull=True),
                name="one_live_device_per_student_per_session",
            )
        ]

    def __str__(self) -> str:
        return f"{self.student} on {self.session}"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
