"""Reads of a fixed shape whose SQL is compiled once, then run with new arguments.

Django compiles a QuerySet to SQL on every evaluation. For the reads of a Sequence page that cost more than
running them: the sequence with its scene 0.6 ms, its participants with their characters 0.9 ms, the member with
the campaign 0.3 ms (in process, SQLite; about a third of the cold narrator's page, docs/benchmarks.md, session 7).
A ``PreparedRead`` is built from a function of the read's arguments that returns the QuerySet. The first call in a
thread builds it and compiles it; later calls run the same SQL with their arguments and make the instances as
Django's ``ModelIterable`` does (``from_db``, the ``select_related`` rows, the database converters).

It only fits reads whose SQL does not depend on the values of the arguments: equality filters on ids, a fixed
ordering, a fixed LIMIT. The first compilation checks that the SQL's parameters are the arguments, in order and
unchanged by the database adapter (ints, strings): a read that does not fit raises ``ImproperlyConfigured`` at its
first use (a test), rather than running the wrong SQL. Queries still go through the connection's cursor, so query
counts and ``CaptureQueriesContext`` see them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain
from typing import Any, Generic, TypeVar

from django.core.exceptions import ImproperlyConfigured
from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]  # Django's own
from django.db.models.sql.compiler import SQLCompiler

M = TypeVar("M", bound=Model)


@dataclass
class _Compiled:
    db: str
    vendor: str
    sql: str
    compiler: SQLCompiler
    model: type[Model]
    start: int
    end: int
    init_list: list[str]
    populators: list[Any]
    converters: Any


class PreparedRead(Generic[M]):
    """``build(*args)`` compiled once per thread, run with each call's ``args``: the instances, as ``list(build(*args))``."""

    def __init__(self, build: Callable[..., QuerySet[M]]) -> None:
        self._build = build
        self._local = threading.local()

    def _compile(self, args: tuple[Any, ...]) -> _Compiled:
        queryset = self._build(*args)
        if queryset._known_related_objects or queryset._prefetch_related_lookups:  # type: ignore[attr-defined]
            raise ImproperlyConfigured("A prepared read makes its instances alone: no related manager, no prefetch.")
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        if tuple(params) != args or any(type(p) not in (int, str) for p in params):
            raise ImproperlyConfigured(
                f"A prepared read's SQL must take its arguments as they are: {params!r} {args!r}"
            )
        klass_info = compiler.klass_info
        if klass_info is None or compiler.annotation_col_map:
            raise ImproperlyConfigured("A prepared read makes model instances, without annotations.")
        select = compiler.select
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        fields = [s[0] for s in select[0 : compiler.col_count]]
        return _Compiled(
            db=queryset.db,
            vendor=connections[queryset.db].vendor,
            sql=sql,
            compiler=compiler,
            model=klass_info["model"],
            start=start,
            end=end,
            init_list=[f[0].target.attname for f in select[start:end]],
            populators=get_related_populators(klass_info, select, queryset.db),
            converters=compiler.get_converters(fields),
        )

    def __call__(self, *args: Any) -> list[M]:
        compiled: _Compiled | None = getattr(self._local, "compiled", None)
        if compiled is None or connections[compiled.db].vendor != compiled.vendor:
            compiled = self._local.compiled = self._compile(args)
        with connections[compiled.db].cursor() as cursor:
            cursor.execute(compiled.sql, args)
            rows: Any = cursor.fetchall()
        if compiled.converters:
            rows = compiled.compiler.apply_converters(chain.from_iterable([rows]), compiled.converters)
        out = []
        start, end, init_list, db = compiled.start, compiled.end, compiled.init_list, compiled.db
        for row in rows:
            obj = compiled.model.from_db(db, init_list, row[start:end])
            for populator in compiled.populators:
                populator.populate(row, obj)
            out.append(obj)
        return out  # type: ignore[return-value]  # instances of the QuerySet's model
