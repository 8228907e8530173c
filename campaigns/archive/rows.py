"""One row as an archive's record and back: plain JSON values, other rows by their number, people by username."""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models

from campaigns.archive.registry import Renumber, Table, json_rewrites

CAMPAIGN_LABEL = "campaigns.Campaign"


def _user_model_label() -> str:
    return str(settings.AUTH_USER_MODEL)


def target_label(field: Any) -> str:
    """The model label a relation field points to (``""`` for a plain field)."""
    related = field.related_model if field.is_relation else None
    return str(related._meta.label) if related is not None and not isinstance(related, str) else ""


def is_campaign(field: Any) -> bool:
    """The row's link to its campaign: implied by the archive, never written."""
    return target_label(field) == CAMPAIGN_LABEL


def is_person(field: Any) -> bool:
    return target_label(field) == _user_model_label()


def archived_fields(table: Table) -> list[models.Field[Any, Any]]:
    """The fields a record holds, in the model's order: neither the id, nor the campaign, nor what is skipped."""
    return [
        f
        for f in table.model._meta.concrete_fields
        if not (f.primary_key and not f.is_relation) and not is_campaign(f) and f.name not in table.skip
    ]


def m2m_fields(table: Table) -> list[models.ManyToManyField[Any, Any]]:
    return [f for f in table.model._meta.many_to_many if f.name not in table.skip]


def plain(value: Any) -> Any:
    """A field's Python value as JSON: dates and times in ISO 8601, decimals as strings."""
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, Decimal):
        return str(value)
    return value


def links(table: Table, objs: list[models.Model]) -> dict[str, dict[int, list[int]]]:
    """Per many-to-many field, the ids each row links to (one query per field, not one per row)."""
    found: dict[str, dict[int, list[int]]] = {}
    pks = [obj.pk for obj in objs]
    for field in m2m_fields(table):
        through: Any = field.remote_field.through
        source, target = field.m2m_field_name(), field.m2m_reverse_field_name()
        pairs = through.objects.filter(**{f"{source}__in": pks}).values_list(f"{source}_id", f"{target}_id")
        per_row: dict[int, list[int]] = {}
        for row, other in pairs:
            per_row.setdefault(row, []).append(other)
        found[field.name] = per_row
    return found


def record_of(
    obj: models.Model,
    table: Table,
    number: int,
    renumber: Renumber,
    username: Callable[[int | None], str | None],
    linked: dict[str, dict[int, list[int]]],
) -> dict[str, Any]:
    record: dict[str, Any] = {"id": number}
    rewrites = json_rewrites(table)
    for field in archived_fields(table):
        if field.is_relation:
            raw = getattr(obj, field.attname)
            if is_person(field):
                record[field.name] = username(raw)
            else:
                record[field.name] = renumber(target_label(field), raw)
            continue
        value = field.value_from_object(obj)
        if field.name in rewrites:
            value = rewrites[field.name](copy.deepcopy(value), renumber, obj)
        record[field.name] = plain(value)
    for field in m2m_fields(table):
        label = target_label(field)
        record[field.name] = sorted(renumber(label, pk) for pk in linked[field.name].get(obj.pk, []))
    return record


def numbered(table: Table, objs: Iterable[models.Model], renumber: Renumber) -> list[models.Model]:
    """The table's rows in the order of their ids; ``renumber`` learns their numbers 1, 2, 3…"""
    rows = sorted(objs, key=lambda obj: obj.pk)
    for number, obj in enumerate(rows, start=1):
        renumber.add(table.label, obj.pk, number)
    return rows


def records_of(
    table: Table, rows: list[models.Model], renumber: Renumber, username: Callable[[int | None], str | None]
) -> list[dict[str, Any]]:
    """The numbered rows as records (every table numbered first: a JSON field may name rows of a later table)."""
    linked = links(table, rows)
    return [record_of(obj, table, number, renumber, username, linked) for number, obj in enumerate(rows, start=1)]
