"""One WebSocket per open campaign page; it receives the events its user may see, as HTML, in stream order.

The socket speaks JSON (static/js/tablee.js is the other end):

- server → page ``{"t": "ev", "p": 42, "q": 40, "html": "…"}``: the event at position 42 of the campaign's
  stream, rendered for this member, and the position of the previous message this page was sent (40: 41
  was not for this member, and the page is never told about events it may not see, not even that they
  happened). A page whose last position is not ``q`` missed something and reconnects. The consumer
  itself replays from the database whatever the channel layer lost, so live events reach it in order.
- ``{"t": "at", "p": 41, "missed": [[40, "…"], [41, "…"]]}``: the answer to a connection or a resume:
  what the page missed that it may see, and the position the page now stands at. A page that missed more than
  ``settings.LIVE_CATCH_UP_REPLAY_MAX`` events gets ``{"t": "at", "p": 41, "missed": [], "regions": "…"}``
  instead: every region it watches as it stands at 41 (campaigns.live_catch_up), applied like a push;
- ``{"t": "ping", "p": 41}`` every few seconds: keeps idle sockets open through proxies and lets the page
  notice a silent drop; ``{"t": "reload"}``: the page missed too much to replay, and shows a region that cannot
  be caught up as a whole (a Sequence's board): it reloads;
- page → server ``{"resume": 41}``: "the last position I rendered is 41" (a page back in the foreground).

The socket URL says where the page starts: ``?after=<position>`` when it reconnects, or ``?since=<epoch
seconds>`` (when the page was rendered) on its first connection. ``?watch=character:12`` (repeatable)
tells the renderers what the page shows (see campaigns.live).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError

from campaigns import live_shared
from campaigns.live import MAX_PANELS, campaign_group, opened_panels, watched_subjects
from campaigns.live_announce import begin_rendering, end_rendering, rendering_under_way
from campaigns.live_pages import OpenPage, open_pages, page_closed, page_opened
from campaigns.live_render import CSRF_MARKER, note_position, rendering_if_loaded, rendering_of
from campaigns.live_shutdown import socket_closed, socket_opened
from campaigns.live_socket import (
    TRY_AGAIN_LATER,
    DatabaseUnavailable,
    DispatchWithoutSweep,
    handshake_read,
    paced_resume,
    page_csrf_token,
    page_language,
    page_message,
    refuse_for_now,
    resume_of,
)
from campaigns.live_stream import Replay, replay_after, start_position, stream_head
from campaigns.models import Membership

logger = logging.getLogger(__name__)


class CampaignConsumer(DispatchWithoutSweep, AsyncWebsocketConsumer):
    membership: Membership | None = None
    watching: frozenset[str] = frozenset()
    pinger: asyncio.Task[None] | None = None
    position: int = 0  # the last stream position this consumer has dealt with (sent or not for this member)
    sent: int = 0  # the last position this page has been told about
    last_resume: float = -math.inf

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._said: set[asyncio.Future[None]] = set()  # this page told to the other processes (campaigns.live_shared)

    async def connect(self) -> None:
        user = self.scope.get("user")
        campaign_id = int(self.scope["url_route"]["kwargs"]["campaign_id"])
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        try:
            self.membership = await handshake_read(self._membership(user.pk, campaign_id))
        except DatabaseUnavailable as error:
            await refuse_for_now(self, error)
            return
        if self.membership is None:
            await self.close(code=4404)
            return
        self.group = campaign_group(campaign_id)
        self.language = self._language()
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.watching = watched_subjects(query.get("watch", [])) | opened_panels(query.get("panel", []))
        self.csrf_token = self._csrf_token()
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
        except Exception as error:  # the channel layer (Redis) is down: say "try again later", not a 500
            logger.warning("live socket refused, channel layer unavailable: %r", error)
            self.membership = None
            await self.accept()
            await self.close(code=TRY_AGAIN_LATER)
            return
        # In the group first, then the start position, then the handshake: an event committed meanwhile
        # arrives twice at most (the copy is dropped by its position) and none falls between; once the
        # socket is open, everything after its start position reaches it.
        try:  # an outage was found by the membership's read, bounded in time; this one may queue behind renders
            after, head = await self._start_position(query.get("after", [""])[-1], query.get("since", [""])[-1])
        except DatabaseError as error:
            await refuse_for_now(self, error)  # disconnect() leaves the group
            return
        await self.accept()
        if after < head:
            await self._catch_up(after)
        else:  # nothing to replay: no second database call on the way in
            self.position = self.sent = head
            await self._send({"t": "at", "p": head, "missed": [], "ping": settings.LIVE_PING_SECONDS})
        self.pinger = asyncio.create_task(self._ping())
        socket_opened(self)
        self._page_changed()

    def _page_changed(self) -> None:
        """What this page's copies depend on, for the process's one pass per event (campaigns.live_pages), and, with
        several processes, for the pass of whichever commits the next event (campaigns.live_shared)."""
        assert self.membership is not None
        page = OpenPage(self.membership.pk, self.watching, self.language)
        page_opened(self.membership.campaign_id, self.channel_name, page)
        if live_shared.enabled():
            said = asyncio.ensure_future(live_shared.publish_page(self.membership.campaign_id, self.channel_name, page))
            self._said.add(said)  # kept till done (the loop holds tasks weakly)
            said.add_done_callback(self._said.discard)

    async def disconnect(self, code: int) -> None:
        socket_closed(self)
        if self.pinger is not None:
            self.pinger.cancel()
        if self.membership is not None:
            page_closed(self.membership.campaign_id, self.channel_name)
            if live_shared.enabled():
                await asyncio.gather(*self._said, return_exceptions=True)  # said first, then withdrawn
                await live_shared.withdraw_page(self.membership.campaign_id, self.channel_name)
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
            except Exception as error:  # the group entry expires by itself (channels-redis group_expiry)
                logger.info("live socket left its group uncleanly: %r", error)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """What a page says: ``{"resume": <last position rendered>}``, or ``{"panels": ["12", …]}`` (the draw panels
        it has opened since it connected: they are sent to it from now on). Anything else is ignored."""
        said = await page_message(self, text_data, bytes_data)
        if isinstance(said, dict) and isinstance(said.get("panels"), list):
            self._open_panels(said["panels"])
            return
        after = resume_of(said)
        if after is None or self.membership is None:
            return
        self.last_resume = await paced_resume(self.last_resume)
        try:
            await self._catch_up(after)
        except DatabaseError as error:  # an outage: "try again later" and one log line, not a traceback
            await refuse_for_now(self, error, accepted=True)

    def _open_panels(self, values: list[Any]) -> None:
        panels = {subject for subject in self.watching if subject.startswith("panel:")}
        opened = opened_panels([str(value) for value in values]) - panels
        self.watching |= frozenset(sorted(opened)[: max(0, MAX_PANELS - len(panels))])
        if self.membership is not None:
            self._page_changed()

    async def event_created(self, message: dict[str, Any]) -> None:
        position = message.get("position")
        if position is None or self.membership is None:
            return
        note_position(self.membership.campaign_id, position)
        if position <= self.position:
            return  # already sent by a catch-up
        if position > self.position + 1:
            # The channel layer lost a message (capacity, expiry): replay from the database, this one included.
            await self._catch_up(self.position)
            return
        html = await self._html(message["event_id"], message.get("copies"))
        self.position = position
        if html:
            await self._send({"t": "ev", "p": position, "q": self.sent, "html": html})
            self.sent = position

    async def _catch_up(self, after: int) -> None:
        replay = await self._replay(after)
        self.position = replay.head
        if replay.too_many:
            self.sent = replay.head
            await self._send({"t": "reload"})
        elif replay.regions is not None:  # the page's regions as they stand at the head: the page is there now
            self.sent = replay.head
            await self._send({"t": "at", "p": self.sent, "missed": [], "regions": replay.regions,
                              "ping": settings.LIVE_PING_SECONDS})  # fmt: skip
        else:
            self.sent = replay.events[-1][0] if replay.events else min(after, replay.head)
            await self._send({"t": "at", "p": self.sent, "missed": replay.events, "ping": settings.LIVE_PING_SECONDS})

    async def _ping(self) -> None:
        """A message every few seconds keeps an idle socket alive through proxies that close quiet
        connections, lets the page tell a quiet socket from a dead one, and carries the position so a
        page that missed something notices it even when nothing else happens."""
        while True:
            await asyncio.sleep(settings.LIVE_PING_SECONDS)
            await self._send({"t": "ping", "p": self.sent})
            if live_shared.enabled() and self.membership is not None:  # this page is still open (campaigns.live_shared)
                page = OpenPage(self.membership.pk, self.watching, self.language)
                await live_shared.publish_page(self.membership.campaign_id, self.channel_name, page)

    async def _send(self, message: dict[str, Any]) -> None:
        # UTF-8 as it is: escaping every accented letter (six bytes for « é ») weighed a French page's catch-up.
        await self.send(text_data=json.dumps(message, separators=(",", ":"), ensure_ascii=False))

    def _csrf_token(self) -> str:
        return page_csrf_token(self.scope)

    def _language(self) -> str:
        return page_language(self.scope)

    @database_sync_to_async
    def _membership(self, user_id: int, campaign_id: int) -> Membership | None:
        return Membership.objects.select_related("campaign").filter(user_id=user_id, campaign_id=campaign_id).first()

    def _current_membership(self) -> Membership | None:
        # Roles can change while a socket is open: read the membership again with each event.
        assert self.membership is not None
        return Membership.objects.filter(pk=self.membership.pk).select_related("campaign").first()

    @database_sync_to_async
    def _start_position(self, after: str, since: str) -> tuple[int, int]:
        assert self.membership is not None
        campaign_id = self.membership.campaign_id
        return start_position(campaign_id, after=after, since=since), stream_head(campaign_id)

    @database_sync_to_async
    def _replay(self, after: int) -> Replay:
        membership = self._current_membership()
        if membership is None:
            return Replay(head=after, events=[], too_many=False)
        return replay_after(
            membership, after, watching=self.watching, csrf_token=self.csrf_token, language=self.language
        )

    async def _html(self, event_id: int, copies: object = None) -> str:
        """The event for this page. The sockets of a process hear of an event together. Its copies are rendered in
        one pass for every page open in the process (campaigns.live_pages): by the request that committed it when it
        ran here (campaigns.live_announce), otherwise by the first socket, on the database thread. The others wait
        for that pass and take their copies on the event loop, without a turn of their own on the database thread
        (one hop there and back per socket, each opening a connection, was most of the time to the last screen)."""
        if copies and self._ready(event_id) is None:
            # Another process committed it and rendered this page's copy in its pass (campaigns.live_shared).
            assert self.membership is not None
            shared = live_shared.copy_in(copies, OpenPage(self.membership.pk, self.watching, self.language))
            if shared is not None:
                return shared.replace(CSRF_MARKER, self.csrf_token)
        while True:
            html = self._ready(event_id)
            if html is not None:
                return html
            under_way = rendering_under_way(event_id)
            if under_way is not None:
                await asyncio.wrap_future(under_way)
                html = self._ready(event_id)
                if html is not None:
                    return html
            mine = begin_rendering(event_id)
            if mine is None:
                continue  # another socket claimed it meanwhile: wait for that pass
            try:
                return await self._render(event_id)
            finally:
                end_rendering(event_id, mine)

    def _ready(self, event_id: int) -> str | None:
        """This page's copy when a pass of the process has rendered every piece of it already: taken on the event
        loop, without a turn on the database thread (campaigns.live_render.ready_html_for)."""
        assert self.membership is not None
        rendering = rendering_if_loaded(event_id)
        if rendering is None:
            return None
        return rendering.ready_html_for(
            self.membership.pk, watching=self.watching, language=self.language, csrf_token=self.csrf_token
        )

    @database_sync_to_async
    def _render(self, event_id: int) -> str:
        """The event for this page, and on the way the copies of every page of the campaign open in this process
        (the members are read once per event: roles can change while a socket is open)."""
        assert self.membership is not None
        rendering = rendering_of(event_id)
        membership = rendering.membership(self.membership.pk) if rendering is not None else None
        if rendering is None or membership is None:
            return ""
        rendering.render_for(open_pages(self.membership.campaign_id))
        return rendering.html_for(
            membership, watching=self.watching, language=self.language, csrf_token=self.csrf_token
        )
