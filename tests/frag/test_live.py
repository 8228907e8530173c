"""Live updates: each seated person's socket receives the table as their own seat sees it; strangers are refused."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from frag import services
from frag.engine import State
from frag.selectors.naming import card_name
from tests.campaigns.test_live import session_cookie
from tests.frag.factories import UserFactory, game_with

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connect(user, game_id: int) -> tuple[WebsocketCommunicator, bool]:  # type: ignore[no-untyped-def]
    cookie = await sync_to_async(session_cookie)(user)
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    communicator = WebsocketCommunicator(application, f"/ws/frag/{game_id}/", headers=headers)
    connected, _code = await communicator.connect()
    return communicator, connected


async def test_each_person_receives_the_table_with_their_own_hand_only() -> None:
    alice, bruno = await sync_to_async(UserFactory)(), await sync_to_async(UserFactory)()
    game = await sync_to_async(game_with)(alice, others=[bruno], bots=1)
    alice_socket, ok_a = await connect(alice, game.pk)
    bruno_socket, ok_b = await connect(bruno, game.pk)
    assert ok_a and ok_b
    state = State.from_json(game.snapshot)
    seat = state.current_players()[0]
    actor = alice if seat == 0 else bruno
    await sync_to_async(services.game_act)(
        game=game, user=actor, action=state.legal_actions(seat)[0], expected_version=game.version
    )
    html_a = await alice_socket.receive_from(timeout=5)
    html_b = await bruno_socket.receive_from(timeout=5)
    assert 'id="frag-table" hx-swap-oob="true"' in html_a
    state = State.from_json((await sync_to_async(lambda: type(game).objects.get(pk=game.pk))()).snapshot)
    alice_cards = {card_name(state.card(u)) for u in state.fighters[0].hand}
    bruno_cards = {card_name(state.card(u)) for u in state.fighters[1].hand}
    for name in bruno_cards - alice_cards:
        assert name not in html_a
    for name in alice_cards - bruno_cards:
        assert name not in html_b
    await alice_socket.disconnect()
    await bruno_socket.disconnect()


async def test_a_stranger_cannot_open_the_game_socket() -> None:
    game = await sync_to_async(game_with)(await sync_to_async(UserFactory)())
    _socket, connected = await connect(await sync_to_async(UserFactory)(), game.pk)
    assert not connected


async def test_the_bots_turns_arrive_one_by_one_then_the_table_as_it_is_now(settings) -> None:  # type: ignore[no-untyped-def]
    settings.FRAG_LIVE_PACE = 0.01
    person = await sync_to_async(UserFactory)()
    game = await sync_to_async(game_with)(person, bots=2)

    def to_action_phase() -> None:
        game.refresh_from_db()
        while State.from_json(game.snapshot).phase != "action":
            action = State.from_json(game.snapshot).legal_actions(0)[0]
            services.game_act(game=game, user=person, action=action, expected_version=game.version)
            game.refresh_from_db()

    await sync_to_async(to_action_phase)()
    socket, connected = await connect(person, game.pk)
    assert connected
    await sync_to_async(services.game_act)(
        game=game, user=person, action={"type": "end_turn", "player": 0}, expected_version=game.version
    )
    frames = [await socket.receive_from(timeout=5)]
    while 'data-my-turn="yes"' not in frames[-1] and 'data-phase="over"' not in frames[-1]:
        frames.append(await socket.receive_from(timeout=5))
    assert len(frames) >= 2, "at least one bot turn was shown before the table as it is now"
    assert all('data-my-turn="no"' in frame for frame in frames[:-1])
    await socket.disconnect()
