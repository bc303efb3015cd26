"""One persisted game per table: the seed and options it was dealt from, and an append-only
log of moves. `state` caches the engine's to_dict() after the last move so a request need not
replay; replaying seed + options + live moves always rebuilds it exactly."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from classroom.models import DeviceBinding, GameKind, Session, Table


class TableStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    PAUSED = "paused", _("Paused")
    OVER = "over", _("Finished")


class TableMode(models.TextChoices):
    LIVE = "live", _("Played on devices")
    TABLETOP = "tabletop", _("Played with printed cards, benches recorded at the end")


class TableGame(models.Model):
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    # Denormalised from table.session: every dashboard and report filters by session.
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="table_games")
    kind = models.CharField(max_length=20, choices=GameKind.choices)
    mode = models.CharField(max_length=10, choices=TableMode.choices, default=TableMode.LIVE)
    seed = models.BigIntegerField()
    # Keyword options passed to the engine's new_game (solo, start_seat, deck, birth_months...).
    options = models.JSONField(default=dict, blank=True)
    # Engine seat names in turn order (Team.seat values).
    seats = models.JSONField(default=list)
    state = models.JSONField(default=dict, blank=True)
    # Bumped by every applied or undone move: devices send it back to refuse stale moves, and
    # the poll endpoint compares it (through the cache) to answer "nothing changed" cheaply.
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(
        max_length=10, choices=TableStatus.choices, default=TableStatus.PLAYING
    )
    # Final standings as the engine's results() (list of dicts), set when the game ends.
    results = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_move_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["session_id", "table_id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.table}"

    @property
    def is_over(self) -> bool:
        return self.status == TableStatus.OVER


class Move(models.Model):
    """One applied action. Rows are never deleted: an undo marks the move undone."""

    game = models.ForeignKey(TableGame, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.CharField(max_length=40)
    action = models.JSONField()
    events = models.JSONField(default=list, blank=True)
    # Sent by the device with each move so a double tap or a retried request applies once.
    client_move_id = models.CharField(max_length=64)
    by_device = models.ForeignKey(
        DeviceBinding, on_delete=models.SET_NULL, null=True, blank=True, related_name="moves"
    )
    by_teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    by_robot = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_move_seq"),
            models.UniqueConstraint(
                fields=["game", "client_move_id"], name="unique_client_move_id"
            ),
        ]
        indexes = [
            models.Index(
                fields=["game", "seq"], condition=Q(undone_at__isnull=True), name="live_moves"
            )
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.seat}: {self.action.get('type', '?')}"
