"""The live socket's element: the regions its page shows (campaigns.live's subjects) as ``?watch=`` values, and
the stream position the page was rendered at (campaigns.answer_position)."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlencode

from django import template

from campaigns import answer_position

register = template.Library()


@register.filter
def watch_query(subjects: str | Iterable[str] | None) -> str:
    """``"home:3"`` or ``["home:3", "feed:3"]`` → ``?watch=home%3A3&watch=feed%3A3``; nothing → ""."""
    if not subjects:
        return ""
    values = [subjects] if isinstance(subjects, str) else list(subjects)
    return "?" + urlencode([("watch", value) for value in values])


@register.simple_tag
def live_position(kind: str, pk: int) -> str:
    """The position of the stream ``<kind>:<pk>`` the page being rendered shows at least, or "" when it is not known
    (the page then tells its socket when it was rendered instead)."""
    holder = answer_position.current()
    position = holder.of(f"{kind}:{pk}") if holder is not None else None
    return "" if position is None else str(position)
