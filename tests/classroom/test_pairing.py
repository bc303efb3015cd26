"""Auto-pairing and team names: pure functions, no database."""

import random
from collections import Counter

import pytest

from classroom.pairing import ROBOT_NAMES, autopair, robot_name, team_name


@pytest.mark.parametrize(
    ("count", "size", "expected"),
    [
        (8, 2, [2, 2, 2, 2]),
        (7, 2, [2, 2, 3]),
        (1, 2, [1]),
        (7, 3, [1, 3, 3]),
        (8, 3, [2, 3, 3]),
        (5, 1, [1, 1, 1, 1, 1]),
        (4, 3, [1, 3]),
        (0, 2, []),
    ],
)
def test_autopair_sizes(count, size, expected):
    teams = autopair(list(range(count)), size, random.Random(1))
    assert sorted(len(team) for team in teams) == expected


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("size", [1, 2, 3])
def test_autopair_places_everyone_once_in_teams_of_one_to_three(seed, size):
    students = list(range(seed + 1))
    teams = autopair(students, size, random.Random(seed))
    placed = Counter(s for team in teams for s in team)
    assert sorted(placed) == students and set(placed.values()) == {1}
    assert all(1 <= len(team) <= 3 for team in teams)


def test_autopair_shuffles():
    students = list(range(12))
    orders = {tuple(map(tuple, autopair(students, 2, random.Random(seed)))) for seed in range(5)}
    assert len(orders) > 1


def test_autopair_refuses_team_size_outside_one_to_three():
    with pytest.raises(ValueError):
        autopair([1, 2], 4)
    with pytest.raises(ValueError):
        autopair([1, 2], 0)


def test_team_names_are_numbered_and_friendly():
    assert team_name(1) == "Team 1 · Sparks"
    assert team_name(2) == "Team 2 · Bolt"
    assert team_name(len(ROBOT_NAMES) + 1) == "Team 25 · Sparks"
    assert robot_name(1).startswith("Robot · ")
    assert len(robot_name(99)) <= 40 and len(team_name(999)) <= 40
