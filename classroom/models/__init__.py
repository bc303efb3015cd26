from classroom.models.accounts import Invitation, Role, School, User
from classroom.models.classes import Classroom, Student
from classroom.models.lti import (
    LtiActivity,
    LtiCourse,
    LtiDeployment,
    LtiLaunchState,
    LtiPerson,
    LtiPlatform,
    LtiRegistrationLink,
    LtiResourceLink,
)
from classroom.models.lti_scores import LtiScore, ScoreStatus
from classroom.models.sessions import (
    DeviceBinding,
    GameKind,
    ProjectorLanguage,
    Session,
    SessionStatus,
    Table,
    Team,
    TeamMembership,
    Variant,
    seat_name,
)

__all__ = [
    "Classroom",
    "DeviceBinding",
    "GameKind",
    "Invitation",
    "LtiActivity",
    "LtiCourse",
    "LtiDeployment",
    "LtiLaunchState",
    "LtiPerson",
    "LtiPlatform",
    "LtiRegistrationLink",
    "LtiResourceLink",
    "LtiScore",
    "Role",
    "School",
    "ScoreStatus",
    "Session",
    "ProjectorLanguage",
    "SessionStatus",
    "Student",
    "Table",
    "Team",
    "TeamMembership",
    "User",
    "Variant",
    "seat_name",
]
