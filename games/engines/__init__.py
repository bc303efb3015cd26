"""Pure rules engines for the two games. Nothing here imports Django.

Each engine module (`bot_builders`, `three_laws`) exposes `new_game`, a `Game` class with
`legal_actions`, `apply`, `view`, `results`, `to_dict` / `from_dict`, and `suggest`.
See docs/engines.md: the names are a contract.
"""


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why in plain words."""


__all__ = ["IllegalAction"]
