"""The live table: members' sockets receive what they may see, as HTML, and nobody else's secrets."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from campaigns import services
from config.asgi import application
from tests.campaigns.factories import UserFactory, campaign_with, membership, narrator_of, players_of
from tests.campaigns.live_client import LiveCommunicator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def session_cookie(user) -> str:  # type: ignore[no-untyped-def]
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


async def connect(user, campaign_id: int) -> tuple[LiveCommunicator, bool]:  # type: ignore[no-untyped-def]
    cookie = await sync_to_async(session_cookie)(user) if user else ""
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    communicator = LiveCommunicator(application, f"/ws/campaigns/{campaign_id}/", headers=headers)
    connected, _code = await communicator.connect()
    return communicator, connected


async def test_a_member_receives_a_new_note_as_an_html_fragment() -> None:
    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]
    narrator = await sync_to_async(narrator_of)(campaign)
    socket, connected = await connect(player, campaign.pk)
    assert connected
    narrator_membership = await sync_to_async(membership)(campaign, narrator)
    await sync_to_async(services.note_write)(membership=narrator_membership, text="Les lumières s'éteignent.")
    html = await socket.receive_from(timeout=5)
    assert 'hx-swap-oob="afterbegin:#live-feed"' in html
    assert "Les lumières s" in html
    await socket.disconnect()


async def test_a_player_socket_never_receives_narrator_secrets() -> None:
    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]
    narrator = await sync_to_async(narrator_of)(campaign)
    socket, connected = await connect(player, campaign.pk)
    assert connected
    narrator_membership = await sync_to_async(membership)(campaign, narrator)
    await sync_to_async(services.note_write)(membership=narrator_membership, text="SECRET", private=True)
    await sync_to_async(services.note_write)(membership=narrator_membership, text="PUBLIC")
    html = await socket.receive_from(timeout=5)
    assert "PUBLIC" in html
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_a_non_member_cannot_connect() -> None:
    campaign = await sync_to_async(campaign_with)()
    stranger = await sync_to_async(UserFactory)()
    socket, connected = await connect(stranger, campaign.pk)
    assert not connected


async def test_an_anonymous_visitor_cannot_connect() -> None:
    campaign = await sync_to_async(campaign_with)()
    socket, connected = await connect(None, campaign.pk)
    assert not connected


async def test_events_of_another_campaign_do_not_arrive() -> None:
    campaign = await sync_to_async(campaign_with)(players=1)
    other = await sync_to_async(campaign_with)()
    player = (await sync_to_async(players_of)(campaign))[0]
    socket, connected = await connect(player, campaign.pk)
    assert connected
    other_membership = await sync_to_async(membership)(other, await sync_to_async(narrator_of)(other))
    await sync_to_async(services.note_write)(membership=other_membership, text="ELSEWHERE")
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_a_socket_watches_only_well_formed_subjects_and_a_few_of_them() -> None:
    """``?watch=`` is read as ``<name>:<id>``; anything else is ignored, and at most four are kept."""
    from campaigns.live import watched_subjects

    assert watched_subjects(["character:12", "character:012", "bad", "x:y", "<b>:1", "character:"]) == {"character:12"}
    assert len(watched_subjects([f"character:{n}" for n in range(10)])) == 4
    assert watched_subjects(["character:²", "character:٣"]) == frozenset()  # digits int() refuses or reads oddly
