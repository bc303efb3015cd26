"""The simulator, driven with the Bot-Builders engine."""

import pytest

from games.engines import bot_builders, simulation


def test_simulation_is_repeatable_from_its_seed():
    a = simulation.simulate(bot_builders, games=20, seats=3, players="random", seed=9)
    b = simulation.simulate(bot_builders, games=20, seats=3, players="random", seed=9)
    assert (a.moves, a.scores, a.stats) == (b.moves, b.scores, b.stats)


def test_simulation_collects_bot_builders_stats():
    summary = simulation.simulate(bot_builders, games=15, seats=4, seed=1)
    assert set(summary.stats) == {"turns", "full_bot", "bot_called", "winner_full_bot"}
    assert len(summary.moves) == 15 and len(summary.scores) == 60
    assert all(0 <= score <= 16 for score in summary.scores)
    table = simulation.format_table(summary)
    assert "turns per game" in table and "games per second" in table


def test_solo_simulation_reports_the_solo_win_rate():
    summary = simulation.simulate(bot_builders, games=10, seats=1, options={"solo": True})
    assert "solo_won" in summary.stats


def test_one_robot_wins_most_games_against_random_players():
    summary = simulation.robot_win_rate(bot_builders, games=60, seats=4, seed=3)
    assert summary.players == ("robot", "random", "random", "random")
    assert summary.win_rate(0) > 0.8


@pytest.mark.parametrize("players", ["genius", ["robot"], ["robot", "human"]])
def test_bad_player_lists_are_refused(players):
    with pytest.raises(ValueError):
        simulation.simulate(bot_builders, games=1, seats=2, players=players)
