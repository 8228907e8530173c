"""Live updates (frag/consumers.py on campaigns.live_boards): each seated person's socket receives the table as
their own seat sees it, through a live push and through a catch-up; the bots' turns are played out before the
table as it is now; strangers are refused; a move stands when the broadcast fails."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from config.asgi import application
from frag import services
from frag.engine import State
from frag.models import Game
from frag.selectors.naming import card_name
from tests.campaigns.live_client import LiveCommunicator
from tests.campaigns.test_live import session_cookie
from tests.frag.factories import UserFactory, game_with

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def connect(user, game_id: int, after: int | None = None) -> tuple[LiveCommunicator, bool]:  # type: ignore[no-untyped-def]
    """A page showing version ``after`` (by default the game's current one: the connection brings nothing)."""
    cookie = await sync_to_async(session_cookie)(user) + "; django_language=en"  # the language card_name reads
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    if after is None:
        after = await sync_to_async(lambda: Game.objects.get(pk=game_id).version)()
    communicator = LiveCommunicator(application, f"/ws/frag/{game_id}/?after={after}", headers=headers)
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
    # A socket shows the newest version it hears of: paced too fast for a loaded machine, the bots' turns are all
    # played before the first render and only the table as it is now arrives (which is right, but not this test).
    settings.FRAG_LIVE_PACE = 0.3
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


def secrets_for(game_id: int, seat: int) -> list[str]:
    """What ``seat`` may not know: the other people's cards in hand it does not hold itself, the next cards of
    every deck (their order), and the seed."""
    game = Game.objects.get(pk=game_id)
    state = State.from_json(game.snapshot)
    own = {card_name(state.card(u)) for u in state.fighters[seat].hand}
    hidden = {card_name(state.card(u)) for f, fighter in enumerate(state.fighters) if f != seat for u in fighter.hand}
    hidden |= {card_name(state.card(u)) for pile in state.decks.values() for u in pile[-2:]}
    names = sorted(hidden - own) + [str(game.seed)]
    assert len(names) > 1, "the test must look for something"
    return names


async def test_a_catch_up_brings_the_table_as_the_seat_sees_it_and_no_other_hand() -> None:
    alice, bruno = await sync_to_async(UserFactory)(), await sync_to_async(UserFactory)()
    game = await sync_to_async(game_with)(alice, others=[bruno], bots=1, seed=918_273_645_501)
    for user, seat in ((alice, 0), (bruno, 1)):
        socket, connected = await connect(user, game.pk, after=0)
        assert connected
        frame = await socket.receive_json_frame(timeout=5)
        assert frame["t"] == "at" and frame["p"] == game.version
        [[version, html]] = frame["missed"]
        assert version == game.version and 'id="frag-table" hx-swap-oob="true"' in html
        for name in await sync_to_async(secrets_for)(game.pk, seat):
            assert name not in html, f"seat {seat}'s catch-up named {name}"
        await socket.disconnect()


async def test_a_live_push_names_no_card_of_another_hand_nor_the_deck_order() -> None:
    alice, bruno = await sync_to_async(UserFactory)(), await sync_to_async(UserFactory)()
    game = await sync_to_async(game_with)(alice, others=[bruno], bots=0, seed=918_273_645_501)
    sockets = {0: (await connect(alice, game.pk))[0], 1: (await connect(bruno, game.pk))[0]}
    for socket in sockets.values():
        assert (await socket.receive_json_frame())["missed"] == []
    state = State.from_json(game.snapshot)
    seat = state.current_players()[0]
    await sync_to_async(services.game_act)(
        game=game, user=(alice, bruno)[seat], action=state.legal_actions(seat)[0], expected_version=game.version
    )
    for seat, socket in sockets.items():
        frame = await socket.receive_json_frame(timeout=5)
        assert frame["t"] == "ev" and frame["p"] == game.version + 1
        for name in await sync_to_async(secrets_for)(game.pk, seat):
            assert name not in frame["html"], f"seat {seat} received {name}"
        await socket.disconnect()


async def test_the_moments_played_out_are_frames_of_the_new_version_then_the_board(settings) -> None:  # type: ignore[no-untyped-def]
    person = await sync_to_async(UserFactory)()
    game = await sync_to_async(game_with)(person, bots=2)
    socket, _connected = await connect(person, game.pk)
    await socket.receive_json_frame()
    while True:  # placement, then the movement roll: the bots play their turns in between
        state = State.from_json(game.snapshot)
        await sync_to_async(services.game_act)(
            game=game, user=person, action=state.legal_actions(0)[0], expected_version=game.version
        )
        game = await sync_to_async(Game.objects.get)(pk=game.pk)
        frames = [await socket.receive_json_frame(timeout=5)]
        while frames[-1]["t"] == "frame":
            frames.append(await socket.receive_json_frame(timeout=5))
        assert frames[-1]["t"] == "ev" and {f["p"] for f in frames} == {game.version}
        if len(frames) > 1:
            break


async def test_a_tap_stands_when_the_broadcast_fails_and_the_page_catches_up(monkeypatch, settings, caplog) -> None:  # type: ignore[no-untyped-def]
    import json
    import logging

    from django.test import Client
    from django.urls import reverse

    from campaigns.live import broadcast_health
    from frag.models import Step
    from tests.campaigns.test_live_resilience import BrokenLayer

    settings.LIVE_PING_SECONDS = 0.5
    alice, bruno = await sync_to_async(UserFactory)(), await sync_to_async(UserFactory)()
    game = await sync_to_async(game_with)(alice, others=[bruno], bots=0)
    state = State.from_json(game.snapshot)
    seat = state.current_players()[0]
    actor, watcher = (alice, bruno)[seat], (alice, bruno)[1 - seat]
    socket, _connected = await connect(watcher, game.pk)
    await socket.receive_json_frame()
    monkeypatch.setattr("campaigns.live.get_channel_layer", lambda: BrokenLayer())
    broadcast_health.failing = False

    def tap() -> tuple[int, int]:
        client = Client()
        client.force_login(actor)
        action = json.dumps(state.legal_actions(seat)[0])
        answer = client.post(
            reverse("frag:act", args=[game.pk]), {"action": action, "version": game.version}, HTTP_HX_REQUEST="true"
        )
        return answer.status_code, Step.objects.filter(game=game, number__gte=1).count()

    with caplog.at_level(logging.WARNING, logger="campaigns.live"):
        status, steps = await sync_to_async(tap)()
    broadcast_health.failing = False
    assert status == 200 and steps == 1, "answered with success, applied once"
    assert len([r for r in caplog.records if r.name == "campaigns.live"]) == 1
    frame = await socket.receive_json_frame(timeout=3)
    assert frame["t"] == "ev" and frame["p"] == game.version + 1
    await socket.disconnect()
