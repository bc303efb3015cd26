"""Reading the one row a lookup can match."""

from django.db.models import Model, QuerySet


def the_one(rows: QuerySet) -> Model | None:
    """The row of a lookup that can match at most one (a unique key, a constraint), or None.

    Not `rows.first()`: that sorts by the model's default ordering, and the orderings of teams,
    devices, moves and table games go through the session's, so it joined the session to sort
    one row, on every request a device makes and every move."""
    return rows.order_by().first()
