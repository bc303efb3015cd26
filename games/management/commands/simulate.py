"""`manage.py simulate GAME`: play many robot or random games and print what happened."""

from __future__ import annotations

import importlib

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engines import simulation

GAMES = ("bot_builders", "three_laws")


class Command(BaseCommand):
    help = "Simulate games of Bot-Builders or 3 Laws with robot or random players."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", choices=GAMES)
        parser.add_argument("--games", type=int, default=200, help="how many games (default 200)")
        parser.add_argument("--seats", type=int, default=4, help="seats per game (1 = solo)")
        parser.add_argument("--players", choices=simulation.PLAYER_KINDS, default="robot")
        parser.add_argument("--seed", default="0", help="seed of the whole run (default 0)")
        parser.add_argument(
            "--no-win-rate",
            action="store_true",
            help="skip the extra run of one robot against random players",
        )

    def handle(self, *args, game: str, games: int, seats: int, players: str, **options) -> None:
        try:
            module = importlib.import_module(f"games.engines.{game}")
        except ImportError as error:
            raise CommandError(f"The {game} engine is not available: {error}") from error
        seed: int | str = int(options["seed"]) if options["seed"].isdigit() else options["seed"]
        engine_options = {"solo": True} if game == "bot_builders" and seats == 1 else {}
        try:
            summary = simulation.simulate(
                module,
                games=games,
                seats=seats,
                players=players,
                seed=seed,
                options=engine_options,
            )
        except ValueError as error:  # a bad setup, such as a seat count the game does not allow
            raise CommandError(str(error)) from error
        self.stdout.write(simulation.format_table(summary))
        if seats > 1 and not options["no_win_rate"]:
            mixed = simulation.robot_win_rate(module, games=games, seats=seats, seed=seed)
            self.stdout.write("")
            self.stdout.write(
                f"One robot against {seats - 1} random players: 1st place in "
                f"{mixed.win_rate(0):.1%} of {games} games ({mixed.games_per_second:.0f} games/s)."
            )
