"""Querysets compiled once per database connection and run again with new values.

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
from functools import cached_property, lru_cache

from django.db import connections, router
from django.db.models import QuerySet

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
