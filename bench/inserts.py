"""Set-based fills that keep up with the models: a bench that writes rows with ``INSERT … SELECT``
names the values it cares about, and the models give every other column its value."""

from __future__ import annotations

from django.db import connection, models
from django.db.models.fields import NOT_PROVIDED, AutoFieldMixin
from psycopg import sql


class FillOutOfDate(Exception):
    """A fill names a column its model no longer has, or leaves out one that needs a value."""


def insert_head(model: type[models.Model], given: dict[str, str]) -> tuple[str, str]:
    """The ``INSERT INTO table (columns)`` of a set-based fill of ``model``'s table, and the list
    of values to select for it.

    ``given`` holds SQL expressions by column. Every other column gets its default from the model
    (as a literal, ``%`` doubled for the statement's parameters), or is left to the database when
    it fills it (an automatic id, a database default) or it may be NULL. A column with none of
    these, or a given column the model does not have, raises :class:`FillOutOfDate`: the fill must
    be told about it, rather than leave it NULL or fail halfway through a long fill.
    """
    table = model._meta.db_table
    fields = {field.column: field for field in model._meta.concrete_fields}
    unknown = sorted(set(given) - set(fields))
    if unknown:
        raise FillOutOfDate(f"{table} has no column {', '.join(unknown)}")
    columns, values = [], []
    for column, field in fields.items():
        by_database = isinstance(field, AutoFieldMixin) or field.db_default is not NOT_PROVIDED
        if column in given:
            value = given[column]
        elif field.has_default():
            default = field.get_db_prep_save(field.get_default(), connection)
            value = sql.Literal(default).as_string().replace("%", "%%")
        elif by_database or field.null:
            continue
        else:
            raise FillOutOfDate(f"no value for {table}.{column}, which has no default")
        columns.append(column)
        values.append(value)
    return f"INSERT INTO {table} ({', '.join(columns)})", ", ".join(values)
