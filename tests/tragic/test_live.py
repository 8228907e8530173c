"""The live TRAGIC board (tragic/consumers.py on campaigns.live_boards): each socket receives its own seat's board
at the game's version, through a live push and through a catch-up, never the other seat's hand, the deck order
or the seed; a board is rendered once per seat and language, whatever the number of sockets; a page that is
behind gets the current board; a move stands when the broadcast fails, and the page catches up."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from campaigns.live import broadcast_health
from campaigns.live_boards import forget_boards, kept_board
from config.asgi import application
from tests.campaigns.factories import PASSWORD, UserFactory
from tests.campaigns.live_client import LiveCommunicator
from tests.campaigns.test_live import session_cookie
from tests.campaigns.test_live_resilience import BrokenLayer
from tragic import services
from tragic.engine.card_files import default_pool
from tragic.models import Game
from tragic.services import game_group, load_state

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
STEEL, GANG = "ready:acier-et-plomb", "ready:la-bande-des-terres-desolees"
SKILLS = ["medecine-1", "troc-1", "science-1"]
SEED = 918_273_645_501


def duel() -> tuple[Game, object, object]:
    """Two people past the setup, Alice (seat 0) first."""
    alice, bob = UserFactory(), UserFactory()
    game = services.game_create(user=alice, deck_ref=STEEL, opponent="invite", seed=SEED, reaction_seconds=300)
    game = services.game_join(token=game.invite_token, user=bob, deck_ref=GANG)
    for kind, field, value in (("choose_traits", "traits", []), ("choose_skills", "skills", SKILLS)):
        for user in (alice, bob):
            game = services.game_act(
                game=game, user=user, action={"kind": kind, field: value}, expected_version=game.version
            )
    return game, alice, bob


def secrets_of_the_other(game: Game, seat: int) -> list[str]:
    """What the seat may not know: the other hand's cards that nothing it may see shows, the next cards of both
    libraries (their order), and the seed."""
    state = load_state(game)
    pool = default_pool()
    visible = {
        state.cards[u].cid
        for p in state.players
        for z in ("play", "discard", "equipment", "special", "combat")
        for u in p.zones[z]
    }
    visible |= {state.cards[u].cid for u in state.players[seat].zones["hand"]}
    hidden = list(state.players[1 - seat].zones["hand"])
    hidden += [u for p in state.players for u in p.zones["library"][-3:]]
    names = [str(SEED)]
    for uid in hidden:
        cid = state.cards[uid].cid
        if cid not in visible:  # as the board names a card (in English: the sockets' language)
            names.append(f"{pool[cid].name_en} – {pool[cid].level}")
    assert len(names) > 1, "the test must look for something"
    return names


async def open_board(user, game_id: int, *, after: int | None = None, csrf: str = "", lang: str = "en"):  # type: ignore[no-untyped-def]
    cookie = await sync_to_async(session_cookie)(user)
    cookie += f"; django_language={lang}" + (f"; csrftoken={csrf}" if csrf else "")
    query = "" if after is None else f"?after={after}"
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    socket = LiveCommunicator(application, f"/ws/tragic/games/{game_id}/{query}", headers=headers)
    connected, _code = await socket.connect()
    assert connected
    return socket


async def play_end_turn(game: Game, user) -> Game:  # type: ignore[no-untyped-def]
    return await sync_to_async(services.game_act)(
        game=game, user=user, action={"kind": "end_turn"}, expected_version=game.version
    )


async def test_each_seat_gets_its_own_board_live_and_on_catch_up_never_the_other_hand() -> None:
    game, alice, bob = await sync_to_async(duel)()
    sockets = {0: await open_board(alice, game.pk, after=game.version), 1: await open_board(bob, game.pk, after=0)}
    # Bob's page is behind (it says version 0): the connection brings his current board.
    caught_up = await sockets[1].receive_json_frame()
    assert caught_up["t"] == "at" and caught_up["p"] == game.version
    [[version, html]] = caught_up["missed"]
    assert version == game.version and 'id="board" hx-swap-oob="true"' in html
    for name in await sync_to_async(secrets_of_the_other)(game, 1):
        assert name not in html, f"a catch-up leaked {name}"
    # Alice's page is current: nothing to send.
    current = await sockets[0].receive_json_frame()
    assert current == {"t": "at", "p": game.version, "missed": [], "ping": django_settings.LIVE_PING_SECONDS}

    game = await play_end_turn(game, alice)
    for seat, socket in sockets.items():
        frame = await socket.receive_json_frame(timeout=5)
        assert frame["t"] == "ev" and frame["p"] == game.version and frame["q"] == game.version - 1
        assert f'data-version="{game.version}"' in frame["html"]
        for name in await sync_to_async(secrets_of_the_other)(game, seat):
            assert name not in frame["html"], f"seat {seat} received {name}"
        await socket.disconnect()


async def test_a_board_is_rendered_once_per_seat_and_language_and_each_page_keeps_its_csrf_token() -> None:
    forget_boards()
    game, alice, bob = await sync_to_async(duel)()
    tokens = ["a" * 32, "b" * 32, "c" * 32]
    alices = [await open_board(alice, game.pk, after=game.version, csrf=token) for token in tokens]
    french = await open_board(alice, game.pk, after=game.version, lang="fr")
    bobs = [await open_board(bob, game.pk, after=game.version) for _ in range(2)]
    everyone = [*alices, french, *bobs]
    for socket in everyone:
        assert (await socket.receive_json_frame())["missed"] == []
    game = await play_end_turn(game, alice)
    boards = [(await socket.receive_json_frame(timeout=5))["html"] for socket in everyone]
    rendering = kept_board("tragic", game.pk)
    assert rendering is not None and rendering.version == game.version
    assert rendering.renders == 3, "Alice in English, Alice in French, Bob: three boards for six sockets"
    assert boards[4] == boards[5], "two pages of one seat get the same copy"
    assert "Your hand" in boards[0] and "Votre main" in boards[3]
    for token, html in zip(tokens, boards[:3], strict=True):
        assert all(other not in html for other in tokens if other != token)
    masked = {html.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0] for html in boards[:3]}
    assert len(masked) == 3, "each page's forms carry that page's own CSRF token"
    for socket in everyone:
        await socket.disconnect()


async def test_an_older_or_repeated_push_is_dropped_and_a_resume_brings_the_current_board() -> None:
    game, alice, _bob = await sync_to_async(duel)()
    socket = await open_board(alice, game.pk, after=game.version)
    await socket.receive_json_frame()
    old = game.version
    game = await play_end_turn(game, alice)
    assert (await socket.receive_json_frame(timeout=5))["p"] == game.version
    layer = get_channel_layer()
    for version in (old, game.version):  # late or repeated announcements
        await layer.group_send(game_group(game.pk), {"type": "game.updated", "version": version})
    assert await socket.receive_nothing(timeout=0.3)
    # A page back in the foreground says it shows the old version: it gets the board as it is now.
    await socket.send_to(text_data=json.dumps({"resume": old}))
    frame = await socket.receive_json_frame(timeout=5)
    assert frame["t"] == "at" and frame["p"] == game.version and frame["missed"][0][0] == game.version
    await socket.send_to(text_data=json.dumps({"resume": game.version}))
    assert (await socket.receive_json_frame(timeout=5))["missed"] == []
    await socket.disconnect()


async def test_strangers_cannot_open_the_game_socket() -> None:
    game, _alice, _bob = await sync_to_async(duel)()
    cookie = await sync_to_async(session_cookie)(await sync_to_async(UserFactory)())
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    socket = LiveCommunicator(application, f"/ws/tragic/games/{game.pk}/?after=0", headers=headers)
    connected, _code = await socket.connect()
    assert not connected


async def test_a_socket_opened_while_the_channel_layer_is_down_is_told_to_try_again_later(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from tragic.consumers import GameConsumer

    game, alice, _bob = await sync_to_async(duel)()
    original = GameConsumer.connect

    async def connect_with_broken_layer(self):  # type: ignore[no-untyped-def]
        self.channel_layer = BrokenLayer()
        await original(self)

    monkeypatch.setattr(GameConsumer, "connect", connect_with_broken_layer)
    socket = await open_board(alice, game.pk)
    assert await socket.receive_output(timeout=2) == {"type": "websocket.close", "code": 1013}


async def test_a_move_stands_when_the_broadcast_fails_and_the_page_catches_up_at_the_next_ping(
    monkeypatch, settings, caplog
) -> None:  # type: ignore[no-untyped-def]
    """The move commits before the broadcast; the failure is logged once, the answer is the new board (no 500
    that would make the player tap again), the move is applied once, and the open page, which heard nothing,
    gets the board with its next ping."""
    settings.LIVE_PING_SECONDS = 0.5
    game, alice, bob = await sync_to_async(duel)()
    socket = await open_board(bob, game.pk, after=game.version)
    await socket.receive_json_frame()
    monkeypatch.setattr("campaigns.live.get_channel_layer", lambda: BrokenLayer())
    broadcast_health.failing = False

    def tap() -> tuple[int, int, int]:
        client = Client()
        client.login(username=alice.username, password=PASSWORD)
        url = reverse("tragic:game_act", args=[game.pk])
        action = json.dumps({"kind": "end_turn"})
        answer = client.post(url, {"action": action, "version": game.version}, HTTP_HX_REQUEST="true")
        again = client.post(url, {"action": action, "version": game.version}, HTTP_HX_REQUEST="true")
        return answer.status_code, again.status_code, len(Game.objects.get(pk=game.pk).actions)

    with caplog.at_level(logging.WARNING, logger="campaigns.live"):
        status, again, actions = await sync_to_async(tap)()
    broadcast_health.failing = False
    assert status == 200, "the move is answered with success"
    assert again == 409, "the same tap again is stale, never applied twice"
    assert actions == len(game.actions) + 1
    assert len([r for r in caplog.records if r.name == "campaigns.live"]) == 1, "one outage, one log line"
    frame = await socket.receive_json_frame(timeout=3)
    assert frame["t"] == "ev" and frame["p"] == game.version + 1 and "hx-swap-oob" in frame["html"]
    await socket.disconnect()


async def test_an_idle_board_socket_stays_open_through_pings_and_receives_the_next_move(settings) -> None:  # type: ignore[no-untyped-def]
    """Idle longer than the ping interval and than channels-redis's 5 s blocking receive (the CI's Redis pass):
    still open, pinged, and the next move arrives."""
    settings.LIVE_PING_SECONDS = 3
    game, alice, bob = await sync_to_async(duel)()
    socket = await open_board(bob, game.pk, after=game.version)
    await asyncio.sleep(7)
    game = await play_end_turn(game, alice)
    frames = [await socket.receive_json_frame(timeout=5)]
    while frames[-1]["t"] != "ev":
        frames.append(await socket.receive_json_frame(timeout=5))
    assert [f["t"] for f in frames] == ["at", "ping", "ping", "ev"]
    assert frames[-1]["p"] == game.version
    await socket.disconnect()


async def test_a_seat_taken_in_a_three_player_game_reaches_the_waiting_pages_with_their_own_invitation_link() -> None:
    alice, bob = await sync_to_async(UserFactory)(), await sync_to_async(UserFactory)()
    game = await sync_to_async(services.game_create)(user=alice, deck_ref=STEEL, opponent="invite", players=3)
    socket = await open_board(alice, game.pk, after=game.version)
    await socket.receive_json_frame()
    joined = await sync_to_async(services.game_join)(token=game.invite_token, user=bob, deck_ref=GANG)
    frame = await socket.receive_json_frame(timeout=5)
    assert frame["t"] == "ev" and frame["p"] == joined.version == game.version + 1
    assert "2 of 3 seats taken" in frame["html"]
    assert f'value="http://127.0.0.1/tragic/join/{game.invite_token}/"' in frame["html"]
    await socket.disconnect()
