"""One WebSocket per open campaign page; it receives the events its user may see, as HTML."""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation

from campaigns.live import Viewer, campaign_group, extra_fragments, watched_subjects
from campaigns.models import Event, Membership
from campaigns.selectors import log_entries

logger = logging.getLogger(__name__)

# WebSocket close code 1013, "try again later": the page reconnects with backoff.
TRY_AGAIN_LATER = 1013


class CampaignConsumer(AsyncWebsocketConsumer):
    """``?watch=character:12`` (repeatable) tells the renderers what the page shows (see campaigns.live)."""

    membership: Membership | None = None
    pinger: asyncio.Task[None] | None = None
    watching: frozenset[str] = frozenset()

    async def connect(self) -> None:
        user = self.scope.get("user")
        campaign_id = int(self.scope["url_route"]["kwargs"]["campaign_id"])
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.membership = await self._membership(user.pk, campaign_id)
        if self.membership is None:
            await self.close(code=4404)
            return
        self.group = campaign_group(campaign_id)
        self.language = self._language()
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.watching = watched_subjects(query.get("watch", []))
        self.csrf_token = self._csrf_token()
        await self.accept()
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
        except Exception as error:  # the channel layer (Redis) is down: say "try again later", not a 500
            logger.warning("live socket refused, channel layer unavailable: %r", error)
            self.membership = None
            await self.close(code=TRY_AGAIN_LATER)
            return
        self.pinger = asyncio.create_task(self._ping())

    async def disconnect(self, code: int) -> None:
        if self.pinger is not None:
            self.pinger.cancel()
        if self.membership is not None:
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
            except Exception as error:  # the group entry expires by itself (channels-redis group_expiry)
                logger.info("live socket left its group uncleanly: %r", error)

    async def _ping(self) -> None:
        """An empty message every few seconds keeps an idle socket alive through proxies that close quiet
        connections, and lets the page tell a quiet socket from a dead one."""
        while True:
            await asyncio.sleep(settings.LIVE_PING_SECONDS)
            await self.send(text_data="")

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The socket only pushes; actions go through ordinary HTTP posts.
        return

    async def event_created(self, message: dict[str, Any]) -> None:
        html = await self._render(message["event_id"])
        if html:
            await self.send(text_data=html)

    def _csrf_token(self) -> str:
        """A masked token for the page's CSRF cookie, so forms in live fragments post as the page's do."""
        secret = self.scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
        if len(secret) != 32 or not secret.isalnum():
            return ""
        request = HttpRequest()
        request.META["CSRF_COOKIE"] = secret
        return get_token(request)

    def _language(self) -> str:
        cookies = self.scope.get("cookies", {})
        language = cookies.get(settings.LANGUAGE_COOKIE_NAME, settings.LANGUAGE_CODE)
        return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE

    @database_sync_to_async
    def _membership(self, user_id: int, campaign_id: int) -> Membership | None:
        return Membership.objects.select_related("campaign").filter(user_id=user_id, campaign_id=campaign_id).first()

    @database_sync_to_async
    def _render(self, event_id: int) -> str:
        assert self.membership is not None
        # Roles can change while a socket is open: read the membership again with the event.
        membership = Membership.objects.filter(pk=self.membership.pk).select_related("campaign").first()
        if membership is None:
            return ""
        event = Event.objects.visible_to(membership).for_display().filter(pk=event_id).first()
        if event is None:
            return ""
        viewer = Viewer(membership, watching=self.watching, csrf_token=self.csrf_token)
        with translation.override(self.language):
            parts = [
                render_to_string(
                    "campaigns/partials/live_event.html",
                    {
                        "entries": log_entries([event], membership),
                        "membership": membership,
                        "campaign": membership.campaign,
                    },
                )
            ]
            parts.extend(extra_fragments(event, viewer))
        return "".join(parts)
