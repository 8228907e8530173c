"""The campaign socket's quieter paths (campaigns/consumers.py): an idle socket's ping carries the position; a
broadcast already sent by a catch-up, or one with no position, sends nothing twice; a member removed while their
page is open gets nothing more on a resume."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from campaigns import services
from campaigns.live import campaign_group
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of
from tests.campaigns.test_live import connect

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_an_idle_socket_is_pinged_with_its_position(settings) -> None:  # type: ignore[no-untyped-def]
    settings.LIVE_PING_SECONDS = 0.05
    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]
    socket, connected = await connect(player, campaign.pk)
    assert connected
    at = await socket.receive_json_frame()
    assert at["ping"] == 0.05
    assert await socket.receive_json_frame() == {"t": "ping", "p": at["p"]}
    await socket.disconnect()


async def test_a_broadcast_already_sent_or_without_position_sends_nothing() -> None:
    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]
    narrator = await sync_to_async(narrator_of)(campaign)
    socket, connected = await connect(player, campaign.pk)
    assert connected
    await socket.receive_json_frame()
    note = await sync_to_async(services.note_write)(
        membership=await sync_to_async(membership)(campaign, narrator), text="Une fois"
    )
    assert "Une fois" in await socket.receive_from()
    group = campaign_group(campaign.pk)
    await get_channel_layer().group_send(
        group, {"type": "event.created", "event_id": note.pk, "position": note.position}
    )
    await get_channel_layer().group_send(group, {"type": "event.created", "event_id": note.pk})
    assert await socket.receive_nothing(timeout=0.2)
    await socket.disconnect()


async def test_a_member_removed_while_the_page_is_open_gets_nothing_on_resume(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("campaigns.live_socket.RESUME_INTERVAL", 0)
    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]
    narrator = await sync_to_async(narrator_of)(campaign)
    socket, connected = await connect(player, campaign.pk)
    assert connected
    await socket.receive_json_frame()
    await sync_to_async(services.note_write)(
        membership=await sync_to_async(membership)(campaign, narrator), text="Avant le départ"
    )
    await socket.receive_from()
    await sync_to_async(lambda: campaign.memberships.filter(user=player).delete())()
    await socket.send_to(text_data=json.dumps({"resume": 0}))
    at = await socket.receive_json_frame()
    assert at["t"] == "at" and at["missed"] == []  # not the entries it may no longer read
    await socket.disconnect()
