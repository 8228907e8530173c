"""Template filters for ``core.typography``: ``{{ n|signed }}``, ``{{ p|pct }}``, ``{{ c|chance }}``,
``{{ name|quoted }}``, ``{{ text|minus }}``, each in the reader's language."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from core import typography

register = template.Library()


@register.filter
def signed(value: Any) -> str:
    return typography.signed(value)


@register.filter
def pct(value: Any) -> str:
    """A percentage already in hundredths (« 62 », « 61.7 »): « 62 % » / « 62% »."""
    return typography.percent(value)


@register.filter
def chance(value: Any, digits: int = 0) -> str:
    """A probability (0 to 1): « 62 % » / « 62% »."""
    return typography.chance(float(value), int(digits))


@register.filter
def quoted(value: Any) -> SafeString:
    # The quotation marks are ours; the text between them is escaped.
    return mark_safe(typography.quoted(str(conditional_escape(value))))  # noqa: S308


@register.filter
def minus(value: Any) -> str:
    return typography.minus(str(value))
