"""What each app puts in a campaign's archive: its tables, in the order they are restored.

An app registers a ``Table`` per model from its ``AppConfig.ready()``, through its ``sections.Section`` (which
says the section's name and order once): the campaign app cannot import the feature apps (the layers
contract), so it learns of their tables here, as it learns of their hooks in ``campaigns.hooks``.

Ids never leave the server: in an archive every row is numbered 1, 2, 3… within its table (in the order of
the database's ids), and a reference to another row is that number. The ids some JSON fields hold (a
Sequence's outcome is keyed by participant, the round tracker lists characters) are rewritten the same way
by the table's ``json_ids`` functions, which receive a ``Renumber``: on export it turns a database id into
the archive's number, on import the archive's number into the new row's id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db import models

if TYPE_CHECKING:
    from campaigns.models import Campaign


class Renumber:
    """Maps the ids of rows of one side (database or archive) to those of the other, per model label.

    An id with no match (a row the log still names but that was removed since) becomes 0, which no row has:
    a link built from it answers 404, and the log still reads the same.
    """

    def __init__(self, maps: dict[str, dict[int, int]] | None = None) -> None:
        self.maps: dict[str, dict[int, int]] = maps if maps is not None else {}

    def add(self, label: str, old: int, new: int) -> None:
        self.maps.setdefault(label, {})[old] = new

    def __call__(self, label: str, value: Any) -> Any:
        """``value`` renumbered, of the same type: an int, a digit string (a JSON object's key), or None."""
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int):
            return self.maps.get(label, {}).get(value, 0)
        if isinstance(value, str) and value.isdigit():
            return str(self.maps.get(label, {}).get(int(value), 0))
        return value

    def keys(self, label: str, value: Any) -> Any:
        """A JSON object whose keys are ids of ``label``, its keys renumbered (anything else unchanged)."""
        if not isinstance(value, dict):
            return value
        return {self(label, key): item for key, item in value.items()}


JsonIds = Callable[[Any, Renumber, Any], Any]
"""``rewrite(value, renumber, row)``: a JSON field's value with the ids it holds renumbered (a new value)."""


@dataclass(frozen=True)
class Table:
    """One model's rows in an archive.

    ``rows(campaign)``: the campaign's rows of this model. ``section``: the archive's part it is written
    under (the app's label). ``order``: tables are restored by increasing order, so a row comes after those
    it refers to. ``skip``: fields left out (secrets of the server such as tokens, what is rebuilt on save).
    ``json_ids``: per JSON field, how to renumber the ids it holds; they are rewritten once every table is
    restored (a Sequence's outcome names participants, restored after it), except in a ``written_once``
    table (the log: a row is never changed), whose rows are written renumbered, so it must come after every
    table its JSON names. ``after_restore(objs, campaign)``: what a restored table still needs (a fresh
    token), run once all its rows are written.
    """

    model: type[models.Model]
    rows: Callable[[Campaign], Iterable[models.Model]]
    section: str
    order: int
    skip: tuple[str, ...] = ()
    json_ids: dict[str, JsonIds] = field(default_factory=dict)
    after_restore: Callable[[list[Any], Campaign], None] | None = None
    written_once: bool = False
    before_insert: Callable[[Any], None] | None = None

    @property
    def label(self) -> str:
        return self.model._meta.label

    @property
    def key(self) -> str:
        return self.model._meta.model_name or self.model.__name__.lower()


_tables: list[Table] = []


def register_table(table: Table) -> Table:
    if all(known.label != table.label for known in _tables):
        _tables.append(table)
    return table


def tables() -> list[Table]:
    """Every registered table, in restoring order (stable for equal orders: the registration order)."""
    return sorted(_tables, key=lambda table: table.order)


# Another app may know of ids inside a table's JSON that the table's own app cannot name (a ledger line's roll
# names a Sequence): ``register_json_ids("characters.AtoutEntry", "context", func)`` adds its rewrite.
_extra_json_ids: dict[tuple[str, str], list[JsonIds]] = {}


def register_json_ids(label: str, name: str, rewrite: JsonIds) -> JsonIds:
    known = _extra_json_ids.setdefault((label, name), [])
    if rewrite not in known:
        known.append(rewrite)
    return rewrite


def json_rewrites(table: Table) -> dict[str, JsonIds]:
    """Per JSON field of ``table``, its rewrite: the table's own, then those other apps added."""
    names = set(table.json_ids) | {name for label, name in _extra_json_ids if label == table.label}

    def chained(name: str) -> JsonIds:
        steps = ([table.json_ids[name]] if name in table.json_ids else []) + _extra_json_ids.get(
            (table.label, name), []
        )

        def rewrite(value: Any, renumber: Renumber, row: Any) -> Any:
            for step in steps:
                value = step(value, renumber, row)
            return value

        return rewrite

    return {name: chained(name) for name in sorted(names)}


# Event payloads hold ids too (the character a line is about, the game it reports); each app renumbers the
# kinds it writes: ``register_payload_ids("sequence.", func)``.
_payload_ids: list[tuple[str, JsonIds]] = []


def register_payload_ids(prefix: str, rewrite: JsonIds) -> JsonIds:
    if (prefix, rewrite) not in _payload_ids:
        _payload_ids.append((prefix, rewrite))
    return rewrite


def payload_renumbered(payload: Any, renumber: Renumber, event: Any) -> Any:
    """An event's payload with the ids of every app's kinds renumbered (``event.kind`` chooses the rewrites)."""
    kind = getattr(event, "kind", "") or ""
    for prefix, rewrite in _payload_ids:
        if kind.startswith(prefix) or prefix == "":
            payload = rewrite(payload, renumber, event)
    return payload


def _id_values(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    )


def ids_renumbered(
    value: Any,
    renumber: Renumber,
    names: dict[str, str],
    *,
    keyed_by: str | None = None,
    not_keyed: frozenset[str] = frozenset(),
) -> Any:
    """A JSON value with the ids it holds renumbered, at any depth.

    ``names``: a key whose value is an id (or a list of ids) of a model label (``{"character_id":
    "characters.Character"}``). ``keyed_by``: a model label whose ids key the objects whose keys are all digits
    (a Sequence's outcome is keyed by participant), except under the keys of ``not_keyed``.
    """
    if isinstance(value, dict):
        renamed = keyed_by is not None and value and all(isinstance(k, str) and k.isdigit() for k in value)
        result = {}
        for key, item in value.items():
            if key in names and _id_values(item):
                label = names[key]
                item = [renumber(label, v) for v in item] if isinstance(item, list) else renumber(label, item)
            elif key not in not_keyed:
                item = ids_renumbered(item, renumber, names, keyed_by=keyed_by, not_keyed=not_keyed)
            result[renumber(keyed_by, key) if renamed and keyed_by else key] = item
        return result
    if isinstance(value, list):
        return [ids_renumbered(item, renumber, names, keyed_by=keyed_by, not_keyed=not_keyed) for item in value]
    return value
