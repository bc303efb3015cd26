"""Seat limits and table splitting: pure functions, no database, so the rules are testable alone.

A "seat" is one team (human or robot). Each game and variant allows a range of seats a table;
a session's teams are split into as few tables as possible, with sizes as even as possible."""

from dataclasses import dataclass

BOT_BUILDERS = "bot_builders"
THREE_LAWS = "three_laws"


@dataclass(frozen=True)
class SeatLimits:
    minimum: int
    maximum: int
    # Practice tables hold one human team; the games app adds the robot opponents itself.
    humans_only: bool = False

    def describe(self) -> str:
        if self.minimum == self.maximum:
            word = "team" if self.minimum == 1 else "teams"
            return f"exactly {self.minimum} {word} a table"
        return f"{self.minimum} to {self.maximum} teams a table"

    def allows(self, size: int) -> bool:
        return self.minimum <= size <= self.maximum


_BOT_BUILDERS_LIMITS = {
    "standard": SeatLimits(2, 6),
    "classroom": SeatLimits(2, 6),
    "tabletop": SeatLimits(2, 6),
    "two_player": SeatLimits(2, 2),
    "solo": SeatLimits(1, 1),
    "practice": SeatLimits(1, 1, humans_only=True),
}
_THREE_LAWS_LIMITS = SeatLimits(4, 8)


def seat_limits(game: str, variant: str) -> SeatLimits:
    """The seats a table may hold for this game and variant."""
    if game == THREE_LAWS:
        return _THREE_LAWS_LIMITS
    if game == BOT_BUILDERS:
        try:
            return _BOT_BUILDERS_LIMITS[variant]
        except KeyError:
            raise ValueError(f"Unknown Bot-Builders variant {variant!r}.") from None
    raise ValueError(f"Unknown game {game!r}.")


class SplitError(ValueError):
    """The teams cannot fill valid tables; the message says why, in the teacher's words."""


def split_sizes(count: int, limits: SeatLimits) -> list[int]:
    """Table sizes for `count` seats: as few tables as possible, sizes as even as possible.

    15 seats at 2-6 -> [5, 5, 5]; 9 seats at 4-8 -> [5, 4]. Raises SplitError when no split
    fits (3 seats at 4-8, or 5 seats at exactly 2)."""
    if count <= 0:
        raise SplitError("There are no teams to seat yet. Make the teams first.")
    tables = -(-count // limits.maximum)  # the fewest tables that hold everyone
    base, extra = divmod(count, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    # The most even split with the fewest tables is also the one whose smallest table is
    # largest: if it is too small, no other split can work.
    if sizes[-1] < limits.minimum:
        short = limits.minimum - sizes[-1]
        seats = "seat" if short == 1 else "seats"
        raise SplitError(
            f"{count} {'team' if count == 1 else 'teams'} cannot fill tables of "
            f"{limits.describe()}: {short} more {seats} needed. "
            "Add a robot seat, or change the teams."
        )
    return sizes


def table_problems(sizes: dict[int, int], limits: SeatLimits) -> list[str]:
    """Plain-words problems with tables as they stand ({table number: seats})."""
    problems = []
    for number, size in sorted(sizes.items()):
        if not limits.allows(size):
            problems.append(
                f"Table {number} has {size} {'team' if size == 1 else 'teams'}; "
                f"this game needs {limits.describe()}."
            )
    return problems
