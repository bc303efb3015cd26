"""Seat limits and table splitting: pure functions, no database, so the rules are testable alone.

A "seat" is one team (human or robot). Each game and variant allows a range of seats a table;
a session's teams are split into as few tables as possible, with sizes as even as possible."""

from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

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
            return ngettext(
                "exactly %(count)s team a table", "exactly %(count)s teams a table", self.minimum
            ) % {"count": self.minimum}
        return gettext("%(minimum)s to %(maximum)s teams a table") % {
            "minimum": self.minimum,
            "maximum": self.maximum,
        }

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
        raise SplitError(gettext("There are no teams to seat yet. Make the teams first."))
    tables = -(-count // limits.maximum)  # the fewest tables that hold everyone
    base, extra = divmod(count, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    # The most even split with the fewest tables is also the one whose smallest table is
    # largest: if it is too small, no other split can work.
    if sizes[-1] < limits.minimum:
        short = limits.minimum - sizes[-1]
        cannot = ngettext(
            "%(count)s team cannot fill tables of %(limits)s:",
            "%(count)s teams cannot fill tables of %(limits)s:",
            count,
        ) % {"count": count, "limits": limits.describe()}
        needed = ngettext("%(short)s more seat needed.", "%(short)s more seats needed.", short) % {
            "short": short
        }
        advice = gettext("Add a robot seat, or change the teams.")
        raise SplitError(f"{cannot} {needed} {advice}")
    return sizes


def table_problems(sizes: dict[int, int], limits: SeatLimits) -> list[str]:
    """Plain-words problems with tables as they stand ({table number: seats})."""
    problems = []
    for number, size in sorted(sizes.items()):
        if not limits.allows(size):
            problems.append(
                ngettext(
                    "Table %(number)s has %(size)s team; this game needs %(limits)s.",
                    "Table %(number)s has %(size)s teams; this game needs %(limits)s.",
                    size,
                )
                % {"number": number, "size": size, "limits": limits.describe()}
            )
    return problems
