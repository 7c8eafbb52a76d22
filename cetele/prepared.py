"""Querysets compiled once per database connection and run again with new values; rows
inserted by a statement built once per model (insert_row).

Building a query through the ORM (resolving lookups and JSON paths, compiling the SQL, working
out how each column's value is converted) took ten times as long as running it for the small,
hot reads a table makes on every change (bench/profile.py). A prepared query keeps the ORM as
the one place the SQL comes from, for every database we run on, and does that work once:

    played = prepared(lambda match_id: Hand.objects.filter(match_id=match_id).values_list(...))
    rows = played(match.pk)

The builder is called once per connection with a placeholder for each value; the placeholders
are found among the compiled query's parameters and replaced by the values at each run. Only for
integer values, such as keys: a placeholder is an integer that every integer field takes (the ORM
drops a condition that no value in a field's range could fail, and refuses one none could meet,
so a placeholder out of range would not come through as a parameter), and a builder whose query
does not carry each placeholder as a parameter is refused when first compiled.
"""

from collections.abc import Callable
from datetime import datetime
from functools import cached_property, lru_cache

from django.db import connections, router
from django.db.models import DateTimeField, Model, QuerySet
from django.utils import timezone

# One per value a builder takes: in the range of every integer field (a small one's is 0-32767),
# and no constant a builder of ours writes.
PLACEHOLDERS = (32749, 32719, 32717, 32713, 32707, 32693, 32687, 32653)


class PreparedQuery:
    def __init__(self, build: Callable[..., QuerySet]):
        self.build = build
        self.compiled = lru_cache(maxsize=64)(self._compile)

    @cached_property
    def model(self):  # not at import: a models module defines its queries before apps are ready
        return self.build(*PLACEHOLDERS[: self.build.__code__.co_argcount]).model

    def _compile(self, connection) -> tuple:
        """(sql, where each parameter comes from, compiler, converters) for this connection."""
        arity = self.build.__code__.co_argcount
        compiler = self.build(*PLACEHOLDERS[:arity]).query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        slots = tuple(
            ("value", PLACEHOLDERS.index(param))
            if isinstance(param, int) and param in PLACEHOLDERS
            else ("fixed", param)
            for param in params
        )
        found = {index for kind, index in slots if kind == "value"}
        if found != set(range(arity)):
            raise ValueError(f"{self.build!r}: the query does not carry each value as a parameter")
        columns = [column for column, *_ in compiler.select[: compiler.col_count]]
        return sql, slots, compiler, compiler.get_converters(columns)

    def __call__(self, *values) -> list[tuple]:
        connection = connections[router.db_for_read(self.model)]
        sql, slots, compiler, converters = self.compiled(connection)
        params = [values[item] if kind == "value" else item for kind, item in slots]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if converters:
            rows = compiler.apply_converters(rows, converters)
        return [tuple(row) for row in rows]


def prepared(build: Callable[..., QuerySet]) -> PreparedQuery:
    """`build`'s query, compiled once per connection: call it with the values for its
    parameters to get its rows as tuples (a values_list() queryset's, say)."""
    return PreparedQuery(build)


def insert_row(model: type[Model], *, at: datetime | None = None, **values) -> int:
    """Insert one row of `model` and return its key, as `model.objects.create(**values)` would
    but without making the object or sending its signals (save() sends pre_save and post_save;
    none of our models listens). Every field but the key is written: from `values` by its
    attribute name, else the moment `at` (now if not given) for an auto_now(_add) date, else its
    default; each value adapted for the database by its field, as the ORM does. Only the
    statement is written here, once per model and database: building it through the ORM took
    twice as long as running it, on every save (bench/profile.py)."""
    connection = connections[router.db_for_write(model)]
    sql, fields = _insert_statement(model, connection.alias)
    unknown = values.keys() - {field.attname for field in fields}
    if unknown:
        raise TypeError(f"{model.__name__} has no fields {sorted(unknown)}")
    moment = at or timezone.now()
    params = []
    for field in fields:
        if field.attname in values:
            params.append(field.get_db_prep_save(values[field.attname], connection))
        elif getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
            params.append(db_moment(moment, connection.alias))
        else:
            params.append(field.get_db_prep_save(field.get_default(), connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if connection.features.can_return_columns_from_insert:
            return cursor.fetchone()[0]
        return connection.ops.last_insert_id(cursor, model._meta.db_table, model._meta.pk.column)


@lru_cache(maxsize=8)
def db_moment(moment: datetime, alias: str):
    """A moment as a date-and-time column takes it on this database, worked out once: a save
    writes the same moment into four columns, and adapting it took 5 µs each time."""
    return DateTimeField().get_db_prep_save(moment, connections[alias])


@lru_cache(maxsize=16)
def _insert_statement(model: type[Model], alias: str) -> tuple[str, list]:
    """The INSERT of one row of `model` on this database, and the fields it writes in order."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    columns = ", ".join(quote(field.column) for field in fields)
    places = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({places})"
    if connection.features.can_return_columns_from_insert:
        sql += f" RETURNING {quote(model._meta.pk.column)}"
    return sql, fields
