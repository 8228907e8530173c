"""One WebSocket per open Frag table: the table as its own seat sees it, at the game's version.

The socket machinery (catch-up, pings, the 1013 answer, one rendering per audience shared by every socket of
it) is campaigns.live_boards'; this says how a Frag table is found and rendered, and plays the bots' turns out
one by one (``FRAG_LIVE_PACE`` apart) before the table as it is now.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.template.loader import render_to_string

from campaigns.live_boards import BoardConsumer
from campaigns.live_render import CSRF_MARKER
from frag.models import Game, Seat
from frag.selectors.replay import last_person_step, live_pace, playing_out_frames
from frag.selectors.seats import is_hot_seat, revealed_hand
from frag.selectors.table import game_context
from frag.services import game_group


@dataclass(frozen=True)
class LoadedTable:
    game: Game
    seats: list[Seat]


class GameConsumer(BoardConsumer):
    kind = "frag"
    game_model = Game
    revealed = ""

    def group_of(self, game_id: int) -> str:
        return game_group(game_id)

    def load(self, game_id: int) -> tuple[int, Any] | None:
        game = Game.objects.filter(pk=game_id).first()
        return None if game is None else (game.version, LoadedTable(game, list(game.seats.all())))

    def pace(self) -> float:
        return live_pace()

    def audience(self, game: Any) -> Hashable | None:
        """A table differs by person (the seats they play: one, or several on one device) and, on a hot-seat
        device, by the hand that device has tapped open: each person apart, each hot-seat device by its hand."""
        table: LoadedTable = game
        if not any(s.user_id == self.user_id and not s.is_bot for s in table.seats):
            return None
        self.revealed = ""
        if is_hot_seat(table.seats, self._user()):
            # Tapped open over HTTP after the socket opened: read afresh from the session store (server-side
            # sessions: the key the socket opened with stays the device's). Only a hot-seat device reads it.
            session = self.scope.get("session")
            key = session.session_key if session is not None else None
            self.revealed = revealed_hand(
                import_module(settings.SESSION_ENGINE).SessionStore(session_key=key), game.game.pk
            )
        return ("person", self.user_id, self.revealed)

    def render(self, game: Any, *, playing_out: bool) -> list[str]:
        table: LoadedTable = game
        user = self._user()
        contexts = []
        if playing_out:
            # From the last move a person made: their page already shows everything before it.
            steps = list(table.game.steps.only("number", "seat"))
            contexts = playing_out_frames(table.game, table.seats, user, last_person_step(steps, table.seats))
        contexts.append(game_context(table.game, table.seats, user, revealed=self.revealed))
        return [
            render_to_string("frag/game.html#table", {**context, "oob": True, "csrf_token": CSRF_MARKER})
            for context in contexts
        ]

    def _user(self) -> User:
        user: User = self.scope["user"]
        return user
