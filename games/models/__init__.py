from games.models.tables import Move, TableGame, TableMode, TableStatus
from games.models.teachback import (
    Assessment,
    CriterionScore,
    Rubric,
    RubricCriterion,
    SentenceLanguage,
    TeachBack,
    TeachBackSpotlight,
)

__all__ = [
    "Assessment",
    "CriterionScore",
    "Move",
    "Rubric",
    "RubricCriterion",
    "SentenceLanguage",
    "TableGame",
    "TableMode",
    "TableStatus",
    "TeachBack",
    "TeachBackSpotlight",
]
