"""A settings change as the log tells it: « mode de création : Standard → Style libre », never ``creation_mode``.

Services log ``{"changed": {field: [old, new]}}``; the describers of every app read it through ``changes_text``
with the model the fields belong to, so labels and values follow the reader's language: a field reads as its
``verbose_name``, a choice as its label, a yes-or-no as « oui » / « non ». Long texts (a description) are named,
not quoted. Describers never touch the database: the model's metadata is all this reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils.translation import gettext as _

# Fields whose values are too long for a log line: the line says they changed.
QUIET = frozenset({"description", "description_fr", "description_en"})
Formatter = Callable[[Any], str]


def yes_no(value: Any) -> str:
    return _("yes") if value else _("no")


def field_label(model: type[models.Model], name: str) -> str:
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return name.replace("_", " ")
    return str(getattr(field, "verbose_name", name))


def field_value(model: type[models.Model], name: str, value: Any) -> str:
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        field = None
    if isinstance(field, models.BooleanField) or isinstance(value, bool):
        return yes_no(value)
    choices = dict(getattr(field, "flatchoices", None) or ())
    if value in choices:
        label = str(choices[value])
        return label or _("none")
    if value in (None, ""):
        return _("none")
    return str(value)


def changes_text(
    model: type[models.Model] | None,
    changed: Mapping[str, Sequence[Any]],
    *,
    labels: Mapping[str, Callable[[], str]] | None = None,
    values: Mapping[str, Formatter] | None = None,
) -> str:
    """« label : old → new ; label changed » for each field of ``changed``; ``labels`` and ``values`` name the
    fields and values of a payload that is no model's (a trait of the list, the dice of each rank)."""
    parts = []
    # In a fixed order (the labels' or the model's fields'): PostgreSQL's jsonb keeps no key order.
    position = {name: i for i, name in enumerate(labels or ())}
    if model is not None:
        position.update({f.name: len(position) + i for i, f in enumerate(model._meta.fields) if f.name not in position})
    for name in sorted(changed, key=lambda n: (position.get(n, len(position)), n)):
        pair = changed[name]
        label = labels[name]() if labels and name in labels else (field_label(model, name) if model else name)
        if name in QUIET or not isinstance(pair, (list, tuple)) or len(pair) != 2:
            parts.append(_("%(label)s changed") % {"label": label})
            continue
        if values and name in values:
            old, new = values[name](pair[0]), values[name](pair[1])
        elif model is not None:
            old, new = field_value(model, name, pair[0]), field_value(model, name, pair[1])
        else:
            old, new = str(pair[0]), str(pair[1])
        parts.append(_("%(label)s: %(old)s → %(new)s") % {"label": label, "old": old, "new": new})
    return " · ".join(parts)
