"""The live subjects of the characters app: what a page's socket watches (``?watch=<subject>``, see
``campaigns.live``). A module of its own so that the pages and the live layer both read it without
importing each other."""

from __future__ import annotations


def sheet_subject(character_id: int) -> str:
    """What a sheet page's socket watches (``?watch=character:<pk>``, see campaigns.live)."""
    return f"character:{character_id}"
