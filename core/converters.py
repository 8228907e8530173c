"""The path converter every id in a URL goes through.

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
