"""A queryset (or a write) turned into SQL once per process and database, then run again with other values.

Django builds and compiles a queryset's SQL on every run. For the table's one
read (``state.load``: seats, players, table, host and who is connected) that
is 1.2 ms of the read's 1.7 on this machine, paid by every connect and every
wake that reads (docs/performance.md, "A restart with everyone connected").
``Compiled`` keeps the compiled statement and its compiler, puts the new values
in the parameters where the example values were, and makes the model
instances as Django's ``ModelIterable`` does (``select_related`` and
annotations included). Django still executes it, so query logging, error
wrapping and the connection's life are as for any query.

``CompiledWrite`` does the same for an ``INSERT`` of one row or an ``UPDATE`` of
a queryset: a connect writes its presence row and takes its seat back with them.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from django.db import connections, router
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql import InsertQuery, UpdateQuery
from django.db.models.sql.compiler import SQLCompiler
from django.db.models.sql.constants import MULTI

M = TypeVar("M", bound=Model)

# Examples for ``Compiled``: no table id, row id or stored time of a real row equals these.
EXAMPLE_TABLE = "\x00an example table\x00"
EXAMPLE_ID = -987_654_321
EXAMPLE_TIME = datetime(1970, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)


class Compiled(Generic[M]):
    """``build(*values)`` compiled once per database alias; ``run(*values)`` gives its instances.

    ``examples`` are values of the same types as the real ones that no real
    value and no other parameter equals, one per argument of ``build``, each
    reaching the SQL as a parameter as it is (strings, numbers, datetimes).
    """

    def __init__(self, build: Callable[..., QuerySet[M]], *examples: object) -> None:
        self.build = build
        self.examples = examples
        self._compiled: dict[str, tuple[SQLCompiler, str, tuple[Any, ...], list[tuple[int, int]]]] = {}
        self._model: type[M] | None = None  # the queryset's model, known once it has been built
        self._lock = threading.Lock()

    def run(self, *values: object) -> list[M]:
        """The instances the queryset ``build(*values)`` would give, in its order."""
        # Building the queryset costs as much as running it: it is built only to compile it.
        alias = router.db_for_read(self._model or self.build(*self.examples).model)
        compiled = self._compiled.get(alias)
        if compiled is None:
            compiled = self._compile(self.build(*self.examples), alias)
        base, sql, params, slots = compiled
        connection = connections[alias]
        filled = list(params)
        for position, argument in slots:
            filled[position] = _adapt(connection, values[argument])
        compiler = copy.copy(base)
        compiler.connection = connection  # this thread's connection to the database
        compiler.as_sql = lambda *args, **kwargs: (sql, tuple(filled))  # type: ignore[method-assign]
        rows = compiler.execute_sql(MULTI, chunked_fetch=False)
        return list(_instances(compiler, rows, alias))

    def _compile(
        self, query: QuerySet[M], alias: str
    ) -> tuple[SQLCompiler, str, tuple[Any, ...], list[tuple[int, int]]]:
        compiler = query.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        slots = _slots(connections[alias], self.examples, params)
        with self._lock:
            self._model = query.model
            return self._compiled.setdefault(alias, (compiler, sql, tuple(params), slots))


class CompiledWrite:
    """One ``INSERT`` or ``UPDATE`` compiled once per database alias; ``run(*values)`` executes it again.

    Made with ``insert`` or ``update``; the examples are as for ``Compiled``.
    """

    def __init__(
        self, model: type[Model], make: Callable[[str], tuple[str, Sequence[Any]]], examples: tuple
    ) -> None:
        self.model = model
        self.make = make  # the statement and its parameters for a database alias, with the examples
        self.examples = examples
        self._compiled: dict[str, tuple[str, tuple[Any, ...], list[tuple[int, int]]]] = {}

    @classmethod
    def insert(cls, model: type[Model], fields: Sequence[str], *examples: object) -> CompiledWrite:
        """The ``INSERT`` of one row of ``model`` with ``fields`` (attribute names) set to the values."""

        def make(alias: str) -> tuple[str, Sequence[Any]]:
            query = InsertQuery(model)
            row = model(**dict(zip(fields, examples, strict=True)))
            query.insert_values([model._meta.get_field(name) for name in fields], [row])
            [(sql, params)] = query.get_compiler(using=alias).as_sql()
            return sql, params

        return cls(model, make, examples)

    @classmethod
    def update(
        cls, build: Callable[..., QuerySet[M]], changes: dict[str, object], *examples: object
    ) -> CompiledWrite:
        """``build(*values).update(**changes)``: the changes are fixed, the values are not."""

        def make(alias: str) -> tuple[str, Sequence[Any]]:
            query = build(*examples).query.chain(UpdateQuery)
            query.add_update_values(changes)
            query.clear_select_clause()
            return query.get_compiler(using=alias).as_sql()

        return cls(build(*examples).model, make, examples)

    def run(self, *values: object) -> int:
        """Execute the statement with ``values`` in place of the examples; the rows it wrote."""
        alias = router.db_for_write(self.model)
        compiled = self._compiled.get(alias)
        if compiled is None:
            sql, params = self.make(alias)
            compiled = self._compiled.setdefault(
                alias, (sql, tuple(params), _slots(connections[alias], self.examples, params))
            )
        sql, params, slots = compiled
        connection = connections[alias]
        filled = list(params)
        for position, argument in slots:
            filled[position] = _adapt(connection, values[argument])
        with connection.cursor() as cursor:
            cursor.execute(sql, filled)
            return cursor.rowcount


def _slots(connection: Any, examples: Sequence[object], params: Sequence[Any]) -> list[tuple[int, int]]:
    """Where each example sits among a statement's parameters: (position, which example)."""
    adapted = [_adapt(connection, example) for example in examples]
    slots = [(at, adapted.index(value)) for at, value in enumerate(params) if value in adapted]
    if {argument for _, argument in slots} != set(range(len(examples))):
        raise ValueError(f"each example must reach the SQL as a parameter: {params!r}")
    return slots


def _adapt(connection: Any, value: object) -> object:
    """A value as Django hands it to the database driver (a datetime: as the backend stores it)."""
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    return value


def _instances(compiler: SQLCompiler, rows: Any, alias: str) -> Any:
    """The model instances of ``rows``, as ``django.db.models.query.ModelIterable`` makes them."""
    select, klass_info, annotation_col_map = compiler.select, compiler.klass_info, compiler.annotation_col_map
    model = klass_info["model"]
    start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
    names = [column[0].target.attname for column in select[start:end]]
    populators = get_related_populators(klass_info, select, alias)
    for row in compiler.results_iter(rows):
        instance = model.from_db(alias, names, row[start:end])
        for populator in populators:
            populator.populate(row, instance)
        for name, position in (annotation_col_map or {}).items():
            setattr(instance, name, row[position])
        yield instance
