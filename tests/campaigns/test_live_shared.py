"""One render pass per event for the pages of every process (campaigns.live_shared), on a real Redis: the process
that commits an event renders the other processes' pages too and its message carries their copies; a socket of another
process takes its own copy from there. Skipped where no Redis answers (CI has one)."""

from __future__ import annotations

import asyncio
import json
import os
import time
import uuid
from unittest import mock

import pytest
from asgiref.sync import sync_to_async

from campaigns import live, live_announce, live_shared, services
from campaigns.live import feed_subject, home_subject
from campaigns.live_pages import OpenPage, forget_pages
from campaigns.live_render import CSRF_MARKER, EventRendering, forget_renderings
from campaigns.models import Event
from tests.campaigns.factories import campaign_with, membership, narrator_of, players_of

REDIS = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"


def _redis_answers() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS, socket_connect_timeout=0.5, socket_timeout=0.5).ping())
    except Exception:
        return False


pytestmark = pytest.mark.skipif(not _redis_answers(), reason="no Redis answers here")


@pytest.fixture
def on_redis(settings):  # type: ignore[no-untyped-def]
    """The Redis channel layer, with a prefix of this test's own: what it writes there is nobody else's."""
    prefix = f"tablee-test-{uuid.uuid4().hex[:8]}"
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.core.RedisChannelLayer", "CONFIG": {"hosts": [REDIS], "prefix": prefix}}
    }
    settings.LIVE_SHARED_PASS = True
    live_shared._sync_client = None  # noqa: SLF001 - a client of this test's Redis
    live_shared._async_clients.clear()  # noqa: SLF001
    yield prefix
    import redis

    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def _another_process_shows(campaign_id: int, channel: str, page: OpenPage) -> None:
    """What ``publish_page`` writes, as another process would."""
    import redis

    value = json.dumps(["another-process", page.membership_id, sorted(page.watching), page.language, time.time()])
    redis.Redis.from_url(REDIS).hset(f"{live_shared._prefix()}:live-pages:{campaign_id}", channel, value)  # noqa: SLF001


@pytest.mark.django_db
def test_the_committing_process_renders_the_other_processes_pages_and_sends_their_copies(on_redis) -> None:  # type: ignore[no-untyped-def]
    campaign = campaign_with(players=2)
    narrator = narrator_of(campaign)
    lisa, marc = players_of(campaign)
    page = frozenset({home_subject(campaign.pk), feed_subject(campaign.pk)})
    pages = {who: OpenPage(membership(campaign, who).pk, page, "fr") for who in (narrator, lisa, marc)}
    for who, open_page in pages.items():
        _another_process_shows(campaign.pk, f"specific.{who.pk}", open_page)
    author = membership(campaign, narrator)
    sent: list[dict[str, object]] = []
    forget_pages()  # no page open in this process: every page is another's
    with mock.patch.object(live, "broadcast", lambda _campaign_id, message: sent.append(message)):
        public = services.note_write(membership=author, text="Le quai est désert")
        live_announce.announce(public.pk, campaign.pk, public.position)
        secret = services.note_write(membership=author, text="SECRET DU MJ", private=True)
        live_announce.announce(secret.pk, campaign.pk, secret.position)
    assert [m["event_id"] for m in sent] == [public.pk, secret.pk] and all(m.get("copies") for m in sent)
    for message, event in zip(sent, (public, secret), strict=True):
        carried = message["copies"]
        assert isinstance(carried, dict)
        forget_renderings()
        rendering = EventRendering(Event.objects.for_display().get(pk=event.pk))
        for who, open_page in pages.items():
            member = membership(campaign, who)
            alone = rendering.html_for(member, watching=page, language="fr", csrf_token=CSRF_MARKER)
            # The copy a socket of the other process takes is the one its own process would render.
            assert live_shared.copy_in(carried, open_page) == alone
    public_copies, secret_copies = sent[0]["copies"], sent[1]["copies"]
    assert "Le quai est désert" in live_shared.copy_in(public_copies, pages[lisa])
    # A private note of the narrator's: the narrators' copy tells it, the players' copies are empty.
    assert "SECRET DU MJ" in live_shared.copy_in(secret_copies, pages[narrator])
    assert live_shared.copy_in(secret_copies, pages[lisa]) == live_shared.copy_in(secret_copies, pages[marc]) == ""
    # Nothing of them is kept in Redis: the message is their one carrier.
    assert not list(_redis().scan_iter(f"{on_redis}:live-copies:*"))


@pytest.mark.django_db
def test_redis_away_the_event_is_still_announced_and_each_process_renders_its_own(on_redis, settings) -> None:  # type: ignore[no-untyped-def]
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"], "prefix": on_redis},
        }
    }
    live_shared._sync_client = None  # noqa: SLF001
    campaign = campaign_with(players=1)
    author = membership(campaign, narrator_of(campaign))
    sent: list[dict[str, object]] = []
    with mock.patch.object(live, "broadcast", lambda _campaign_id, message: sent.append(message)):
        note = services.note_write(membership=author, text="Toujours là")
        live_announce.announce(note.pk, campaign.pk, note.position)
    assert sent == [{"type": "event.created", "event_id": note.pk, "position": note.position}]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_takes_its_copy_from_the_pass_of_the_process_that_committed_the_event(on_redis) -> None:  # type: ignore[no-untyped-def]
    from tests.campaigns.test_live_stream import open_socket

    campaign = await sync_to_async(campaign_with)(players=1)
    player = (await sync_to_async(players_of)(campaign))[0]
    author = await sync_to_async(membership)(campaign, await sync_to_async(narrator_of)(campaign))
    socket = await open_socket(player, campaign.pk, f"?watch=feed:{campaign.pk}")
    await socket.receive_json_frame(timeout=5)  # where the page starts
    page = OpenPage((await sync_to_async(membership)(campaign, player)).pk, frozenset({f"feed:{campaign.pk}"}), "fr")
    for _ in range(100):  # the socket tells Redis about its page as it opens
        if await _published(campaign.pk):
            break
        await asyncio.sleep(0.02)
    assert await _published(campaign.pk)
    # Another process committed a note and rendered this page's copy: this process renders nothing of it.
    with mock.patch.object(live_announce, "announce", lambda *args: None):
        note = await sync_to_async(services.note_write)(membership=author, text="Rendu ailleurs")
    copies = {live_shared.page_key(page): f'<p id="elsewhere">{CSRF_MARKER}</p>'}
    await live.get_channel_layer().group_send(
        live.campaign_group(campaign.pk),
        {"type": "event.created", "event_id": note.pk, "position": note.position, "copies": copies},
    )
    frame = await socket.receive_json_frame(timeout=5)
    while frame["t"] != "ev":
        frame = await socket.receive_json_frame(timeout=5)
    assert frame["p"] == note.position
    assert frame["html"].startswith('<p id="elsewhere">') and CSRF_MARKER not in frame["html"]  # its own token in
    await socket.disconnect()
    assert not await _published(campaign.pk)  # gone with the socket


def _redis():  # type: ignore[no-untyped-def]
    import redis

    return redis.Redis.from_url(REDIS)


async def _published(campaign_id: int) -> bool:
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(REDIS)
    try:
        return bool(await client.hlen(f"{live_shared._prefix()}:live-pages:{campaign_id}"))  # noqa: SLF001
    finally:
        await client.aclose()


@pytest.mark.django_db
def test_a_page_its_process_stopped_saying_is_not_rendered_for(on_redis) -> None:  # type: ignore[no-untyped-def]
    """Each socket says its page again with every ping: one not said for three pings belongs to a process that died
    (its sockets never said goodbye), and nobody renders for it any more."""
    campaign = campaign_with(players=1)
    page = OpenPage(membership(campaign, players_of(campaign)[0]).pk, frozenset({f"feed:{campaign.pk}"}), "fr")
    _another_process_shows(campaign.pk, "specific.fresh", page)
    assert live_shared.other_pages(campaign.pk) == [page]
    stale = [
        "another-process",
        page.membership_id,
        sorted(page.watching),
        "fr",
        time.time() - live_shared.fresh_seconds() - 1,
    ]
    _redis().hset(f"{on_redis}:live-pages:{campaign.pk}", "specific.fresh", json.dumps(stale))
    assert live_shared.other_pages(campaign.pk) == []


@pytest.mark.django_db(transaction=True)
def test_an_event_is_announced_after_the_one_before_it_in_its_campaign(on_redis) -> None:  # type: ignore[no-untyped-def]
    """With the other processes' pages, an event is announced after its pass: the next event of the same campaign waits
    for it, so that its message does not overtake the earlier one (a page hearing a later position first catches up
    from the database)."""
    import threading

    campaign = campaign_with(players=1)
    author = membership(campaign, narrator_of(campaign))
    sent: list[object] = []
    with mock.patch.object(live_announce, "announce", lambda *args: None):
        note = services.note_write(membership=author, text="En file")
    with mock.patch.object(live, "broadcast", lambda _campaign_id, message: sent.append(message["event_id"])):
        with live_announce._announcing(campaign.pk):  # noqa: SLF001 - the earlier event's pass under way
            later = threading.Thread(target=live_announce.announce, args=(note.pk, campaign.pk, note.position))
            later.start()
            later.join(timeout=0.3)
            assert later.is_alive() and sent == []
        later.join(timeout=10)
    assert sent == [note.pk]
