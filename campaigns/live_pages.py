"""The campaign pages open in this process: who each socket is rendered for, so that an event is rendered for all
of them in one pass (campaigns.live_render.EventRendering.render_for).

A socket used to render its own copy on the database thread, one socket after the other: twenty hops between
the event loop and that thread per event, each opening and closing a database connection, even when the copy
was one the previous socket had just rendered. Knowing the pages open in the process, the first to need an
event renders every copy they need in one turn (or the request that committed the event does, before its own
answer), and every socket then takes its copy on the event loop.

The registry holds what a copy depends on and nothing more (the member, what the page watches, its language);
each socket still takes its copy under its own member's audience keys, and the CSRF token is put in per socket.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class OpenPage:
    """What a socket's copy of an event depends on."""

    membership_id: int
    watching: frozenset[str]
    language: str


_pages: dict[int, dict[str, OpenPage]] = {}  # campaign id → socket (channel name) → its page
_lock = threading.Lock()


def page_opened(campaign_id: int, channel: str, page: OpenPage) -> None:
    """A socket is open (or its page now shows other regions: the narrator's console opened a row)."""
    with _lock:
        _pages.setdefault(campaign_id, {})[channel] = page


def page_closed(campaign_id: int, channel: str) -> None:
    with _lock:
        pages = _pages.get(campaign_id)
        if pages is not None:
            pages.pop(channel, None)
            if not pages:
                del _pages[campaign_id]


def open_pages(campaign_id: int) -> list[OpenPage]:
    """The distinct pages of the campaign open in this process (two tabs alike need one copy)."""
    with _lock:
        return list(dict.fromkeys(_pages.get(campaign_id, {}).values()))


def forget_pages() -> None:
    """Tests: sockets a test left open must not make the next test render for them."""
    with _lock:
        _pages.clear()
