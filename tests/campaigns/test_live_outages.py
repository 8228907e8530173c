"""The campaign socket (campaigns/consumers.py) through a database or channel-layer outage: every read that fails
closes the socket with 1013 ("try again later", the page reconnects with its backoff) and one log line, never a
500 handshake or a traceback; leaving a group the layer cannot reach is only logged."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import DatabaseError

from campaigns.consumers import CampaignConsumer
from tests.campaigns.factories import campaign_with, players_of
from tests.campaigns.test_live import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
CLOSED_TRY_AGAIN_LATER = {"type": "websocket.close", "code": 1013}


async def a_player() -> tuple[Any, Any]:
    campaign = await sync_to_async(campaign_with)(players=1)
    return campaign, (await sync_to_async(players_of)(campaign))[0]


def failing(*args: Any, **kwargs: Any) -> Any:
    async def fail() -> Any:
        raise DatabaseError("server closed the connection unexpectedly")

    return fail()


async def test_a_membership_unreadable_at_the_handshake_is_told_to_try_again_later(monkeypatch, caplog) -> None:  # type: ignore[no-untyped-def]
    campaign, player = await a_player()
    monkeypatch.setattr(CampaignConsumer, "_membership", failing)
    with caplog.at_level(logging.WARNING, logger="campaigns.live_socket"):
        socket, connected = await connect(player, campaign.pk)
        assert connected  # accepted, to be closed with a code the page understands
        assert await socket.receive_output(timeout=2) == CLOSED_TRY_AGAIN_LATER
    assert "database unavailable" in caplog.text


async def test_a_start_position_unreadable_is_told_to_try_again_later(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    campaign, player = await a_player()
    monkeypatch.setattr(CampaignConsumer, "_start_position", failing)
    socket, connected = await connect(player, campaign.pk)
    assert connected
    assert await socket.receive_output(timeout=2) == CLOSED_TRY_AGAIN_LATER


async def test_a_resume_during_an_outage_closes_with_try_again_later(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    campaign, player = await a_player()
    monkeypatch.setattr("campaigns.live_socket.RESUME_INTERVAL", 0)
    socket, connected = await connect(player, campaign.pk)
    assert connected
    assert (await socket.receive_json_frame())["t"] == "at"
    monkeypatch.setattr(CampaignConsumer, "_replay", failing)
    await socket.send_to(text_data=json.dumps({"resume": 0}))
    assert await socket.receive_output(timeout=2) == CLOSED_TRY_AGAIN_LATER
    await socket.disconnect()


async def test_leaving_the_group_while_the_layer_is_down_is_only_logged(monkeypatch, caplog) -> None:  # type: ignore[no-untyped-def]
    campaign, player = await a_player()
    socket, connected = await connect(player, campaign.pk)
    assert connected
    assert (await socket.receive_json_frame())["t"] == "at"

    async def unreachable(*args: Any) -> None:
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    from channels.layers import get_channel_layer

    monkeypatch.setattr(get_channel_layer(), "group_discard", unreachable)
    with caplog.at_level(logging.INFO, logger="campaigns.consumers"):
        await socket.disconnect()
    assert "live socket left its group uncleanly" in caplog.text
