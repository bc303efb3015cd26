"""Seat limits and table splitting: pure functions, no database."""

import pytest

from classroom.tables import SeatLimits, SplitError, seat_limits, split_sizes, table_problems


@pytest.mark.parametrize(
    ("game", "variant", "minimum", "maximum"),
    [
        ("bot_builders", "standard", 2, 6),
        ("bot_builders", "classroom", 2, 6),
        ("bot_builders", "tabletop", 2, 6),
        ("bot_builders", "two_player", 2, 2),
        ("bot_builders", "solo", 1, 1),
        ("bot_builders", "practice", 1, 1),
        ("three_laws", "standard", 4, 8),
    ],
)
def test_seat_limits_per_game_and_variant(game, variant, minimum, maximum):
    limits = seat_limits(game, variant)
    assert (limits.minimum, limits.maximum) == (minimum, maximum)


def test_practice_tables_count_only_human_teams():
    assert seat_limits("bot_builders", "practice").humans_only
    assert not seat_limits("bot_builders", "standard").humans_only


def test_unknown_game_or_variant_is_refused():
    with pytest.raises(ValueError, match="Unknown game"):
        seat_limits("chess", "standard")
    with pytest.raises(ValueError, match="variant"):
        seat_limits("bot_builders", "blitz")


@pytest.mark.parametrize(
    ("count", "limits", "sizes"),
    [
        (15, SeatLimits(2, 6), [5, 5, 5]),
        (9, SeatLimits(4, 8), [5, 4]),
        (8, SeatLimits(4, 8), [8]),
        (13, SeatLimits(2, 6), [5, 4, 4]),
        (7, SeatLimits(2, 6), [4, 3]),
        (2, SeatLimits(2, 6), [2]),
        (6, SeatLimits(2, 2), [2, 2, 2]),
        (3, SeatLimits(1, 1), [1, 1, 1]),
        (17, SeatLimits(4, 8), [6, 6, 5]),
    ],
)
def test_split_uses_fewest_tables_with_even_sizes(count, limits, sizes):
    assert split_sizes(count, limits) == sizes


@pytest.mark.parametrize("count", range(1, 61))
def test_every_split_respects_the_limits_and_seats_everyone(count):
    for limits in (SeatLimits(2, 6), SeatLimits(4, 8), SeatLimits(1, 1)):
        try:
            sizes = split_sizes(count, limits)
        except SplitError:
            assert count < limits.minimum
            continue
        assert sum(sizes) == count
        assert all(limits.allows(size) for size in sizes)
        assert max(sizes) - min(sizes) <= 1
        assert len(sizes) == -(-count // limits.maximum)


def test_three_laws_with_three_teams_says_a_seat_is_missing():
    with pytest.raises(SplitError, match="1 more seat needed. Add a robot seat"):
        split_sizes(3, SeatLimits(4, 8))


def test_two_player_with_an_odd_number_of_teams_cannot_split():
    with pytest.raises(SplitError, match="exactly 2 teams a table"):
        split_sizes(5, SeatLimits(2, 2))


def test_no_teams_is_refused_with_a_hint():
    with pytest.raises(SplitError, match="Make the teams first"):
        split_sizes(0, SeatLimits(2, 6))


def test_table_problems_name_each_table_outside_the_limits():
    problems = table_problems({1: 5, 2: 1, 3: 9}, SeatLimits(2, 6))
    assert problems == [
        "Table 2 has 1 team; this game needs 2 to 6 teams a table.",
        "Table 3 has 9 teams; this game needs 2 to 6 teams a table.",
    ]
