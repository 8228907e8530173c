"""One WebSocket per open Frag board: each socket receives the table as its own seat sees it."""

from __future__ import annotations

import asyncio
from importlib import import_module
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from frag.models import Game
from frag.selectors.replay import last_person_step, live_pace, playing_out_frames
from frag.selectors.seats import is_hot_seat, revealed_hand
from frag.selectors.table import game_context
from frag.services import game_group


class GameConsumer(AsyncWebsocketConsumer):
    game_id: int | None = None
    session_key: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        if not await self._is_seated(user.pk, game_id):
            await self.close(code=4404)
            return
        self.game_id = game_id
        self.language = self._language()
        session = self.scope.get("session")
        self.session_key = session.session_key if session is not None else None
        await self.channel_layer.group_add(game_group(game_id), self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.game_id is not None:
            await self.channel_layer.group_discard(game_group(self.game_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The socket only pushes; actions go through ordinary HTTP posts.
        return

    async def game_updated(self, message: dict[str, Any]) -> None:
        """Play the bots' turns out one by one, then show the table as it is now."""
        frames = await self._render()
        for html in frames:
            if len(frames) > 1:
                # The acting person's page first shows the moment after their own action (the HTTP answer).
                await asyncio.sleep(live_pace())
            await self.send(text_data=html)

    def _language(self) -> str:
        """The page's language: the cookie first, then the browser's Accept-Language, as LocaleMiddleware does."""
        supported = dict(settings.LANGUAGES)
        cookie = self.scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
        if cookie in supported:
            return cookie
        headers = dict(self.scope.get("headers", []))
        accept = headers.get(b"accept-language", b"").decode("latin-1")
        for code, _quality in parse_accept_lang_header(accept):
            try:
                return translation.get_supported_language_variant(code)
            except LookupError:
                continue
        return settings.LANGUAGE_CODE

    @database_sync_to_async
    def _is_seated(self, user_id: int, game_id: int) -> bool:
        return Game.objects.filter(pk=game_id, seats__user_id=user_id).exists()

    @database_sync_to_async
    def _render(self) -> list[str]:
        game = Game.objects.filter(pk=self.game_id).first() if self.game_id is not None else None
        if game is None:
            return []
        seats = list(game.seats.all())
        user = self.scope["user"]
        with translation.override(self.language):
            contexts = []
            if live_pace() > 0:
                # From the last move a person made: their page already shows everything before it.
                steps = list(game.steps.only("number", "seat"))
                contexts = playing_out_frames(game, seats, user, last_person_step(steps, seats))
            revealed = ""
            if is_hot_seat(seats, user):
                # A hot-seat hand tapped open on this device (over HTTP, after the socket opened): read afresh from
                # the session store (server-side sessions: the key the socket opened with stays the device's).
                # Only a hot-seat device has one: no other push pays for a session read.
                session = import_module(settings.SESSION_ENGINE).SessionStore(session_key=self.session_key)
                revealed = revealed_hand(session, game.pk)
            contexts.append(game_context(game, seats, user, revealed=revealed))
            return [render_to_string("frag/game.html#table", {**context, "oob": True}) for context in contexts]
