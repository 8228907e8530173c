"""Widgets rendered once: a form renderer that keeps the HTML of each widget it has drawn.

A widget's HTML is a pure function of its template, its context (name, value, attrs, options — all
plain data once the widget has built it) and the active language. Django re-renders the same
selects and checkboxes on every request through nested templates (a select of 60 options is 60+
template renders); this renderer keys the result by that data, frozen to plain values, and keeps it
in a bounded per-process table. Nothing outside the key can reach the output, so a widget drawn for
one reader can only be served to another reader whose widget has exactly the same data.
Forms, fields and error lists (whose context holds live objects) are rendered as usual.
"""

from __future__ import annotations

import datetime as dt
import decimal
from collections import OrderedDict
from threading import Lock
from typing import Any

from django.forms.renderers import DjangoTemplates
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

MAX_ENTRIES = 4096


class Unfreezable(Exception):
    """The context holds something that is not plain data: render it the usual way."""


_PLAIN = (str, int, float, bool, type(None), decimal.Decimal, dt.date, dt.time, dt.datetime, dt.timedelta)


def freeze(value: Any) -> Any:
    """A hashable copy of plain data; lazy strings become their text in the active language."""
    if isinstance(value, _PLAIN):
        # SafeString and str differ in meaning (escaping), so the type is part of the key.
        return (type(value).__name__, value) if isinstance(value, str) else value
    if isinstance(value, Promise):
        return ("lazy", str(value))
    if isinstance(value, dict):
        return ("dict", tuple((freeze(k), freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return ("seq", tuple(freeze(v) for v in value))
    if type(value).__name__ == "ModelChoiceIteratorValue":
        return ("choice", freeze(value.value))
    raise Unfreezable(type(value).__name__)


class CachedWidgetRenderer(DjangoTemplates):
    """Django's template renderer, with widget HTML kept by (template, language, frozen context)."""

    def __init__(self) -> None:
        super().__init__()
        self._html: OrderedDict[Any, SafeString] = OrderedDict()
        self._lock = Lock()

    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        widget = context.get("widget") if request is None and len(context) == 1 else None
        if not isinstance(widget, dict):
            return super().render(template_name, context, request)
        try:
            key = (template_name, get_language(), freeze(widget))
        except Unfreezable:
            return super().render(template_name, context, request)
        with self._lock:
            html = self._html.get(key)
            if html is not None:
                self._html.move_to_end(key)
                return html
        html = mark_safe(super().render(template_name, context, request))  # noqa: S308 - Django's own output
        with self._lock:
            self._html[key] = html
            if len(self._html) > MAX_ENTRIES:
                self._html.popitem(last=False)
        return html
