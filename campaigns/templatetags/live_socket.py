"""The live socket's URL: the regions its page shows (campaigns.live's subjects) as ``?watch=`` values."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlencode

from django import template

register = template.Library()


@register.filter
def watch_query(subjects: str | Iterable[str] | None) -> str:
    """``"home:3"`` or ``["home:3", "feed:3"]`` → ``?watch=home%3A3&watch=feed%3A3``; nothing → ""."""
    if not subjects:
        return ""
    values = [subjects] if isinstance(subjects, str) else list(subjects)
    return "?" + urlencode([("watch", value) for value in values])
