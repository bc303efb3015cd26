"""The Bot-Builders teach-back sentence, the class rubric, and the teacher's assessment.

A rubric version never changes once a score points at it: editing a used rubric makes a new
version, and every criterion score keeps the version it was given under."""

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import get_language, gettext, gettext_noop

from classroom.models import Classroom, Session, Team
from games.models.tables import TableGame

TEACHBACK_SLOTS = ("senses_with", "thinks_with", "acts_with", "powered_by")

# The built-in rubric's words (games.teachback.rubrics.DEFAULT_CRITERIA): stored in English like
# any criterion, and shown translated when a criterion still has exactly these words.
BUILT_IN_WORDING = frozenset(
    {
        gettext_noop("Complete"),
        gettext_noop("All five blanks filled with meaningful words."),
        gettext_noop("Right jobs"),
        gettext_noop("Each blank names something that really senses, thinks, acts or powers."),
        gettext_noop("Mission link"),
        gettext_noop("“because” explains how the parts serve the bot's Mission."),
        gettext_noop("Said clearly"),
        gettext_noop("The team said it aloud clearly (observed by you; may be skipped)."),
    }
)


def shown_wording(english: str, spanish: str) -> str:
    """A criterion's words in the active language: the class's Spanish wording, the built-in
    wording's translation, or the words as the teacher wrote them."""
    if (get_language() or "").startswith("es") and spanish:
        return spanish
    return gettext(english) if english in BUILT_IN_WORDING else english


class SentenceLanguage(models.TextChoices):
    """The language a team wrote its sentence in: the frame is shown in it to the teacher too."""

    ENGLISH = "en", "English"
    SPANISH = "es", "Español"


class TeachBack(models.Model):
    """'My bot senses with __, thinks with __, acts with __, powered by __, because __.'"""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="teachback")
    game = models.ForeignKey(TableGame, on_delete=models.CASCADE, related_name="teachbacks")
    senses_with = models.CharField(max_length=120)
    thinks_with = models.CharField(max_length=120)
    acts_with = models.CharField(max_length=120)
    powered_by = models.CharField(max_length=120)
    because = models.TextField(max_length=600)
    # The bench the sentence describes, as {slot: card id}, and its Mission card id.
    bench_snapshot = models.JSONField(default=dict)
    mission = models.CharField(max_length=40, blank=True)
    language = models.CharField(
        max_length=2, choices=SentenceLanguage.choices, default=SentenceLanguage.ENGLISH
    )
    revision = models.PositiveIntegerField(default=1)
    submitted_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["team_id"]

    def __str__(self) -> str:
        return (
            f"My bot senses with {self.senses_with}, thinks with {self.thinks_with}, "
            f"acts with {self.acts_with}, powered by {self.powered_by}, because {self.because}"
        )


class Rubric(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="rubrics")
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["classroom_id", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["classroom", "version"], name="unique_rubric_version")
        ]

    def __str__(self) -> str:
        return f"Rubric v{self.version} for {self.classroom}"


class RubricCriterion(models.Model):
    rubric = models.ForeignKey(Rubric, on_delete=models.CASCADE, related_name="criteria")
    position = models.PositiveSmallIntegerField()
    key = models.SlugField(max_length=40)
    title = models.CharField(max_length=80)
    description = models.CharField(max_length=300, blank=True)
    max_score = models.PositiveSmallIntegerField(default=3, validators=[MaxValueValidator(10)])
    # "Said clearly" is observed in class and may be skipped.
    optional = models.BooleanField(default=False)
    # The class's own Spanish wording (blank: the built-in wording's translation, or the English).
    title_es = models.CharField(max_length=80, blank=True)
    description_es = models.CharField(max_length=300, blank=True)
    # Standard codes this criterion shows evidence of (reports.standards; empty: the default
    # codes of its key). Codes only, never the standards' words.
    standards = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["rubric_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["rubric", "key"], name="unique_criterion_key"),
            models.UniqueConstraint(
                fields=["rubric", "position"], name="unique_criterion_position"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def _shown(self, english: str, spanish: str) -> str:
        return shown_wording(english, spanish)

    @property
    def shown_title(self) -> str:
        """The title in the active language: the class's Spanish wording, the built-in one's
        translation, or the title as the teacher wrote it."""
        return self._shown(self.title, self.title_es)

    @property
    def shown_description(self) -> str:
        return self._shown(self.description, self.description_es)


class Assessment(models.Model):
    teachback = models.OneToOneField(TeachBack, on_delete=models.CASCADE, related_name="assessment")
    rubric = models.ForeignKey(Rubric, on_delete=models.PROTECT, related_name="assessments")
    comment = models.TextField(blank=True, max_length=1000)
    assessed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    assessed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-assessed_at"]

    def __str__(self) -> str:
        return f"Assessment of {self.teachback.team}"


class CriterionScore(models.Model):
    assessment = models.ForeignKey(Assessment, on_delete=models.CASCADE, related_name="scores")
    criterion = models.ForeignKey(RubricCriterion, on_delete=models.PROTECT, related_name="scores")
    # None: the criterion was skipped (only an optional one may be).
    score = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["assessment", "criterion"], name="one_score_per_criterion"
            )
        ]

    def __str__(self) -> str:
        return f"{self.criterion}: {self.score}"


class TeachBackSpotlight(models.Model):
    """The sentence a session's projector shows, one row per session. `version` grows with every
    change so the projector's poll can tell "nothing new" without rendering anything."""

    session = models.OneToOneField(
        Session, on_delete=models.CASCADE, related_name="teachback_spotlight"
    )
    teachback = models.ForeignKey(
        TeachBack, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    version = models.PositiveIntegerField(default=0)
    changed_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"Spotlight of {self.session}"
