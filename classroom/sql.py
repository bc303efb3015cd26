"""Running a written-out statement and making model instances of its rows, as the ORM makes them.

The few statements kept written out (`classroom.statements`, `games.statements`) are the checks
every request of a live screen makes; each says beside it why the ORM's form was too slow
there. These helpers keep the rest of the work to the ORM's own parts: the select list of a
model's columns, and the instances made from a row with the converters the ORM applies (JSON,
dates on SQLite), so the objects equal what a queryset would give.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from django.db import connection
from django.db.models import Model


@cache
def _fields(model: type[Model]) -> tuple:
    return tuple(model._meta.concrete_fields)


@cache
def _converters(model: type[Model], alias: str, vendor: str) -> tuple:
    """Each column's converters, as SQLCompiler.get_converters finds them (backend's first).
    Kept per backend: they depend on its kind and the settings, not on one thread's connection."""
    found = []
    for field in _fields(model):
        column = field.get_col(alias)
        backend = connection.ops.get_db_converters(column)
        found.append((column, backend + column.get_db_converters(connection)))
    return tuple(found)


def columns(model: type[Model], alias: str) -> str:
    """The select list of every concrete column of `model` under the table alias `alias`."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(field.column)}" for field in _fields(model))


def _width(model: type[Model]) -> int:
    return len(_fields(model))


def _build(model: type[Model], alias: str, values: Sequence) -> Model:
    """The instance of `model` whose columns (in `columns` order) are `values`."""
    converted = []
    for value, (column, converters) in zip(
        values, _converters(model, alias, connection.vendor), strict=True
    ):
        for converter in converters:
            value = converter(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, [f.attname for f in _fields(model)], converted)


def build_all(row: Sequence, *parts: tuple[type[Model], str]) -> list[Model]:
    """The instances of a row selected as `columns(model, alias)` for each part, in order (any
    columns after them are the caller's)."""
    made, start = [], 0
    for model, alias in parts:
        end = start + _width(model)
        made.append(_build(model, alias, row[start:end]))
        start = end
    return made


def build_joined(row: Sequence, *parts: tuple[type[Model], str]) -> list[Model | None]:
    """As `build_all`, with None for a part whose primary key is NULL: an outer join that
    matched no row."""
    made: list[Model | None] = []
    start = 0
    for model, alias in parts:
        end = start + _width(model)
        values = row[start:end]
        matched = values[_fields(model).index(model._meta.pk)] is not None
        made.append(_build(model, alias, values) if matched else None)
        start = end
    return made


def first(sql: str, params: Sequence, model: type[Model], alias: str) -> Model | None:
    """The instance of `model` in the first row of `sql`, whose select list starts with
    `columns(model, alias)`; None when it finds no row."""
    found = first_all(sql, params, (model, alias))
    return None if found is None else found[0]


def first_all(
    sql: str, params: Sequence, *parts: tuple[type[Model], str], joined: bool = False
) -> list[Model | None] | None:
    """`build_all` of the first row of `sql` (`build_joined` if `joined`: parts after the
    first come from outer joins); None when it finds no row."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    return build_joined(row, *parts) if joined else build_all(row, *parts)


def all_rows(sql: str, params: Sequence) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def storable_pk(model: type[Model], value: int) -> bool:
    """Whether the primary key column can hold `value` (an id from the URL may be any number).
    The ORM finds no row for one it cannot; a written-out statement would make SQLite raise."""
    low, high = connection.ops.integer_field_range(model._meta.pk.get_internal_type())
    return (low is None or value >= low) and (high is None or value <= high)
