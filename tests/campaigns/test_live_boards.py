"""The game socket's protocol (campaigns/live_boards.py) on an in-memory game: what a page receives on connecting,
on a move, on a resume and on a ping, the moments played out before a board, the seat's CSRF token and origin put
into its copy, one rendering per audience and language, and the refusals. The real games (TRAGIC, Frag) are
tested in tests/tragic and tests/frag; this one needs no database, so every branch is cheap to reach."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import DatabaseError

from campaigns import live_boards
from campaigns.live_boards import ORIGIN_MARKER, BoardConsumer, board_rendering, forget_boards, kept_board
from campaigns.live_render import CSRF_MARKER
from tests.campaigns.live_client import LiveCommunicator

# The game is in memory, but channels closes stale database connections around every message: the database must
# be allowed, as for every socket test.
pytestmark = pytest.mark.django_db(transaction=True)
CSRF_SECRET = "a" * 32


@dataclass
class Game:
    version: int = 3
    seats: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 1})  # user id → seat
    moments: int = 0  # moments played out on the way to the current version
    gone: bool = False


@dataclass
class Table:
    game: Game = field(default_factory=Game)
    renders: list[tuple[Hashable, bool]] = field(default_factory=list)
    fail_reads: bool = False
    pace: float = 0.0


TABLE = Table()


class FakeBoardConsumer(BoardConsumer):
    kind = "fake"

    def group_of(self, game_id: int) -> str:
        return f"fake-{game_id}"

    def seated(self, user_id: int, game_id: int) -> bool:
        return user_id in TABLE.game.seats

    def version_of(self, game_id: int) -> int | None:
        if TABLE.fail_reads:
            raise DatabaseError("the database went away")
        return None if TABLE.game.gone else TABLE.game.version

    def load(self, game_id: int) -> tuple[int, Any] | None:
        game = TABLE.game
        return None if game.gone else (game.version, Game(game.version, dict(game.seats), game.moments))

    def audience(self, game: Any) -> Hashable | None:
        return game.seats.get(self.user_id)

    def render(self, game: Any, *, playing_out: bool) -> list[str]:
        seat = game.seats[self.user_id]
        TABLE.renders.append((seat, playing_out))
        moments = [f"moment {n}" for n in range(game.moments)] if playing_out else []
        return [*moments, f"board v{game.version} seat {seat} {CSRF_MARKER} {ORIGIN_MARKER}"]

    def pace(self) -> float:
        return TABLE.pace


@dataclass
class User:
    pk: int
    is_authenticated: bool = True


@pytest.fixture(autouse=True)
def fresh_table() -> Any:
    global TABLE
    TABLE = Table()
    forget_boards()
    yield
    forget_boards()


async def open_board(user_id: int | None, *, after: str = "", csrf: str = "") -> WebsocketCommunicator:
    query = f"?after={after}" if after else ""
    socket = LiveCommunicator(
        FakeBoardConsumer.as_asgi(), f"/ws/fake/games/7/{query}", headers=[(b"origin", b"http://table.test")]
    )
    socket.scope["user"] = None if user_id is None else User(user_id)
    socket.scope["url_route"] = {"kwargs": {"game_id": "7"}}
    socket.scope["cookies"] = {"django_language": "en", **({"csrftoken": csrf} if csrf else {})}
    return socket


async def frame(socket: WebsocketCommunicator) -> dict[str, Any]:
    return dict(json.loads(await socket.receive_from(timeout=2)))


async def updated(version: int) -> None:
    await get_channel_layer().group_send("fake-7", {"type": "game.updated", "version": version})


@pytest.mark.asyncio
async def test_a_page_behind_gets_its_seats_board_with_its_token_and_origin_and_a_current_one_nothing() -> None:
    behind = await open_board(1, after="2", csrf=CSRF_SECRET)
    assert (await behind.connect())[0]
    at = await frame(behind)
    assert at["t"] == "at" and at["p"] == 3 and at["missed"][0][0] == 3
    board = at["missed"][0][1]
    assert board.startswith("board v3 seat 0 ") and "http://table.test" in board
    assert CSRF_MARKER not in board and ORIGIN_MARKER not in board and len(board.split()[-2]) == 64  # masked token

    current = await open_board(1, after="3")
    assert (await current.connect())[0]
    assert await frame(current) == {"t": "at", "p": 3, "missed": [], "ping": at["ping"]}
    bad_after = await open_board(2, after="x1")  # not a number: the page shows nothing yet
    assert (await bad_after.connect())[0]
    assert (await frame(bad_after))["missed"][0][1].startswith("board v3 seat 1 ")
    for socket in (behind, current, bad_after):
        await socket.disconnect()


@pytest.mark.asyncio
async def test_a_move_reaches_every_seat_once_rendered_once_per_seat() -> None:
    sockets = [await open_board(user) for user in (1, 1, 2)]
    for socket in sockets:
        assert (await socket.connect())[0]
        await frame(socket)
    TABLE.renders.clear()
    TABLE.game.version = 4
    await updated(4)
    boards = [await frame(socket) for socket in sockets]
    assert [(b["t"], b["p"], b["q"]) for b in boards] == [("ev", 4, 3)] * 3
    assert [b["html"].split()[3] for b in boards] == ["0", "0", "1"]  # each seat its own board
    assert sorted(TABLE.renders) == [(0, False), (1, False)]  # one rendering per seat, not per socket
    assert kept_board("fake", 7) is not None and kept_board("fake", 7).renders == 2  # type: ignore[union-attr]
    await updated(4)  # the same move heard twice (a catch-up got there first)
    await updated(3)
    assert [await socket.receive_nothing(timeout=0.1) for socket in sockets] == [True] * 3
    for socket in sockets:
        await socket.disconnect()


@pytest.mark.asyncio
async def test_a_bots_turn_is_played_out_moment_by_moment_before_the_board() -> None:
    TABLE.pace = 0.01
    socket = await open_board(1)
    assert (await socket.connect())[0]
    await frame(socket)
    TABLE.game.version, TABLE.game.moments = 5, 2
    await updated(5)
    got = [await frame(socket) for _ in range(3)]
    assert [(m["t"], m["p"], m["html"].split()[0]) for m in got] == [
        ("frame", 5, "moment"),
        ("frame", 5, "moment"),
        ("ev", 5, "board"),
    ]
    await socket.disconnect()


@pytest.mark.asyncio
async def test_a_resume_behind_gets_the_board_and_other_messages_are_ignored(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("campaigns.live_socket.RESUME_INTERVAL", 0)
    socket = await open_board(2, after="3")
    assert (await socket.connect())[0]
    await frame(socket)
    await socket.send_to(text_data=json.dumps({"hello": 1}))  # not a resume
    assert await socket.receive_nothing(timeout=0.1)
    await socket.send_to(text_data=json.dumps({"resume": 1}))
    at = await frame(socket)
    assert at["t"] == "at" and at["missed"][0][1].startswith("board v3 seat 1")
    TABLE.fail_reads = True
    await socket.send_to(text_data=json.dumps({"resume": 1}))  # the database went away: try again later
    assert await socket.receive_output(timeout=2) == {"type": "websocket.close", "code": 1013}
    await socket.disconnect()


@pytest.mark.asyncio
async def test_a_ping_brings_a_move_whose_broadcast_was_lost(settings) -> None:  # type: ignore[no-untyped-def]
    settings.LIVE_PING_SECONDS = 0.05
    socket = await open_board(1)
    assert (await socket.connect())[0]
    await frame(socket)
    assert await frame(socket) == {"t": "ping", "p": 3}
    TABLE.game.version = 6  # moved, no broadcast
    pushed = await frame(socket)
    assert (pushed["t"], pushed["p"], pushed["q"]) == ("ev", 6, 3)
    await socket.disconnect()


@pytest.mark.asyncio
async def test_who_may_not_watch_is_refused() -> None:
    anonymous = await open_board(None)
    assert await anonymous.connect() == (False, 4401)
    stranger = await open_board(9)
    assert await stranger.connect() == (False, 4404)
    TABLE.game.gone = True  # seated, but the game went away before the first board
    seated = await open_board(1)
    assert (await seated.connect())[0]
    assert await seated.receive_output(timeout=2) == {"type": "websocket.close", "code": 4404}
    await seated.disconnect()


@pytest.mark.asyncio
async def test_an_outage_at_the_handshake_closes_with_try_again_later(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def seat_unreadable(self, user_id: int, game_id: int) -> bool:  # type: ignore[no-untyped-def]
        raise DatabaseError("no connection")

    monkeypatch.setattr(FakeBoardConsumer, "seated", seat_unreadable)
    socket = await open_board(1)
    assert (await socket.connect())[0]  # accepted, then told to try again later
    assert await socket.receive_output(timeout=2) == {"type": "websocket.close", "code": 1013}


@pytest.mark.asyncio
async def test_the_first_board_unreadable_closes_with_try_again_later() -> None:
    TABLE.fail_reads = True
    socket = await open_board(1)
    assert (await socket.connect())[0]
    assert await socket.receive_output(timeout=2) == {"type": "websocket.close", "code": 1013}
    await socket.disconnect()


@pytest.mark.asyncio
async def test_a_channel_layer_down_closes_with_try_again_later(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    async def broken(*args: Any) -> None:
        raise ConnectionError("redis is down")

    layer = get_channel_layer()
    monkeypatch.setattr(layer, "group_add", broken)
    socket = await open_board(1)
    assert (await socket.connect())[0]
    assert await socket.receive_output(timeout=2) == {"type": "websocket.close", "code": 1013}


@pytest.mark.asyncio
async def test_leaving_a_group_uncleanly_is_only_logged(monkeypatch, caplog) -> None:  # type: ignore[no-untyped-def]
    async def broken(*args: Any) -> None:
        raise ConnectionError("redis is down")

    socket = await open_board(1)
    assert (await socket.connect())[0]
    await frame(socket)
    monkeypatch.setattr(get_channel_layer(), "group_discard", broken)
    caplog.set_level(logging.INFO, logger="campaigns.live_boards")
    await socket.disconnect()
    await asyncio.sleep(0.05)
    assert "game socket left its group uncleanly" in caplog.text


def test_a_kept_rendering_serves_while_recent_enough_whatever_the_time(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """No freshness by the clock: a version is loaded once; what a board shows of the time is in its key."""
    loads: list[int] = []

    def load(version: int) -> Any:
        def read() -> tuple[int, str]:
            loads.append(version)
            return version, f"game v{version}"

        return read

    first = board_rendering("fake", 1, 2, load(2))
    assert first is not None and board_rendering("fake", 1, 1, load(2)) is first and loads == [2]
    assert board_rendering("fake", 1, 3, load(3)).version == 3  # type: ignore[union-attr]  # asked for later
    assert board_rendering("fake", 1, 1, lambda: None) is not None  # the kept one, the game not read
    assert board_rendering("fake", 1, 3, load(3)) is not None and loads == [2, 3]  # the same version: kept
    assert board_rendering("fake", 2, 0, lambda: None) is None  # a game gone
    monkeypatch.setattr(live_boards, "KEPT_BOARDS", 2)
    for game_id in (3, 4):
        board_rendering("fake", game_id, 0, load(1))
    assert kept_board("fake", 1) is None and kept_board("fake", 4) is not None  # the oldest game dropped


@pytest.mark.asyncio
async def test_a_board_that_shows_the_time_is_rendered_again_when_what_it_shows_of_it_moves(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """TRAGIC's seconds left to react: the same version is rendered again for a later catch-up once the seconds it
    shows have moved, and only then (it used to be kept three seconds whatever it showed)."""
    seconds = [30]
    monkeypatch.setattr(FakeBoardConsumer, "clock", lambda self, game: seconds[0], raising=False)
    socket = await open_board(1)
    assert (await socket.connect())[0]
    await frame(socket)
    assert TABLE.renders == [(0, False)]
    await socket.send_to(text_data=json.dumps({"resume": 0}))
    await frame(socket)
    assert TABLE.renders == [(0, False)]  # the same seconds: the kept board
    seconds[0] = 29
    await socket.send_to(text_data=json.dumps({"resume": 0}))
    await frame(socket)
    assert TABLE.renders == [(0, False), (0, False)]
    await socket.disconnect()
