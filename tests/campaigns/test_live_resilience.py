"""Sockets that stay up and writes that never fail because a broadcast did."""

from __future__ import annotations

import asyncio
import logging

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db.utils import OperationalError
from django.urls import reverse

from campaigns import services
from campaigns.live import broadcast_health
from campaigns.models import Event
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of
from tests.campaigns.test_live import connect


class BrokenLayer:
    """A channel layer whose server is gone: every call raises, as channels-redis does with Redis down."""

    async def group_send(self, group: str, message: dict[str, object]) -> None:
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    async def group_add(self, group: str, channel: str) -> None:
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


@pytest.fixture
def broken_layer(monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr("campaigns.live.get_channel_layer", lambda: BrokenLayer())
    monkeypatch.setattr("core.health.get_channel_layer", lambda: BrokenLayer())
    broadcast_health.failing = False
    yield
    broadcast_health.failing = False


@pytest.mark.django_db(transaction=True)
def test_a_note_written_while_the_channel_layer_is_down_is_saved_once_and_answered_with_success(
    client, broken_layer, caplog
) -> None:  # type: ignore[no-untyped-def]
    """The transaction commits before the broadcast; a failing broadcast is logged once, not raised (no 500
    that would make the user post the note again)."""
    campaign = campaign_with(players=1)
    player = players_of(campaign)[0]
    client.force_login(player)
    url = reverse("campaigns:note_create", args=[campaign.pk])
    with caplog.at_level(logging.WARNING, logger="campaigns.live"):
        first = client.post(url, {"text": "Pendant la panne"}, HTTP_HX_REQUEST="true")
        second = client.post(url, {"text": "Toujours en panne"}, HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and second.status_code == 200
    assert Event.objects.filter(campaign=campaign, kind="note", payload__text="Pendant la panne").count() == 1
    assert Event.objects.filter(campaign=campaign, kind="note", payload__text="Toujours en panne").count() == 1
    warnings = [r for r in caplog.records if r.name == "campaigns.live"]
    assert len(warnings) == 1, "one outage, one log line"


@pytest.mark.django_db
def test_healthz_answers_200_when_all_is_up(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "down": []}


@pytest.mark.django_db
def test_healthz_answers_503_naming_the_channel_layer_when_it_is_down(client, broken_layer) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"ok": False, "down": ["channel_layer"]}


@pytest.mark.django_db
def test_healthz_answers_503_naming_the_database_when_it_is_down(client, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def refuse(*args: object, **kwargs: object) -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr("core.health.connection.cursor", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["down"] == ["database"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_opened_while_the_channel_layer_is_down_is_told_to_try_again_later(monkeypatch) -> None:
    """Not a 500 handshake: the socket closes with 1013 ("try again later") and the page reconnects."""
    from campaigns.consumers import CampaignConsumer

    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]

    original = CampaignConsumer.connect

    async def connect_with_broken_layer(self):  # type: ignore[no-untyped-def]
        self.channel_layer = BrokenLayer()
        await original(self)

    monkeypatch.setattr(CampaignConsumer, "connect", connect_with_broken_layer)
    socket, connected = await connect(player, campaign.pk)
    assert connected
    closed = await socket.receive_output(timeout=2)
    assert closed == {"type": "websocket.close", "code": 1013}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.skipif(not settings.REDIS_URL, reason="the idle timeout was Redis's (CI's second pass sets REDIS_URL)")
async def test_a_socket_idle_for_30_seconds_is_still_open_and_receives_the_next_event(settings) -> None:  # type: ignore[no-untyped-def]
    """channels-redis blocks 5 s per receive; redis-py 8 used to time the read out at 5 s and close the socket."""
    settings.LIVE_PING_SECONDS = 12
    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]
    narrator = await sync_to_async(narrator_of)(campaign)
    socket, connected = await connect(player, campaign.pk)
    assert connected
    await asyncio.sleep(30)
    narrator_membership = await sync_to_async(membership)(campaign, narrator)
    await sync_to_async(services.note_write)(membership=narrator_membership, text="Après le silence")
    frames = [await socket.receive_json_frame(timeout=5)]
    while frames[-1]["t"] != "ev":
        frames.append(await socket.receive_json_frame(timeout=5))
    assert [f["t"] for f in frames] == ["at", "ping", "ping", "ev"], "two keep-alive pings during the silence"
    assert "Après le silence" in frames[-1]["html"]
    await socket.disconnect()
