"""Hostile socket input (issue 30, item 1): every message on the campaign socket and both game sockets goes through
one gate (campaigns/live_socket.MessageGate). A message too big, too deep, not JSON or binary closes the socket
with its close code and one log line, never a traceback; a flooding client is closed (1008), others keep going."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from campaigns import services
from config.asgi import application
from frag.models import Game as FragGame
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of
from tests.campaigns.live_client import LiveCommunicator
from tests.campaigns.test_live import session_cookie
from tests.frag.factories import UserFactory, game_with
from tests.security.conftest import tragic_duel

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _open(user: Any, path: str) -> LiveCommunicator:
    cookie = await sync_to_async(session_cookie)(user)
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    socket = LiveCommunicator(application, path, headers=headers)
    connected, _code = await socket.connect()
    assert connected
    assert (await socket.receive_json_frame(timeout=5))["t"] == "at"
    return socket


async def _campaign_socket() -> LiveCommunicator:
    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]
    return await _open(player, f"/ws/campaigns/{campaign.pk}/")


async def _tragic_socket() -> LiveCommunicator:
    alice, bob = await sync_to_async(UserFactory)(), await sync_to_async(UserFactory)()
    game = await sync_to_async(tragic_duel)(alice, bob)
    return await _open(alice, f"/ws/tragic/games/{game.pk}/?after={game.version}")


async def _frag_socket() -> LiveCommunicator:
    alice, bob = await sync_to_async(UserFactory)(), await sync_to_async(UserFactory)()
    game = await sync_to_async(game_with)(alice, others=[bob], bots=0)
    version = await sync_to_async(lambda: FragGame.objects.get(pk=game.pk).version)()
    return await _open(alice, f"/ws/frag/{game.pk}/?after={version}")


SOCKETS = {"campaign": _campaign_socket, "tragic": _tragic_socket, "frag": _frag_socket}

HOSTILE: dict[str, tuple[dict[str, Any], int]] = {
    "deep JSON": ({"text": "[" * 100_000}, 1009),
    "deep JSON under the size limit": ({"text": "[" * 4000}, 1007),
    "nested resume": ({"text": json.dumps({"resume": [[[[[[1]]]]]]})}, 1007),
    "huge JSON": ({"text": json.dumps({"resume": 1, "pad": "x" * 2_000_000})}, 1009),
    "long in bytes, short in characters": ({"text": json.dumps({"p": "\u00e9" * 3000}, ensure_ascii=False)}, 1009),
    "not JSON": ({"text": "{resume: 1"}, 1007),
    "NaN": ({"text": '{"resume": NaN}'}, 1007),
    "binary frame": ({"bytes": b"\x00\xff" * 10}, 1003),
}


async def _closed_with(socket: LiveCommunicator, timeout: float = 3) -> int:
    """The close code, skipping whatever the socket sent before closing."""
    while True:
        output = await socket.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return int(output["code"])


@pytest.mark.parametrize("socket_kind", SOCKETS)
@pytest.mark.parametrize("case", HOSTILE)
async def test_a_hostile_message_closes_the_socket_with_its_code_and_one_log_line(
    socket_kind: str, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    socket = await SOCKETS[socket_kind]()
    frame, code = HOSTILE[case]
    with caplog.at_level(logging.INFO):
        await socket.send_input({"type": "websocket.receive", **frame})
        assert await _closed_with(socket) == code
    refusals = [r for r in caplog.records if "closed with" in r.getMessage()]
    assert len(refusals) == 1 and refusals[0].exc_info is None
    assert not [r for r in caplog.records if r.exc_info], "no traceback"
    await socket.disconnect()


@pytest.mark.parametrize("socket_kind", SOCKETS)
async def test_a_flooding_client_is_closed_with_1008(socket_kind: str, settings: Any) -> None:
    settings.LIVE_MESSAGE_BURST = 10
    socket = await SOCKETS[socket_kind]()
    for _ in range(50):
        await socket.send_input({"type": "websocket.receive", "text": '{"panels": []}'})
    assert await _closed_with(socket) == 1008
    await socket.disconnect()


async def test_a_flood_on_one_socket_leaves_another_page_its_events(settings: Any) -> None:
    settings.LIVE_MESSAGE_BURST = 10
    campaign = await sync_to_async(campaign_with)(players=2)
    alice, bob = await sync_to_async(players_of)(campaign)
    flooder = await _open(alice, f"/ws/campaigns/{campaign.pk}/")
    reader = await _open(bob, f"/ws/campaigns/{campaign.pk}/")
    for _ in range(200):
        await flooder.send_input({"type": "websocket.receive", "text": '{"panels": ["1"]}'})
    assert await _closed_with(flooder) == 1008
    narrator = await sync_to_async(narrator_of)(campaign)
    narrator_membership = await sync_to_async(membership)(campaign, narrator)
    await sync_to_async(services.note_write)(membership=narrator_membership, text="Toujours là")
    assert "Toujours là" in await reader.receive_from(timeout=5)
    await asyncio.gather(flooder.disconnect(), reader.disconnect())


async def test_a_page_within_the_limits_is_answered() -> None:
    socket = await _campaign_socket()
    await socket.send_to(text_data=json.dumps({"resume": 0}))
    assert (await socket.receive_json_frame(timeout=5))["t"] == "at"
    await socket.send_to(text_data=json.dumps({"resume": 10**20}))  # past any column: ignored, not a crash
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()
