"""One WebSocket per open TRAGIC board: the board as its own seat sees it, at the game's version.

The socket machinery (catch-up, pings, the 1013 answer, one rendering per seat and language shared by every
socket of that seat) is campaigns.live_boards'; this says how a TRAGIC board is found and rendered.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from django.template.loader import render_to_string

from campaigns.live_boards import ORIGIN_MARKER, BoardConsumer
from campaigns.live_render import CSRF_MARKER
from tragic import selectors
from tragic.models import Game, Seat
from tragic.services import game_group


class GameConsumer(BoardConsumer):
    kind = "tragic"
    game_model = Game

    def group_of(self, game_id: int) -> str:
        return game_group(game_id)

    def load(self, game_id: int) -> tuple[int, Any] | None:
        game = Game.objects.prefetch_related("seats__user").filter(pk=game_id).first()
        return None if game is None else (game.version, game)

    def _seat(self, game: Game) -> Seat | None:
        return next((s for s in game.seats.all() if s.user_id == self.user_id), None)

    def audience(self, game: Any) -> Hashable | None:
        # A board differs by seat only (its hand, its choices, its buttons): the seat is the audience.
        seat = self._seat(game)
        return None if seat is None else ("seat", seat.index)

    def clock(self, game: Any) -> Hashable:
        # The board counts the seconds left to react (the timeout form's delay, whether a cancel may be asked):
        # both follow from this one figure.
        return selectors.reaction_delay(game)

    def render(self, game: Any, *, playing_out: bool) -> list[str]:
        context = {
            **selectors.board(game, self._seat(game)),
            "oob": True,
            "csrf_token": CSRF_MARKER,
            "page_origin": ORIGIN_MARKER,  # the invitation link, absolute as the page's own origin
        }
        return [render_to_string("tragic/game.html#board", context)]
