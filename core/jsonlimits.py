"""Parsing JSON a client sent (a game's ``action``) with limits checked before and after ``json.loads``.

``json.loads`` recurses once per nesting level: 3,000 nested brackets raise ``RecursionError`` (a 500),
so the depth is measured by a flat scan first. What is parsed may end up in a ``JSONField``: PostgreSQL
refuses ``\\u0000`` in jsonb and ``NaN`` is not JSON at all, so both are refused here too.
"""

from __future__ import annotations

import json
from typing import Any

MAX_ACTION_BYTES = 16_384
MAX_ACTION_DEPTH = 16


class JsonRefused(ValueError):
    """The text is not an acceptable client JSON document (a ValueError, as json.loads raises)."""


def _depth(text: str) -> int:
    deepest = depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _refuse_constant(name: str) -> Any:
    raise JsonRefused(f"{name} is not a JSON number")


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(item) for item in value)
    return False


def loads_limited(text: str, *, max_bytes: int = MAX_ACTION_BYTES, max_depth: int = MAX_ACTION_DEPTH) -> Any:
    """``json.loads(text)``, or ``JsonRefused`` when it is too long, too deep, holds NUL or NaN."""
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise JsonRefused("too long")
    if _depth(text) > max_depth:
        raise JsonRefused("too deeply nested")
    value = json.loads(text, parse_constant=_refuse_constant)
    if _has_nul(value):
        raise JsonRefused("NUL character")
    return value
