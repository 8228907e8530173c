from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from campaigns.entry_region import render_entries as _render_entries

register = template.Library()


@register.simple_tag(takes_context=True)
def render_entries(context: Any, entries: Any) -> SafeString:
    """The log entries, each rendered once per (event, language, time zone, rights) when they come lazily."""
    token = context.get("csrf_token")
    return _render_entries(
        entries or [], oob=bool(context.get("oob")), request=context.get("request"),
        csrf_token=None if token is None else str(token),
    )  # fmt: skip
