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
from django.db.models.query import (  # type: ignore[attr-defined]  # Django's own
    ValuesListIterable,
    get_related_populators,
)
from django.db.models.sql.compiler import SQLCompiler

M = TypeVar("M", bound=Model)


@dataclass
class _Compiled:
    db: str
    vendor: str
    sql: str
    compiler: SQLCompiler
    model: type[Model] | None  # None: a ``values_list`` read, whose rows are tuples
    start: int
    end: int
    init_list: list[str]
    populators: list[Any]
    converters: Any
    widths: tuple[Any, ...] | None  # the int type of each parameter, where the backend gives one
    # Each parameter in the SQL's order: ``None`` for an argument (they come in order), else ``(value,)``, the query's
    # own (a JSON path): ``None`` when the query has none of its own.
    own: tuple[Any, ...] | None


def _flat(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(chain.from_iterable(a if isinstance(a, tuple) else (a,) for a in args))


def _stand_ins(args: tuple[Any, ...], first: int) -> tuple[Any, ...]:
    """The arguments' stand-ins, numbered from ``first``, in the arguments' shape."""
    numbers = iter(range(first, first + len(_flat(args))))
    return tuple(
        tuple(_stand_in(a, next(numbers)) for a in arg) if isinstance(arg, tuple) else _stand_in(arg, next(numbers))
        for arg in args
    )


def _stand_in(value: Any, n: int) -> Any:
    """A value of the argument's type that no other argument of the read has."""
    if type(value) is str:
        return f"prepared-stand-in-{n}"
    if type(value) is int:
        return 20_000 + n  # within every integer column's range: Django drops a bound it knows always holds
    raise TypeError(f"A prepared read takes ints and strings: {value!r}")


class PreparedRead(Generic[M]):
    """``build(*args)`` compiled once per thread (and per length of its tuple arguments), run with each call's
    ``args``: the instances, as ``list(build(*args))``, or the tuples of a ``values_list`` read.

    An argument may be a tuple of distinct values for an ``__in`` filter: the SQL has one placeholder per value,
    so it is compiled once per length; an empty tuple matches nothing and reads nothing, as Django does."""

    def __init__(self, build: Callable[..., QuerySet[M, Any]]) -> None:
        self._build = build
        self._local = threading.local()

    def _compile(self, args: tuple[Any, ...]) -> _Compiled:
        # Compiled from stand-ins, one distinct value per argument, not from the call's own values: two arguments
        # that happen to be equal (a campaign and a sequence both numbered 1) would hide SQL that takes them in
        # another order. Compiled twice, from two sets of stand-ins: a parameter that is neither set's stand-in and
        # the same in both is the query's own (a JSON path on SQLite), kept as it is; one that moves with the
        # arguments but is not theirs as they are (an argument plus one) is refused.
        ones, others = _stand_ins(args, 1), _stand_ins(args, 1001)
        queryset = self._build(*ones)
        private = (queryset._known_related_objects, queryset._prefetch_related_lookups)  # type: ignore[attr-defined]  # Django's own
        if any(private):
            raise ImproperlyConfigured("A prepared read makes its instances alone: no related manager, no prefetch.")
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        other_sql, other_params = self._build(*others).query.get_compiler(using=queryset.db).as_sql()
        flat, other_flat = _flat(ones), _flat(others)
        slots: list[int | None] = []
        for p, q in zip(params, other_params, strict=False):
            if not (type(p) is str or (isinstance(p, int) and not isinstance(p, bool))):
                slots.append(-1)  # not a value of ours: refused below
            elif (
                p in flat
                and isinstance(p, str) == isinstance(flat[flat.index(p)], str)
                and q == other_flat[flat.index(p)]
            ):
                slots.append(flat.index(p))  # an argument (PostgreSQL's backend may hand an int as its column's width)
            else:
                slots.append(None if p == q and isinstance(p, str) == isinstance(q, str) else -1)
        if (
            sql != other_sql
            or len(params) != len(other_params)
            or [slot for slot in slots if slot is not None] != list(range(len(flat)))
        ):
            raise ImproperlyConfigured(
                f"A prepared read's SQL must take its arguments as they are: {params!r} {ones!r}"
            )
        # PostgreSQL's backend passes an int as the column's own width (psycopg's Int2, Int4, Int8): so do we.
        widths = tuple(type(p) if type(p) not in (int, str) else None for p in params)
        values = queryset._iterable_class is ValuesListIterable
        # Django selects a ``values_list`` read's columns in the order it names them, annotations among them: the
        # rows are then the tuples Django would make. Anything selected besides what it names is refused.
        if values and (queryset.query.extra_select or list(queryset.query.selected or ()) != list(queryset._fields)):  # type: ignore[attr-defined]  # Django's own
            raise ImproperlyConfigured("A prepared values_list read selects the columns it names, in their order.")
        klass_info = None if values else compiler.klass_info
        if not values and (klass_info is None or compiler.annotation_col_map):
            raise ImproperlyConfigured("A prepared read makes model instances or value tuples, without annotations.")
        select = compiler.select
        fields = [s[0] for s in select[0 : compiler.col_count]]
        start, end = (klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1) if klass_info else (0, 0)
        return _Compiled(
            db=queryset.db,
            vendor=connections[queryset.db].vendor,
            sql=sql,
            compiler=compiler,
            model=klass_info["model"] if klass_info else None,
            start=start,
            end=end,
            init_list=[f[0].target.attname for f in select[start:end]],
            populators=get_related_populators(klass_info, select, queryset.db) if klass_info else [],
            converters=compiler.get_converters(fields),
            widths=widths if any(widths) else None,
            own=tuple(None if slot is not None else (p,) for slot, p in zip(slots, params, strict=True))
            if None in slots
            else None,
        )

    def __call__(self, *args: Any) -> list[Any]:
        if any(isinstance(a, tuple) and not a for a in args):
            return []
        if any(type(a) not in (int, str) for a in _flat(args)):  # None, a bool, an object: SQL of another shape
            raise TypeError(f"A prepared read takes ints and strings: {args!r}")
        shape = tuple(len(a) if isinstance(a, tuple) else -1 for a in args)
        kept: dict[tuple[int, ...], _Compiled] | None = getattr(self._local, "compiled", None)
        if kept is None:
            kept = self._local.compiled = {}
        compiled = kept.get(shape)
        if compiled is None or connections[compiled.db].vendor != compiled.vendor:
            compiled = kept[shape] = self._compile(args)
        params = _flat(args)
        if compiled.own is not None:
            given = iter(params)
            params = tuple(next(given) if own is None else own[0] for own in compiled.own)
        if compiled.widths is not None:
            params = tuple(a if w is None else w(a) for w, a in zip(compiled.widths, params, strict=True))
        with connections[compiled.db].cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows: Any = cursor.fetchall()
        if compiled.converters:
            rows = compiled.compiler.apply_converters(chain.from_iterable([rows]), compiled.converters)
        if compiled.model is None:  # ``values_list``: the columns it names, as a tuple
            return [tuple(row) for row in rows]
        out = []
        start, end, init_list, db = compiled.start, compiled.end, compiled.init_list, compiled.db
        for row in rows:
            obj = compiled.model.from_db(db, init_list, row[start:end])
            for populator in compiled.populators:
                populator.populate(row, obj)
            out.append(obj)
        return out
