from games.models.tables import Move, TableGame, TableMode, TableStatus
from games.models.teachback import (
    Assessment,
    CriterionScore,
    Rubric,
    RubricCriterion,
    TeachBack,
    TeachBackSpotlight,
)

__all__ = [
    "Assessment",
    "CriterionScore",
    "Move",
    "Rubric",
    "RubricCriterion",
    "TableGame",
    "TableMode",
    "TableStatus",
    "TeachBack",
    "TeachBackSpotlight",
]
