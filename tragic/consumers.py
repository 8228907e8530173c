"""One WebSocket per open board: each socket receives its own seat's board, rendered for it alone."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from tragic import selectors
from tragic.models import Game
from tragic.services import game_group


class GameConsumer(AsyncWebsocketConsumer):
    game_id: int = 0
    user_id: int | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        if not await self._is_seated(user.pk):
            await self.close(code=4404)
            return
        self.user_id = user.pk
        cookies = self.scope.get("cookies", {})
        language = cookies.get(settings.LANGUAGE_COOKIE_NAME, settings.LANGUAGE_CODE)
        self.language = language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
        await self.channel_layer.group_add(game_group(self.game_id), self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.user_id is not None:
            await self.channel_layer.group_discard(game_group(self.game_id), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Actions travel as ordinary HTTP posts; the socket only pushes boards.
        return

    async def game_updated(self, message: dict[str, Any]) -> None:
        html = await self._render()
        if html:
            await self.send(text_data=html)

    @database_sync_to_async
    def _is_seated(self, user_id: int) -> bool:
        return Game.objects.filter(pk=self.game_id, seats__user_id=user_id).exists()

    @database_sync_to_async
    def _render(self) -> str:
        game = Game.objects.prefetch_related("seats__user").filter(pk=self.game_id).first()
        if game is None:
            return ""
        seat = next((s for s in game.seats.all() if s.user_id == self.user_id), None)
        if seat is None:
            return ""
        with translation.override(self.language):
            context = {**selectors.board(game, seat), "oob": True}
            return render_to_string("tragic/game.html#board", context)
