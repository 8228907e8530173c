"""The path converters every id and every token in a URL go through.

Django's ``<int:…>`` takes any run of digits: ``/characters/9223372036854775808/`` reached the lookup, which
SQLite cannot bind (``OverflowError``, a 500) and no column can hold. ``<id:…>`` takes at most 18 digits, so
every id it passes fits a 64-bit column (ids are ``BigAutoField``); a longer one is a plain 404.
"""

from __future__ import annotations


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class TokenConverter:
    """An invitation, join or public-log token: what ``secrets.token_urlsafe`` writes, no longer than the column.

    ``<str:…>`` took anything but a slash, a NUL byte included, which PostgreSQL cannot even compare (a
    ``DataError``, a 500, where the NUL middleware did not stand in front); anything else is now a plain 404."""

    regex = "[-A-Za-z0-9_]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
