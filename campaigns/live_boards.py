"""Live game boards (TRAGIC, Frag): one socket per open board, which receives the board as its own seat sees it.

A board is a whole state, so a game's live stream needs no replay: its position is the game's ``version``
(bumped by every accepted action), a page says which version it rendered, and a page that is behind gets the
current board for its seat, which supersedes whatever it missed. The socket speaks the campaign socket's JSON
(campaigns.consumers), so static/js/tablee.js's one client (reconnect with backoff and jitter, pings, the
status line, catch-up on reconnect, on ``visibilitychange`` and on a gap) serves both kinds of page:

- server → page ``{"t": "ev", "p": 12, "q": 11, "html": "…"}``: the board at version 12 for this seat; ``q`` is
  the version this socket sent before (a page that does not show ``q`` missed something and reconnects);
- ``{"t": "frame", "p": 12, "html": "…"}``: a moment on the way to version 12 (a bot's turn played out on a Frag
  table), shown only by a page that does not show version 12 yet;
- ``{"t": "at", "p": 12, "missed": [[12, "…"]]}``: the answer to a connection or a resume: the current board when
  the page is behind, nothing when it is current;
- ``{"t": "ping", "p": 12}`` every ``LIVE_PING_SECONDS``. Before each ping the socket reads the game's version:
  a move whose broadcast was lost (the channel layer failed after the commit) reaches the page within one
  ping even if the socket never dropped;
- page → server ``{"resume": 11}``: "I show version 11". The socket URL carries ``?after=<version rendered>``.

Render once per audience: every socket of a process takes its board from one ``BoardRendering`` per game and
version. The game is loaded once, and the board is rendered once per audience (a seat, × language, × what the
board shows of the clock: ``BoardConsumer.clock``, TRAGIC's seconds left to react): the copy goes to every socket
of that seat. Nothing is kept for a while: a rendering is keyed by everything it shows, the clock included. A seat's board holds its hand, so the audience is never wider than a seat
(``BoardConsumer.audience``): two seats never share a copy. Forms carry each page's own CSRF token, and links
the page's own origin, put into its copy (``CSRF_MARKER``, ``ORIGIN_MARKER``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import threading
from abc import ABCMeta, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError
from django.utils import translation

from campaigns.live_render import CSRF_MARKER
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

logger = logging.getLogger(__name__)

# Games whose latest rendering a process keeps.
KEPT_BOARDS = 128
# Where a board names the page's own origin (an absolute link to copy), each socket puts its page's Origin,
# which the handshake has checked is this site (core.origin).
ORIGIN_MARKER = "live-origin-of-the-page"


@dataclass
class BoardRendering:
    """One version of one game, loaded once per process, and its board per audience and language."""

    version: int
    game: Any
    # Per (audience, language, playing out, clock): the clock is what the board shows of the time, so a board
    # read later is rendered again only when that has moved.
    html: dict[Hashable, list[str]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    renders: int = 0  # boards rendered (tests and the benchmark read it)


_boards: OrderedDict[tuple[str, int], BoardRendering] = OrderedDict()
_boards_lock = threading.Lock()


def board_rendering(
    kind: str, game_id: int, at_least: int, load: Callable[[], tuple[int, Any] | None]
) -> BoardRendering | None:
    """The process's rendering of a game at ``at_least`` or later: the one kept if it is at that version or later,
    otherwise the game as it is now, loaded by ``load`` (its version and the object the boards are rendered from)."""
    key = (kind, game_id)
    with _boards_lock:
        kept = _boards.get(key)
        if kept is not None and kept.version >= at_least:
            return kept
    loaded = load()
    if loaded is None:
        return None
    version, game = loaded
    with _boards_lock:
        kept = _boards.get(key)
        if kept is None or kept.version < version:
            kept = _boards[key] = BoardRendering(version, game)
        _boards.move_to_end(key)
        while len(_boards) > KEPT_BOARDS:
            _boards.popitem(last=False)
        return kept


def forget_boards() -> None:
    """Drop every kept board (tests that change a game behind the services' back)."""
    with _boards_lock:
        _boards.clear()


def kept_board(kind: str, game_id: int) -> BoardRendering | None:
    with _boards_lock:
        return _boards.get((kind, game_id))


# The four hooks each game fills in are abstract.
class BoardConsumer(DispatchWithoutSweep, AsyncWebsocketConsumer, metaclass=ABCMeta):
    """A game's socket. A subclass says how to find, load and render its game (the hooks below, which run in a
    worker thread), and which sockets read a board alike (``audience``)."""

    kind = ""  # keys the process's renderings: "tragic", "frag"
    # The game's model: a ``version`` bumped by every accepted action, and ``seats`` with a ``user``.
    game_model: Any = None
    game_id: int = 0
    user_id: int | None = None
    sent: int = -1  # the version this page was last sent (or found current)
    joined = False
    pinger: asyncio.Task[None] | None = None
    last_resume: float = -math.inf

    # -- the hooks -------------------------------------------------------------------------------------------

    @abstractmethod
    def group_of(self, game_id: int) -> str:
        """The channel layer group of the game's sockets."""

    def seated(self, user_id: int, game_id: int) -> bool:
        return bool(self.game_model.objects.filter(pk=game_id, seats__user_id=user_id).exists())

    def version_of(self, game_id: int) -> int | None:
        """The game's current version (one small query: every ping asks it), None when it is gone."""
        version: int | None = self.game_model.objects.filter(pk=game_id).values_list("version", flat=True).first()
        return version

    @abstractmethod
    def load(self, game_id: int) -> tuple[int, Any] | None:
        """The game as it is now, with everything every seat's board reads from it (read once per version)."""

    @abstractmethod
    def audience(self, game: Any) -> Hashable | None:
        """Equal for the sockets that read this board alike, None for a socket with no seat. Never wider than a
        seat: the board shows its seat's hand."""

    @abstractmethod
    def render(self, game: Any, *, playing_out: bool) -> list[str]:
        """The board (last) with ``hx-swap-oob``, its forms' CSRF token being ``CSRF_MARKER``; when ``playing_out``,
        preceded by the moments a live page shows on the way to it."""

    def pace(self) -> float:
        """Seconds between two moments played out (0: the board as it is now only)."""
        return 0.0

    def clock(self, game: Any) -> Hashable:
        """What the board shows of the time (TRAGIC: the seconds left to react), part of its rendering's key: equal
        while the board would read the same. A board that shows no time: ``()``."""
        return ()

    # -- the socket ------------------------------------------------------------------------------------------

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        try:
            seated = await handshake_read(database_sync_to_async(self.seated)(user.pk, self.game_id))
        except DatabaseUnavailable as error:
            await refuse_for_now(self, error)
            return
        if not seated:
            await self.close(code=4404)
            return
        self.user_id = user.pk
        self.language = page_language(self.scope)
        self.csrf_token = page_csrf_token(self.scope)
        self.origin = dict(self.scope.get("headers", [])).get(b"origin", b"").decode("latin-1")
        self.sending = asyncio.Lock()
        self.group = self.group_of(self.game_id)
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
        except Exception as error:  # the channel layer (Redis) is down: "try again later", not a 500 handshake
            logger.warning("game socket refused, channel layer unavailable: %r", error)
            await self.accept()
            await self.close(code=TRY_AGAIN_LATER)
            return
        self.joined = True
        # In the group first, then the version: a move committed meanwhile arrives twice at most (the copy is
        # dropped by its version) and none falls between.
        after = parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get("after", [""])[-1]
        await self.accept()
        try:
            # Not bounded by LIVE_HANDSHAKE_DB_SECONDS: it renders the board, which may take longer on a busy
            # machine; an outage was found by the seat's read above.
            await self._catch_up(int(after) if after.isascii() and after.isdigit() else 0)
        except DatabaseError as error:
            await refuse_for_now(self, error, accepted=True)  # disconnect() leaves the group
            return
        self.pinger = asyncio.create_task(self._ping())
        socket_opened(self)

    async def disconnect(self, code: int) -> None:
        socket_closed(self)
        if self.pinger is not None:
            self.pinger.cancel()
        if self.joined:
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
            except Exception as error:  # the group entry expires by itself (channels-redis group_expiry)
                logger.info("game socket left its group uncleanly: %r", error)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The only thing a page says: ``{"resume": <version shown>}``; actions travel as HTTP posts."""
        after = resume_of(await page_message(self, text_data, bytes_data))
        if after is None or not self.joined:
            return
        self.last_resume = await paced_resume(self.last_resume)
        try:
            await self._catch_up(after)
        except DatabaseError as error:  # an outage: "try again later" and one log line, not a traceback
            await refuse_for_now(self, error, accepted=True)

    async def game_updated(self, message: dict[str, Any]) -> None:
        version = message.get("version")
        if not isinstance(version, int) or version <= self.sent:
            return  # already sent (a catch-up or a ping got there first)
        await self._push(version, playing_out=self.pace() > 0)

    async def _push(self, at_least: int, *, playing_out: bool) -> None:
        """The board at ``at_least`` or later as a live message, after the moments played out on the way."""
        async with self.sending:
            if at_least <= self.sent:
                return
            board = await database_sync_to_async(self._board)(at_least, playing_out)
            if board is None or board[0] <= self.sent:
                return
            version, pieces = board
            for html in pieces[:-1]:
                # The acting person's page first shows the moment after their own action (the HTTP answer).
                await asyncio.sleep(self.pace())
                await self._send({"t": "frame", "p": version, "html": html})
            if len(pieces) > 1:
                await asyncio.sleep(self.pace())
            await self._send({"t": "ev", "p": version, "q": self.sent, "html": pieces[-1]})
            self.sent = version

    async def _catch_up(self, after: int) -> None:
        """Where the page stands: the current board for its seat if it shows an older version."""
        async with self.sending:
            current = await database_sync_to_async(self._current)(after)
            if current is None:  # the game is gone, or this user no longer sits at it
                await self.close(code=4404)
                return
            version, html = current
            await self._send(
                {
                    "t": "at",
                    "p": version,
                    "missed": [[version, html]] if html else [],
                    "ping": settings.LIVE_PING_SECONDS,
                }
            )
            self.sent = version

    async def _ping(self) -> None:
        """Keeps an idle socket open through proxies, lets the page tell a quiet socket from a dead one, and
        brings the page a move whose broadcast was lost."""
        while True:
            await asyncio.sleep(settings.LIVE_PING_SECONDS)
            version = await database_sync_to_async(self.version_of)(self.game_id)
            if version is not None and version > self.sent and not self.sending.locked():
                await self._push(version, playing_out=False)
            else:
                await self._send({"t": "ping", "p": self.sent})

    async def _send(self, message: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(message, separators=(",", ":")))

    # -- reading and rendering (in a worker thread) -----------------------------------------------------------

    def _current(self, after: int) -> tuple[int, str] | None:
        version = self.version_of(self.game_id)
        if version is None:
            return None
        if version <= after:
            return version, ""
        board = self._board(version, False)
        if board is None:
            return None
        return board[0], board[1][-1]

    def _board(self, at_least: int, playing_out: bool) -> tuple[int, list[str]] | None:
        """This socket's copy of the board (``at_least`` or later), from the process's shared rendering."""
        rendering = board_rendering(self.kind, self.game_id, at_least, lambda: self.load(self.game_id))
        if rendering is None:
            return None
        audience = self.audience(rendering.game)
        if audience is None:
            return None
        key = (audience, self.language, playing_out, self.clock(rendering.game))
        with rendering.lock:
            pieces = rendering.html.get(key)
            if pieces is None:
                with translation.override(self.language):
                    pieces = rendering.html[key] = self.render(rendering.game, playing_out=playing_out)
                rendering.renders += 1
        return rendering.version, [
            html.replace(CSRF_MARKER, self.csrf_token).replace(ORIGIN_MARKER, self.origin) for html in pieces
        ]
