"""Positions in a campaign's live stream and the catch-up a page gets after a drop (campaigns.consumers)."""

from __future__ import annotations

import json
import time
from unittest import mock

import pytest
from asgiref.sync import sync_to_async

from campaigns import services
from campaigns.models import Event
from config.asgi import application
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of
from tests.campaigns.live_client import LiveCommunicator
from tests.campaigns.test_live import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def open_socket(user, campaign_id: int, query: str = "") -> LiveCommunicator:  # type: ignore[no-untyped-def]
    cookie = await sync_to_async(session_cookie)(user)
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    socket = LiveCommunicator(application, f"/ws/campaigns/{campaign_id}/{query}", headers=headers)
    connected, _code = await socket.connect()
    assert connected
    return socket


async def table():  # type: ignore[no-untyped-def]
    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]
    narrator = await sync_to_async(narrator_of)(campaign)
    return campaign, narrator, player, await sync_to_async(membership)(campaign, narrator)


def note(author, text: str, private: bool = False) -> Event:  # type: ignore[no-untyped-def]
    return services.note_write(membership=author, text=text, private=private)


async def test_events_take_consecutive_positions_per_campaign() -> None:
    campaign, _narrator, _player, author = await table()
    other, _n, _p, other_author = await table()
    first = await sync_to_async(note)(author, "un")
    elsewhere = await sync_to_async(note)(other_author, "ailleurs")
    second = await sync_to_async(note)(author, "deux")
    assert second.position == first.position + 1
    assert elsewhere.position == first.position  # each campaign counts its own: campaign.created, then the note


async def test_a_reconnecting_player_gets_what_they_missed_and_may_see_and_nothing_else() -> None:
    """The page reconnects with ?after=<last position rendered>: the public note comes back, the narrator's
    private note does not, and the page is told where it now stands."""
    campaign, _narrator, player, author = await table()
    seen = await sync_to_async(note)(author, "Déjà vu")
    await sync_to_async(note)(author, "SECRET DU MJ", private=True)
    missed = await sync_to_async(note)(author, "Pendant la coupure")
    socket = await open_socket(player, campaign.pk, f"?after={seen.position}")
    frame = await socket.receive_json_frame(timeout=5)
    assert frame["t"] == "at" and frame["p"] == missed.position
    assert [position for position, _html in frame["missed"]] == [missed.position]
    assert "Pendant la coupure" in frame["missed"][0][1] and "SECRET" not in json.dumps(frame)
    await socket.disconnect()


async def test_a_catch_up_from_the_very_start_or_a_bogus_position_carries_only_what_the_player_may_see() -> None:
    """Bad input: a page claiming position 0, a position of another campaign or garbage gets this campaign's
    events visible to this member only."""
    campaign, _narrator, player, author = await table()
    other, _n, _p, other_author = await table()
    await sync_to_async(note)(author, "SECRET DU MJ", private=True)
    await sync_to_async(note)(author, "Public")
    await sync_to_async(note)(other_author, "AUTRE CAMPAGNE")
    socket = await open_socket(player, campaign.pk, "?after=0")
    frame = await socket.receive_json_frame(timeout=5)
    text = json.dumps(frame)
    assert "Public" in text and "SECRET" not in text and "AUTRE CAMPAGNE" not in text
    await socket.send_to(text_data=json.dumps({"resume": 0}))  # asked again over the socket: the same answer
    again = await socket.receive_json_frame(timeout=5)
    assert again["missed"] == frame["missed"]
    for bogus in ("?after=-1", "?after=abc", "?after=99999", "?since=nan", "?since=1e400", "?after=%C2%B2"):
        socket_b = await open_socket(player, campaign.pk, bogus)
        frame_b = await socket_b.receive_json_frame(timeout=5)
        assert frame_b["t"] == "at" and "SECRET" not in json.dumps(frame_b) and "AUTRE" not in json.dumps(frame_b)
        await socket_b.disconnect()
    for garbage in ('{"resume": "0"}', '{"resume": -3}', '{"resume": true}', "[]"):
        await socket.send_to(text_data=garbage)  # well-formed but meaningless: ignored
    assert await socket.receive_nothing(timeout=0.3)
    await socket.send_to(text_data="{")  # not JSON at all: closed with 1007 (campaigns/live_socket.MessageGate)
    closed = await socket.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 1007}


async def test_a_page_connecting_for_the_first_time_gets_events_newer_than_its_render() -> None:
    """``?since=<render time>``: an event created just before or after the render is replayed (the page
    drops what it already shows), older ones are not."""
    campaign, _narrator, player, author = await table()
    await sync_to_async(note)(author, "Bien avant")
    rendered_at = time.time()
    await sync_to_async(note)(author, "Juste après le rendu")
    socket = await open_socket(player, campaign.pk, f"?since={rendered_at:.0f}")
    frame = await socket.receive_json_frame(timeout=5)
    assert "Juste après le rendu" in json.dumps(frame, ensure_ascii=False)
    await socket.disconnect()
    socket = await open_socket(player, campaign.pk, f"?since={rendered_at - 3600 * 2:.0f}")  # too old: from the head
    frame = await socket.receive_json_frame(timeout=5)
    assert frame["missed"] == []
    await socket.disconnect()


async def test_live_events_say_which_message_came_before_so_the_page_sees_any_gap() -> None:
    """``q`` is the previous position this page was sent: the narrator's private note in between is not for
    the player, and the player is not even told it happened."""
    campaign, _narrator, player, author = await table()
    socket = await open_socket(player, campaign.pk)
    start = (await socket.receive_json_frame(timeout=5))["p"]
    first = await sync_to_async(note)(author, "Un")
    await sync_to_async(note)(author, "SECRET", private=True)
    third = await sync_to_async(note)(author, "Trois")
    one, three = await socket.receive_json_frame(timeout=5), await socket.receive_json_frame(timeout=5)
    assert (one["p"], one["q"]) == (first.position, start)
    assert (three["p"], three["q"]) == (third.position, first.position)
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


def note_never_announced(author, text: str) -> Event:  # type: ignore[no-untyped-def]
    """A note whose live message the channel layer lost (Redis capacity, expiry)."""
    with mock.patch("campaigns.live.broadcast", return_value=False):
        return note(author, text)


async def test_a_message_the_channel_layer_lost_is_replayed_from_the_database() -> None:
    """The consumer hears of position n+2 after n: it reads n+1 and n+2 from the database rather than skip one."""
    campaign, _narrator, player, author = await table()
    socket = await open_socket(player, campaign.pk)
    await socket.receive_json_frame(timeout=5)
    lost = await sync_to_async(note_never_announced)(author, "Jamais annoncé")
    announced = await sync_to_async(note)(author, "Annoncé")
    frame = await socket.receive_json_frame(timeout=5)
    assert frame["t"] == "at" and [p for p, _html in frame["missed"]] == [lost.position, announced.position]
    assert "Jamais annoncé" in frame["missed"][0][1]
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_a_page_just_opened_connects_from_the_position_it_was_rendered_at_and_nothing_is_replayed() -> None:
    """A page names the position it shows (``data-live-after``): its socket replays nothing, where starting from its
    render time (``since``, older pages) re-sent and re-rendered the last seconds' events with nothing new."""
    import re

    from django.test import Client
    from django.urls import reverse

    from campaigns.live_render import _renderings

    campaign, _narrator, player, author = await table()
    await sync_to_async(note)(author, "Il y a une seconde")

    def page() -> str:
        client = Client()
        client.force_login(player)
        return client.get(reverse("campaigns:home", args=[campaign.pk])).content.decode()

    html = await sync_to_async(page)()
    after = re.search(r'data-live-after="(\d+)"', html)
    assert after is not None
    socket = await open_socket(player, campaign.pk, f"?after={after.group(1)}&since={time.time()}")
    frame = await socket.receive_json_frame(timeout=5)
    assert frame["t"] == "at" and frame["missed"] == [] and frame["p"] == int(after.group(1))
    assert not _renderings  # nothing was rendered to open the page's socket
    await socket.disconnect()
    replaying = await open_socket(player, campaign.pk, f"?since={time.time()}")  # an older page
    frame = await replaying.receive_json_frame(timeout=5)
    assert "Il y a une seconde" in json.dumps(frame["missed"])
    await replaying.disconnect()
