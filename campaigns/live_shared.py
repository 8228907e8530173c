"""One render pass per event for the pages of every server process (Redis).

With two workers, each process rendered the copies of the pages open in it: both read the event, the members, the
snapshot, the story and the running table, and both rendered the copies readers share (the log entry, the board's
changed parts, the decks). The process that committed the event now renders for the pages of the others too:

- every process says in Redis which pages it has open (``publish_page``: a hash per campaign, one field per socket:
  this process, the member, what the page watches, its language, the same facts ``campaigns.live_pages`` keeps, and
  when it said so: each socket says it again with its pings, and a page not said for three pings is not rendered for);
- the request that committed an event reads them (``other_pages``), renders every page's copy in its one pass
  (``campaigns.live_announce``) and only then announces the event, its message carrying the copies of the other
  processes' pages, one per page (``page_key``). The channel layer hands a group's message to each process once,
  whatever the number of its sockets;
- a socket of another process takes its own copy from the message (``copy_in``), and renders for itself as before when
  there is none (a page opened meanwhile, Redis away).

The copies went first through a Redis hash per event, which each socket then read its own field of: a write of every
copy and a round trip per socket, for bytes the message carries to the same processes anyway.

Nothing leaves the server: the copies are read by the server's own processes, each socket taking the copy of its own
member, page and language, with its own CSRF token put in. A copy is rendered for a member as the campaign stands when
the event is announced, as every copy was. Off with the in-memory channel layer (one process) and with
``LIVE_SHARED_PASS=false``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from typing import Any

from django.conf import settings

from campaigns.live import OutageLog
from campaigns.live_pages import OpenPage

logger = logging.getLogger(__name__)

PROCESS = uuid.uuid4().hex  # this process among the server's workers


def _layer() -> dict[str, Any]:
    layer: dict[str, Any] = settings.CHANNEL_LAYERS.get("default", {})
    return layer


def enabled() -> bool:
    """On when the channel layer is Redis (several processes may serve one campaign) and the setting allows it."""
    return settings.LIVE_SHARED_PASS and _layer().get("BACKEND", "").startswith("channels_redis")


def _address() -> str:
    host = _layer()["CONFIG"]["hosts"][0]
    return str(host["address"] if isinstance(host, dict) else host)


def _prefix() -> str:
    # The channel layer's own prefix: whatever keeps two servers (or two test workers) apart there does here too.
    return str(_layer()["CONFIG"].get("prefix", "asgi"))


def fresh_seconds() -> float:
    """How long a page said in Redis is believed: each socket says it again with every ping (``LIVE_PING_SECONDS``),
    so a page whose process died is rendered for a minute and a half at most."""
    return 3 * float(settings.LIVE_PING_SECONDS) + 5


def _pages_key(campaign_id: int) -> str:
    return f"{_prefix()}:live-pages:{int(campaign_id)}"


def page_key(page: OpenPage) -> str:
    """What a copy is named by in the event's message: the member, what the page watches and its language (a copy's
    every input)."""
    return json.dumps([page.membership_id, sorted(page.watching), page.language], separators=(",", ":"))


# Redis away: the pages render for themselves meanwhile, as before this module.
health = OutageLog(
    "shared live pass unavailable, each process renders its own pages: %r", "the shared live pass works again"
)

_sync_client: Any = None
_async_clients: dict[int, Any] = {}  # per event loop (a redis.asyncio client belongs to the loop it was made in)


def _sync() -> Any:
    global _sync_client
    if _sync_client is None:
        import redis

        _sync_client = redis.Redis.from_url(_address(), socket_timeout=2, socket_connect_timeout=1)
    return _sync_client


def _async() -> Any:
    loop = asyncio.get_running_loop()
    client = _async_clients.get(id(loop))
    if client is None:
        import redis.asyncio

        client = _async_clients[id(loop)] = redis.asyncio.Redis.from_url(
            _address(), socket_timeout=2, socket_connect_timeout=1
        )
    return client


async def publish_page(campaign_id: int, channel: str, page: OpenPage) -> None:
    """A socket of this process shows ``page`` (said as it opens, and again with each ping): the process that commits
    the campaign's next event renders for it."""
    said = [PROCESS, page.membership_id, sorted(page.watching), page.language, time.time()]
    value = json.dumps(said, separators=(",", ":"))
    try:
        async with _async().pipeline(transaction=False) as pipe:
            pipe.hset(_pages_key(campaign_id), channel, value)
            pipe.expire(_pages_key(campaign_id), int(fresh_seconds()) + 1)
            await pipe.execute()
    except Exception as error:  # Redis away: this process renders for its pages itself
        health.failed(error)


async def withdraw_page(campaign_id: int, channel: str) -> None:
    try:
        await _async().hdel(_pages_key(campaign_id), channel)
    except Exception as error:  # the field goes with the hash's expiry
        health.failed(error)


def other_pages(campaign_id: int) -> list[OpenPage]:
    """The distinct pages of the campaign open in the other processes, as they said (nothing when Redis is away)."""
    try:
        fields: dict[bytes, bytes] = _sync().hgetall(_pages_key(campaign_id))
    except Exception as error:
        health.failed(error)
        return []
    health.succeeded()
    pages: dict[OpenPage, None] = {}
    oldest = time.time() - fresh_seconds()
    for raw in fields.values():
        try:
            process, membership_id, watching, language, said = json.loads(raw)
        except (ValueError, TypeError):
            continue  # not ours to read
        if process != PROCESS and said >= oldest:  # not a page of a process gone quiet
            pages[OpenPage(int(membership_id), frozenset(map(str, watching)), str(language))] = None
    return list(pages)


def copy_in(copies: object, page: OpenPage) -> str | None:
    """This page's copy of the event among the copies its message carries (``None`` when it carries none for this
    page: the page opened after the pass, or the message is not one of ours)."""
    if not isinstance(copies, dict):
        return None
    found = copies.get(page_key(page))
    return found if isinstance(found, str) else None
