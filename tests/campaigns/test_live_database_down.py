"""During a database outage a socket's handshake answers 1013 "try again later" within a second (issue 30, item 6),
where it waited the pool's timeout (10 s) before failing."""

from __future__ import annotations

import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db.utils import OperationalError

from campaigns import live_boards
from campaigns.consumers import CampaignConsumer
from config.asgi import application
from tests.campaigns.factories import campaign_with, players_of
from tests.campaigns.live_client import LiveCommunicator
from tests.campaigns.test_live import session_cookie
from tests.frag.factories import UserFactory, game_with
from tests.security.conftest import tragic_duel

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

POOL_TIMEOUT = 2.0  # over the handshake's one second, so the 1013 is shown to come first


@pytest.fixture(autouse=True)
def _the_production_second(settings):  # type: ignore[no-untyped-def]
    settings.LIVE_HANDSHAKE_DB_SECONDS = 1


def _hanging_pool(*args: Any, **kwargs: Any) -> Any:
    """What a read does while PostgreSQL is down: the pool waits for a connection, then gives up."""
    time.sleep(POOL_TIMEOUT)
    raise OperationalError("couldn't get a connection after 3.00 sec")


async def _handshake(user: Any, path: str) -> tuple[dict[str, Any], float]:
    cookie = await sync_to_async(session_cookie)(user)
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    socket = LiveCommunicator(application, path, headers=headers)
    started = time.monotonic()
    await socket.send_input({"type": "websocket.connect"})
    output = await socket.receive_output(timeout=POOL_TIMEOUT + 2)
    while output["type"] != "websocket.close":
        output = await socket.receive_output(timeout=POOL_TIMEOUT + 2)
    took = time.monotonic() - started
    await socket.wait(timeout=POOL_TIMEOUT + 2)  # the read left behind ends with the pool's timeout
    return output, took


async def test_a_campaign_socket_is_told_to_try_again_later_within_a_second(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]
    # Not on the thread the test's own queries use: the outage is the sockets', not the test database's.
    monkeypatch.setattr(
        CampaignConsumer, "_membership", lambda self, *a: sync_to_async(_hanging_pool, thread_sensitive=False)()
    )
    closed, took = await _handshake(player, f"/ws/campaigns/{campaign.pk}/")
    assert closed["code"] == 1013
    assert took < 1.5


@pytest.mark.parametrize("kind", ["tragic", "frag"])
async def test_a_game_socket_is_told_to_try_again_later_within_a_second(monkeypatch, kind: str) -> None:  # type: ignore[no-untyped-def]
    alice, bob = await sync_to_async(UserFactory)(), await sync_to_async(UserFactory)()
    if kind == "tragic":
        game = await sync_to_async(tragic_duel)(alice, bob)
        path = f"/ws/tragic/games/{game.pk}/?after=0"
    else:
        game = await sync_to_async(game_with)(alice, others=[bob], bots=0)
        path = f"/ws/frag/{game.pk}/?after=0"
    monkeypatch.setattr(
        live_boards, "database_sync_to_async", lambda f: sync_to_async(_hanging_pool, thread_sensitive=False)
    )
    closed, took = await _handshake(alice, path)
    assert closed["code"] == 1013
    assert took < 1.5


async def test_a_resume_during_an_outage_closes_with_1013_and_one_log_line(monkeypatch, caplog) -> None:  # type: ignore[no-untyped-def]
    """The database went away after the handshake: the page's catch-up closes the socket for a later retry."""
    import logging

    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]
    cookie = await sync_to_async(session_cookie)(player)
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    socket = LiveCommunicator(application, f"/ws/campaigns/{campaign.pk}/", headers=headers)
    assert (await socket.connect())[0]
    await socket.receive_json_frame(timeout=5)

    def down(self, after):  # type: ignore[no-untyped-def]
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(CampaignConsumer, "_replay", lambda self, after: sync_to_async(down)(self, after))
    with caplog.at_level(logging.INFO):
        await socket.send_to(text_data='{"resume": 0}')
        closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 1013}
    assert not [record for record in caplog.records if record.exc_info]
    await socket.disconnect()
