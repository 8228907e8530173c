"""The switch of the Sequence boards' kept parts (``conflicts.board_cache``, ``conflicts.board_rows``): the one
switch of every kept fragment, ``FRAGMENT_CACHE``. Log entries are a region now (``campaigns.entry_region``)."""

from __future__ import annotations

from core import fragment_cache


def enabled() -> bool:
    """Whether fragments are kept (``FRAGMENT_CACHE``)."""
    return fragment_cache.enabled()
