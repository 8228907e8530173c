"""Check a whole archive before anything is written: its format and version, every record's fields and types,
every reference to another row. A bad archive is refused with its first reasons, and nothing is created."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaigns.archive.registry import Table, tables
from campaigns.archive.rows import archived_fields, is_person, m2m_fields, target_label
from campaigns.archive.writing import CAMPAIGN_TABLE, FORMAT, SCHEMA_VERSION
from campaigns.models import Campaign, Role
from core.errors import ServiceError
from core.jsonlimits import JsonRefused, loads_limited

# Event payloads and game snapshots nest a few levels; far below what would exhaust Python's recursion.
MAX_DEPTH = 64
MAX_REASONS = 5


@dataclass
class Row:
    """One record, checked: the unsaved row, and its references by number (rows) or by username (people)."""

    number: int
    record: dict[str, Any]
    obj: models.Model
    refs: dict[str, int | None] = field(default_factory=dict)
    people: dict[str, str | None] = field(default_factory=dict)


@dataclass
class Plan:
    """A checked archive, ready to be restored."""

    campaign: Campaign
    public_log: bool
    stream_position: int
    exported_by: str
    members: list[dict[str, str]]
    rows: dict[str, list[Row]]


def max_archive_bytes() -> int:
    return int(settings.ARCHIVE_MAX_BYTES)


class _Reasons:
    def __init__(self) -> None:
        self.found: list[str] = []

    def add(self, where: str, what: str) -> None:
        self.found.append(f"{where}: {what}")

    def refuse_if_any(self) -> None:
        if self.found:
            shown = "; ".join(self.found[:MAX_REASONS])
            more = len(self.found) - MAX_REASONS
            if more > 0:
                shown += " " + ngettext("(and %(count)d more reason)", "(and %(count)d more reasons)", more) % {
                    "count": more
                }
            raise ServiceError(_("This archive cannot be imported: %(reasons)s.") % {"reasons": shown})


def _finite(value: Any) -> bool:
    """No number too big for a float (``1e400`` reads as infinity, which no database stores as JSON)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return False
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def archive_parsed(data: bytes | str) -> dict[str, Any]:
    """The archive's JSON, or a refusal when it is too big, not JSON, too deep or not an object."""
    limit = max_archive_bytes()
    if len(data) > limit:
        raise ServiceError(
            _("This archive is too big: at most %(size)d MB.") % {"size": max(1, limit // (1024 * 1024))}
        )
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        parsed = loads_limited(text, max_bytes=limit, max_depth=MAX_DEPTH)
        if not _finite(parsed):
            raise JsonRefused("a number out of range")
    except (UnicodeDecodeError, JsonRefused, ValueError) as exc:
        raise ServiceError(_("This file is not a Tablée campaign archive (it is not valid JSON).")) from exc
    if not isinstance(parsed, dict) or parsed.get("format") != FORMAT:
        raise ServiceError(_("This file is not a Tablée campaign archive."))
    version = parsed.get("schema_version")
    if version != SCHEMA_VERSION:
        raise ServiceError(
            _("This archive has schema version %(version)s; this server reads version %(known)d.")
            % {"version": str(version)[:12], "known": SCHEMA_VERSION}
        )
    return parsed


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fields_of(where: str, table: Table, record: Any, reasons: _Reasons, numbered: bool) -> bool:
    if not isinstance(record, dict):
        reasons.add(where, _("a record must be a JSON object"))
        return False
    expected = {f.name for f in archived_fields(table)} | {f.name for f in m2m_fields(table)}
    if numbered:
        expected.add("id")
    missing, unknown = sorted(expected - record.keys()), sorted(record.keys() - expected)
    if missing:
        reasons.add(where, _("missing fields: %(fields)s") % {"fields": ", ".join(missing)})
    if unknown:
        reasons.add(where, _("unknown fields: %(fields)s") % {"fields": ", ".join(str(k)[:40] for k in unknown[:5])})
    return not missing and not unknown


def _row_of(where: str, table: Table, record: dict[str, Any], numbers: dict[str, set[int]], reasons: _Reasons) -> Row:
    obj = table.model()
    row = Row(number=record.get("id", 0), record=record, obj=obj)
    relations = []
    for f in archived_fields(table):
        value = record[f.name]
        if isinstance(f, models.JSONField):
            # Parsed from JSON already; an empty list or object is a value here (an empty discard pile).
            if value is None and not f.null:
                reasons.add(where, _("%(field)s is required") % {"field": f.name})
            setattr(obj, f.attname, value)
            relations.append(f.name)
            continue
        if not f.is_relation:
            setattr(obj, f.attname, value)
            continue
        relations.append(f.name)
        if value is None:
            if not f.null:
                reasons.add(where, _("%(field)s is required") % {"field": f.name})
            (row.people if is_person(f) else row.refs)[f.name] = None
        elif is_person(f):
            if not isinstance(value, str) or not value or len(value) > 150:
                reasons.add(where, _("%(field)s must be a username") % {"field": f.name})
            row.people[f.name] = value if isinstance(value, str) else None
        else:
            label = target_label(f)
            same_table_later = label == table.label and _is_int(value) and value >= row.number
            if not _is_int(value) or value not in numbers.get(label, set()) or same_table_later:
                reasons.add(
                    where, _("%(field)s names no earlier row (%(value)s)") % {"field": f.name, "value": str(value)[:20]}
                )
            row.refs[f.name] = value if _is_int(value) else None
    for f in m2m_fields(table):
        value = record[f.name]
        label = target_label(f)
        if not isinstance(value, list) or not all(_is_int(v) and v in numbers.get(label, set()) for v in value):
            reasons.add(where, _("%(field)s must list rows of the archive") % {"field": f.name})
        relations.append(f.name)
    # The links are checked above; the campaign's and the skipped fields are set on restoring.
    relations += [f.name for f in table.model._meta.concrete_fields if f.is_relation] + list(table.skip)
    try:
        obj.clean_fields(exclude=relations)
    except ValidationError as exc:
        for name, messages in exc.message_dict.items():
            reasons.add(where, f"{name}: {' '.join(str(m) for m in messages)}")
    return row


def _members(value: Any, reasons: _Reasons) -> list[dict[str, str]]:
    members: list[dict[str, str]] = []
    if not isinstance(value, list):
        reasons.add("members", _("must be a list"))
        return members
    for index, item in enumerate(value, start=1):
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("username"), str)
            or not 0 < len(item["username"]) <= 150
            or item.get("role") not in Role.values
        ):
            reasons.add(f"members {index}", _("a member is a username and a role"))
            continue
        members.append({"username": item["username"], "role": item["role"]})
    return members


def archive_checked(parsed: dict[str, Any]) -> Plan:
    """Every record checked (every reason is gathered before refusing), or a refusal naming the first ones."""
    reasons = _Reasons()
    sections = parsed.get("sections")
    if not isinstance(sections, dict):
        raise ServiceError(_("This archive cannot be imported: %(reasons)s.") % {"reasons": "sections"})
    known = tables()
    expected = {(t.section, t.key) for t in known}
    for section, content in sections.items():
        if not isinstance(content, dict):
            reasons.add(str(section)[:40], _("must be a JSON object"))
            continue
        for key in content:
            if (section, key) not in expected:
                reasons.add(f"{str(section)[:40]}.{str(key)[:40]}", _("unknown table"))
    records: dict[str, list[Any]] = {}
    numbers: dict[str, set[int]] = {}
    for table in known:
        listed = (
            sections.get(table.section, {}).get(table.key) if isinstance(sections.get(table.section), dict) else None
        )
        if not isinstance(listed, list):
            reasons.add(f"{table.section}.{table.key}", _("missing table"))
            listed = []
        records[table.label] = listed
        ids: list[Any] = [r.get("id") for r in listed if isinstance(r, dict)]
        if any(not _is_int(i) or i < 1 for i in ids) or len(set(ids)) != len(ids):
            reasons.add(f"{table.section}.{table.key}", _("every record needs its own number (id)"))
        numbers[table.label] = {int(i) for i in ids if _is_int(i)}
    reasons.refuse_if_any()

    campaign_record: Any = parsed.get("campaign")
    campaign: Any = Campaign()
    if _fields_of("campaign", CAMPAIGN_TABLE, campaign_record, reasons, numbered=False):
        campaign = _row_of("campaign", CAMPAIGN_TABLE, campaign_record, numbers, reasons).obj
    rows: dict[str, list[Row]] = {}
    for table in known:
        rows[table.label] = []
        for index, record in enumerate(records[table.label], start=1):
            where = f"{table.section}.{table.key} {index}"
            if _fields_of(where, table, record, reasons, numbered=True):
                rows[table.label].append(_row_of(where, table, record, numbers, reasons))
        rows[table.label].sort(key=lambda row: row.number)
    members = _members(parsed.get("members"), reasons)
    head: Any = parsed.get("stream_position")
    stream_position = int(head) if _is_int(head) and head >= 0 else 0
    if stream_position != head:
        reasons.add("stream_position", _("must be a whole number"))
    exported_by = parsed.get("exported_by")
    if not isinstance(exported_by, str):
        reasons.add("exported_by", _("must be a username"))
        exported_by = ""
    public_log = parsed.get("public_log")
    if not isinstance(public_log, bool):
        reasons.add("public_log", _("must be true or false"))
    _check_positions(rows, stream_position, reasons)
    reasons.refuse_if_any()
    return Plan(
        campaign=campaign,
        public_log=bool(public_log),
        stream_position=stream_position,
        exported_by=exported_by,
        members=members,
        rows=rows,
    )


def _check_positions(rows: dict[str, list[Row]], stream_position: int, reasons: _Reasons) -> None:
    """The log's stream positions: each once, none past the stream's head."""
    seen: set[int] = set()
    for row in rows.get("campaigns.Event", []):
        position = getattr(row.obj, "position", None)
        if position is None:
            continue
        if position in seen or position > stream_position:
            reasons.add(
                f"campaigns.event {row.number}",
                _("position %(position)s is taken or past the stream's head") % {"position": position},
            )
        seen.add(position)
