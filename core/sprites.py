"""Pictures drawn once per page: SVG symbols the base template carries (``{% sprites %}``), which fragments then
draw with ``<use href="#id"/>``.

A picture repeated on a page (a drawn card: its frame, its band, its ✓ or ✗) costs its few varying parts in every
page, live push and answer that shows it, not its whole drawing each time: a draw's live message was half card
drawings, and a log page of fifty draws carried about 190 kB of them. Apps register their symbols when they load
(their ``AppConfig.ready``); the foundation names none of them.
"""

from __future__ import annotations

import threading

from django.utils.safestring import SafeString, mark_safe

_symbols: dict[str, str] = {}
_lock = threading.Lock()


def register_symbols(name: str, markup: str) -> None:
    """Adds ``markup`` (``<symbol id="…">`` elements, the app's own constants) to every page, once, under ``name``."""
    with _lock:
        _symbols[name] = markup


def sprite_sheet() -> SafeString:
    """The registered symbols in one hidden SVG: out of the layout and of the accessibility tree (the pictures that
    use them carry their own text alternative)."""
    if not _symbols:
        return mark_safe("")
    inner = "".join(_symbols[name] for name in sorted(_symbols))
    return mark_safe(  # noqa: S308 - the registered markup is the apps' own constants
        f'<svg class="sprites" aria-hidden="true" focusable="false" width="0" height="0">{inner}</svg>'
    )
