"""Auto-pairing students into teams and naming teams: pure functions, no database."""

import random
from collections.abc import Sequence

from django.utils.translation import gettext

MAX_TEAM_SIZE = 3

ROBOT_NAMES = [
    "Sparks",
    "Bolt",
    "Gizmo",
    "Widget",
    "Sprocket",
    "Pixel",
    "Rivet",
    "Servo",
    "Circuit",
    "Nova",
    "Dynamo",
    "Gadget",
    "Blip",
    "Zippy",
    "Chip",
    "Beacon",
    "Turbo",
    "Echo",
    "Flux",
    "Axle",
    "Piston",
    "Volt",
    "Ratchet",
    "Comet",
]


# A team's name is saved once, in the language of the teacher who made the teams; every device
# then shows that same name (it is a name, like a student's).
def team_name(number: int) -> str:
    return gettext("Team %(number)s · %(robot)s") % {
        "number": number,
        "robot": ROBOT_NAMES[(number - 1) % len(ROBOT_NAMES)],
    }


def robot_name(number: int) -> str:
    # Counted from the end of the list so a robot rarely shares a name with a nearby team.
    return gettext("Robot · %(robot)s") % {"robot": ROBOT_NAMES[-number % len(ROBOT_NAMES)]}


def autopair[T](
    members: Sequence[T], team_size: int, rng: random.Random | None = None
) -> list[list[T]]:
    """Shuffle `members` into teams of `team_size`.

    Leftovers join existing teams (one each, never above MAX_TEAM_SIZE) when they all fit;
    otherwise they form one smaller team. Never a team of 0."""
    if not 1 <= team_size <= MAX_TEAM_SIZE:
        raise ValueError(f"Teams have 1 to {MAX_TEAM_SIZE} students, not {team_size}.")
    shuffled = list(members)
    (rng or random.SystemRandom()).shuffle(shuffled)
    full = len(shuffled) - len(shuffled) % team_size
    teams = [shuffled[i : i + team_size] for i in range(0, full, team_size)]
    leftovers = shuffled[full:]
    if not leftovers:
        return teams
    roomy = [team for team in teams if len(team) < MAX_TEAM_SIZE]
    if len(leftovers) <= len(roomy):
        for student, team in zip(leftovers, roomy, strict=False):
            team.append(student)
    else:
        teams.append(leftovers)
    return teams
