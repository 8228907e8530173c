"""Hidden information stays on the server: narrator secrets, NPC sheets, private notes, the other hand."""

from __future__ import annotations

import contextlib
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import translation

from campaigns import services as campaign_services
from campaigns.models import Visibility
from config.asgi import application
from frag.engine import State as FragState
from frag.selectors.choices import hand as frag_hand
from tests.campaigns.factories import PASSWORD, membership
from tests.campaigns.live_client import LiveCommunicator
from tests.security.conftest import NARRATOR_SECRET, NPC_SECRET, PRIVATE_NOTE, World, build_world
from tests.tragic.test_web import opponent_hand_names
from tragic.services import load_state

pytestmark = pytest.mark.django_db


def _player_pages(world: World) -> list[str]:
    c = world.campaign.pk
    return [
        reverse("campaigns:home", args=[c]),
        reverse("campaigns:log", args=[c]),
        reverse("campaigns:log_export", args=[c, "json"]),
        reverse("campaigns:log_export", args=[c, "md"]),
        reverse("characters:campaign", args=[c]),
        reverse("characters:detail", args=[world.bob_pc.pk]),
        reverse("characters:detail", args=[world.alice_pc.pk]),
        reverse("characters:print", args=[world.alice_pc.pk]),
        reverse("states:savage_round", args=[c]),
        reverse("conflicts:scenes", args=[c]),
        reverse("conflicts:scene", args=[c, world.scene.pk]),
        reverse("conflicts:sequence", args=[c, world.sequence.pk]),
        reverse("conflicts:story", args=[c, world.sequence.pk]),
    ]


@pytest.mark.parametrize("who", ["alice", "bob"])
def test_a_players_pages_never_show_narrator_secrets_npc_sheets_or_anothers_private_note(client, world, who):
    world.login(client, getattr(world, who))
    pages = _player_pages(world)
    secrets = [NARRATOR_SECRET, NPC_SECRET]
    if who == "alice":
        pages.append(reverse("conflicts:panel", args=[world.campaign.pk, world.participant.pk]))
    else:
        secrets.append(PRIVATE_NOTE)
    for url in pages:
        for htmx in (False, True):
            headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            response = client.get(url, **headers)
            assert response.status_code in (200, 302), url
            body = response.content.decode()
            for secret in secrets:
                assert secret not in body, (url, htmx, secret)


def test_the_secrets_are_really_on_the_narrators_pages(client, world):
    """The search above would prove nothing if the secrets were never rendered at all."""
    world.login(client, world.narrator)
    log = client.get(reverse("campaigns:log", args=[world.campaign.pk])).content.decode()
    assert NARRATOR_SECRET in log and PRIVATE_NOTE in log
    assert NPC_SECRET in client.get(reverse("characters:detail", args=[world.npc.pk])).content.decode()
    world.login(client, world.alice)
    assert PRIVATE_NOTE in client.get(reverse("campaigns:log", args=[world.campaign.pk])).content.decode()


def test_a_player_cannot_reach_an_npc_sheet(client, world):
    world.login(client, world.bob)
    for name in ("characters:detail", "characters:print", "states:savage_state"):
        assert client.get(reverse(name, args=[world.npc.pk])).status_code == 404


def test_a_player_cannot_correct_an_event_they_cannot_see(client, world):
    world.login(client, world.bob)
    for event in (world.secret_event, world.private_note):
        url = reverse("campaigns:event_correct", args=[world.campaign.pk, event.pk])
        assert client.post(url, {"reason": "x"}).status_code == 404


def test_the_public_log_shows_only_public_events(client, world):
    campaign_services.public_log_publish(campaign=world.campaign, actor=world.narrator)
    world.campaign.refresh_from_db()
    client.cookies["django_language"] = "en"
    body = client.get(reverse("campaigns:public_log", args=[world.campaign.public_log_token])).content.decode()
    assert "Bob public note" in body
    for secret in (NARRATOR_SECRET, PRIVATE_NOTE, NPC_SECRET):
        assert secret not in body
    campaign_services.public_log_unpublish(campaign=world.campaign, actor=world.narrator)
    assert client.get(reverse("campaigns:public_log", args=[world.campaign.public_log_token or "x"])).status_code == 404


# -- TRAGIC ------------------------------------------------------------------------------------------


def test_tragic_pages_and_refusals_never_show_the_opponents_hand(client, world):
    game = world.tragic
    state = load_state(game)
    for seat, user in ((0, world.alice), (1, world.bob)):
        world.login(client, user)
        hidden = opponent_hand_names(game, seat)
        assert hidden
        url = reverse("tragic:game", args=[game.pk])
        bodies = [client.get(url).content.decode(), client.get(url, HTTP_HX_REQUEST="true").content.decode()]
        # A refused action answers with the board too (stale version).
        act = client.post(
            reverse("tragic:game_act", args=[game.pk]),
            {"action": json.dumps({"kind": "end_turn", "player": seat}), "version": game.version - 1},
            HTTP_HX_REQUEST="true",
        )
        assert act.status_code == 409
        bodies.append(act.content.decode())
        for body in bodies:
            for name in hidden:
                assert name not in body, (seat, name)
    game.refresh_from_db()
    assert load_state(game).to_json() == state.to_json()


# -- Frag --------------------------------------------------------------------------------------------


def _frag_hidden(world: World, seat: int) -> list[str]:
    """Cards in the other fighter's hand that nothing this seat sees shows."""
    state = FragState.from_json(world.frag.snapshot)
    with translation.override("en"):
        mine = {c["name"] for c in frag_hand(state, seat)}
        visible = json.dumps(state.observation(seat))
        other = frag_hand(state, 1 - seat)
    return [c["text"] for c in other if c["name"] not in mine and str(c["uid"]) not in visible] + [
        c["name"] for c in other if c["name"] not in mine
    ]


def test_frag_pages_never_show_the_other_hand(client, world):
    for seat, user in ((0, world.alice), (1, world.bob)):
        world.login(client, user)
        hidden = _frag_hidden(world, seat)
        assert hidden
        url = reverse("frag:game", args=[world.frag.pk])
        for body in (client.get(url).content.decode(), client.get(url, HTTP_HX_REQUEST="true").content.decode()):
            for text in hidden:
                assert text not in body, (seat, text)
        replay = client.get(reverse("frag:replay", args=[world.frag.pk])).content.decode()
        for text in hidden:
            assert text not in replay


def test_a_hot_seat_page_shows_no_hand_before_the_tap_and_only_the_acting_one_after(client, world):
    from frag import services as frag_services

    seats = [frag_services.SeatSpec(name=n, health=2, speed=3, accuracy=2, user=world.alice) for n in ("Ana", "Bea")]
    game = frag_services.game_create(creator=world.alice, map_name="entrepot", seats=seats, seed=11)
    state = FragState.from_json(game.snapshot)
    with translation.override("en"):
        hands = [frag_hand(state, seat) for seat in (0, 1)]
    words = [{c["name"] for c in hand} | {c["text"] for c in hand} for hand in hands]
    acting = state.current_players()[0]
    world.login(client, world.alice)
    url = reverse("frag:game", args=[game.pk])
    for body in (client.get(url).content.decode(), client.get(url, HTTP_HX_REQUEST="true").content.decode()):
        assert not [w for w in words[0] | words[1] if w in body]
    client.post(reverse("frag:reveal", args=[game.pk]), {"seat": str(acting)})
    body = client.get(url).content.decode()
    assert all(w in body for w in words[acting])
    assert not [w for w in words[1 - acting] - words[acting] if w in body]


# -- live sockets ------------------------------------------------------------------------------------


def _cookie(user) -> str:  # type: ignore[no-untyped-def]
    c = Client()
    c.login(username=user.username, password=PASSWORD)
    return c.cookies["sessionid"].value


async def _socket(path: str, user) -> WebsocketCommunicator:  # type: ignore[no-untyped-def]
    headers = [(b"origin", b"http://testserver")]
    if user is not None:
        session = await sync_to_async(_cookie)(user)
        headers.append((b"cookie", f"sessionid={session}; django_language=en".encode()))
    return LiveCommunicator(application, path, headers=headers)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("rendered_by", ["the committing request", "the sockets' process"])
async def test_the_campaign_socket_never_carries_secrets_to_a_player(rendered_by):
    """Both ways a socket's copy is rendered: by the request that committed the event, for every page open in its
    process (campaigns.live_announce), or by the sockets' own process when the event was committed elsewhere."""
    from unittest import mock

    world = await sync_to_async(build_world)()
    bob = await _socket(f"/ws/campaigns/{world.campaign.pk}/", world.bob)
    narrator = await _socket(f"/ws/campaigns/{world.campaign.pk}/", world.narrator)
    assert (await bob.connect())[0] and (await narrator.connect())[0]
    committed_elsewhere = mock.patch("campaigns.live_announce.open_pages", return_value=[])
    with committed_elsewhere if rendered_by == "the sockets' process" else contextlib.nullcontext():
        await sync_to_async(campaign_services.event_append)(
            campaign=world.campaign,
            kind="note",
            payload={"text": NARRATOR_SECRET},
            actor=world.narrator,
            visibility=Visibility.NARRATORS,
        )
        await sync_to_async(campaign_services.note_write)(
            membership=await sync_to_async(membership)(world.campaign, world.alice), text=PRIVATE_NOTE, private=True
        )
    assert NARRATOR_SECRET in await narrator.receive_from(timeout=5)
    assert PRIVATE_NOTE in await narrator.receive_from(timeout=5)
    assert await bob.receive_nothing(timeout=0.5)
    await bob.disconnect()
    await narrator.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_players_socket_watching_sheets_never_carries_narrator_notes_or_npc_secrets():
    """The sheet page watches its character (``?watch=character:<pk>``) and gets the whole sheet live,
    rendered for the player: never the narrator's notes on a PC, never an NPC sheet asked for by hand."""
    from characters.services.sheet import character_update, trait_set

    world = await sync_to_async(build_world)()
    path = f"/ws/campaigns/{world.campaign.pk}/?watch=character:{world.alice_pc.pk}&watch=character:{world.npc.pk}"
    bob = await _socket(path, world.bob)
    narrator = await _socket(path, world.narrator)
    assert (await bob.connect())[0] and (await narrator.connect())[0]
    for character in (world.alice_pc, world.npc):
        await sync_to_async(character_update)(
            character=character, actor=world.narrator, data={"narrator_notes": NARRATOR_SECRET},
            expected_version=character.version,
        )  # fmt: skip
        await sync_to_async(trait_set)(character=character, actor=world.narrator, code="combat", rank=5)
    seen_by_bob = [await bob.receive_from(timeout=5) for _ in range(2)]
    assert await bob.receive_nothing(timeout=0.5)
    assert all('id="sheet"' in html for html in seen_by_bob)
    assert not any(NARRATOR_SECRET in html or NPC_SECRET in html for html in seen_by_bob)
    seen_by_narrator = [await narrator.receive_from(timeout=5) for _ in range(4)]
    assert any(NARRATOR_SECRET in html for html in seen_by_narrator)
    assert any(NPC_SECRET in html for html in seen_by_narrator)
    await bob.disconnect()
    await narrator.disconnect()


SOCKETS = {
    "ws/campaigns/<id:campaign_id>/": "members of the campaign",
    "ws/tragic/games/<id:game_id>/": "people seated at the game",
    "ws/frag/<id:game_id>/": "people seated at the game",
}


def test_every_socket_route_is_classified():
    """A new WebSocket route must be added here and to the test below (strangers and anonymous refused)."""
    from config.routing import websocket_urlpatterns

    assert sorted(str(route.pattern) for route in websocket_urlpatterns) == sorted(SOCKETS)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_outsiders_and_anonymous_cannot_open_any_socket():
    world = await sync_to_async(build_world)()
    paths = [
        f"/ws/campaigns/{world.campaign.pk}/",
        f"/ws/tragic/games/{world.tragic.pk}/",
        f"/ws/frag/{world.frag.pk}/",
    ]
    for user in (None, world.stranger):
        for path in paths:
            communicator = await _socket(path, user)
            connected, _ = await communicator.connect()
            assert not connected, (path, user)
            await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_frag_socket_never_carries_the_other_hand():
    world = await sync_to_async(build_world)()
    bob = await _socket(f"/ws/frag/{world.frag.pk}/", world.bob)
    assert (await bob.connect())[0]
    from frag.models import Game
    from frag.services import _broadcast_on_commit

    game = await sync_to_async(Game.objects.get)(pk=world.frag.pk)
    await sync_to_async(lambda: _broadcast_on_commit(game))()
    html = await bob.receive_from(timeout=5)
    hidden = await sync_to_async(_frag_hidden)(world, 1)
    assert hidden and 'id="frag-hand"' in html
    for text in hidden:
        assert text not in html
    await bob.disconnect()
