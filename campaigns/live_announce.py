"""What happens once an event has committed: the campaign's sockets hear of it, and the pages open in this process
get their copies rendered at once, by the request that committed it.

The draw's 100 ms to the last of twenty screens went to the POST's own work, then to the sockets' rendering, which
waited behind the POST's answer or shared the interpreter with it (one process: the sockets' database thread and
the request's thread take turns), then went one socket at a time. Here the request renders every copy its process's
pages need (campaigns.live_pages) right after the commit, before its own answer, in one pass; the sockets, which
heard of the event meanwhile, wait for that pass and take their copies on the event loop. Other processes do the
same for their own pages when the message reaches them, on their database thread (campaigns.consumers).

Nothing here may fail the write: the event has committed, and a page that misses a message catches up.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future
from typing import TYPE_CHECKING

from django.db import transaction

from campaigns import live, live_shared
from campaigns.live_pages import open_pages
from campaigns.live_render import note_position, rendering_of

if TYPE_CHECKING:
    from campaigns.models import Event

logger = logging.getLogger(__name__)

# Events whose copies a thread of this process is rendering (the request that committed it, or a socket's turn on
# the database thread): the other sockets wait for it rather than render the same copies again.
_under_way: dict[int, Future[None]] = {}
_lock = threading.Lock()


def rendering_under_way(event_id: int) -> Future[None] | None:
    with _lock:
        return _under_way.get(event_id)


def begin_rendering(event_id: int) -> Future[None] | None:
    """Claims the event's rendering for the caller; None when another thread has it (wait for that one)."""
    with _lock:
        if event_id in _under_way:
            return None
        future: Future[None] = Future()
        _under_way[event_id] = future
        return future


def end_rendering(event_id: int, future: Future[None]) -> None:
    with _lock:
        if _under_way.get(event_id) is future:
            del _under_way[event_id]
    future.set_result(None)


def announce_on_commit(event: Event) -> None:
    """Once the transaction that wrote the event commits: announce it to the campaign's group, then render the copies
    of the pages open in this process."""
    event_id, campaign_id, position = event.pk, event.campaign_id, event.position
    transaction.on_commit(lambda: announce(event_id, campaign_id, position))


# With the other processes' pages, an event is announced after its pass (its message carries their copies): two
# events of one campaign committed a moment apart are announced one after the other, so that the second's message does
# not overtake the first's (a page that hears of a later position first catches up from the database).
_campaign_locks: dict[int, threading.Lock] = {}


def _announcing(campaign_id: int) -> threading.Lock:
    with _lock:
        return _campaign_locks.setdefault(campaign_id, threading.Lock())


def announce(event_id: int, campaign_id: int, position: int | None) -> None:
    if not live_shared.enabled():
        _announce(event_id, campaign_id, position)
        return
    with _announcing(campaign_id):
        _announce(event_id, campaign_id, position)


def _announce(event_id: int, campaign_id: int, position: int | None) -> None:
    pages = open_pages(campaign_id)
    # The pages the other processes have open (Redis): rendered in this pass too, their copies sent with the message.
    others = (
        [page for page in live_shared.other_pages(campaign_id) if page not in pages] if live_shared.enabled() else []
    )
    # Claimed before the message goes out, so that this process's sockets wait for this pass instead of starting
    # their own on the database thread.
    future = begin_rendering(event_id) if pages or others else None
    message: dict[str, object] = {"type": "event.created", "event_id": event_id, "position": position}
    try:
        if not others:
            live.broadcast(campaign_id, message)
        if future is not None:
            if position is not None:
                note_position(campaign_id, position)
            rendering = rendering_of(event_id)
            if rendering is not None:
                rendering.render_for([*pages, *others])
                if others:
                    # Carried by the message: the other processes' sockets take theirs when they hear of the event.
                    copies = {live_shared.page_key(page): rendering.copy_of(page) for page in others}
                    message["copies"] = {key: copy for key, copy in copies.items() if copy is not None}
    except Exception:  # the write has committed: its answer must not fail; the sockets render for themselves
        logger.exception("rendering event %s for the open pages failed", event_id)
    finally:
        if others:
            live.broadcast(campaign_id, message)
        if future is not None:
            end_rendering(event_id, future)
