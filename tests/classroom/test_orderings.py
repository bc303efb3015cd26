"""Every model's default ordering sorts by its own columns: a `.first()` or a listing without
`order_by` then joins no other table to sort (ordering by a relation's name would sort by that
model's own ordering, through a join)."""

import pytest
from django.apps import apps


def orderings():
    for app in ("classroom", "games", "reports"):
        for model in apps.get_app_config(app).get_models():
            for name in model._meta.ordering:
                yield model, name


@pytest.mark.parametrize(("model", "name"), list(orderings()))
def test_a_default_ordering_reads_only_the_model_s_own_columns(model, name):
    column = name.removeprefix("-")
    assert "__" not in column, f"{model.__name__} sorts through another table: {name}"
    field = model._meta.pk if column == "pk" else model._meta.get_field(column)
    assert not (field.is_relation and column == field.name), (
        f"{model.__name__} sorts by {field.name}'s own ordering: say {field.attname}"
    )
