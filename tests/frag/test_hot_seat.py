"""Hot seat: several seats of one person on one device. A hand is folded, its cards named nowhere on the page
(hand, card buttons, draws in the log), until the seat to act taps « show my hand »; it folds again when the turn
passes. Live pushes render the folded state of the device (its session), and single-person games are unchanged."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.urls import reverse

from config.asgi import application
from frag import services
from frag.engine import State
from frag.engine.base import ACTION
from frag.models import Game
from frag.selectors.choices import names_a_hand_card
from frag.selectors.naming import card_name
from frag.selectors.seats import REVEALED, hand_key, reveal_hand
from tests.campaigns.live_client import LiveCommunicator
from tests.frag.factories import UserFactory, game_with
from tests.page_marks import TOKEN


def hot_seat_game(person) -> Game:  # type: ignore[no-untyped-def]
    """Two seats of one person (Ana, Bea) and a bot."""
    seats = [
        services.SeatSpec(name="Ana", health=2, speed=3, accuracy=2, user=person),
        services.SeatSpec(name="Bea", health=2, speed=3, accuracy=2, user=person),
        services.SeatSpec(name="Bot", health=2, speed=3, accuracy=2, bot="heuristic"),
    ]
    return services.game_create(creator=person, map_name="entrepot", seats=seats, seed=3)


def names(state: State, seat: int) -> set[str]:
    return {card_name(state.card(u)) for u in state.fighters[seat].hand}


def shown(html: str) -> str:
    """The page as it could name a card: without its CSRF tokens, 64 random letters and digits, which now and then
    spell a card's name (« Fog »)."""
    return TOKEN.sub("", html)


def page(client, game: Game) -> str:  # type: ignore[no-untyped-def]
    return shown(client.get(game.get_absolute_url()).content.decode())


@pytest.mark.django_db
def test_before_the_tap_the_page_names_no_card_of_any_hand(client, person) -> None:  # type: ignore[no-untyped-def]
    game = hot_seat_game(person)
    state = State.from_json(game.snapshot)
    assert state.current_players() == [0]
    html = page(client, game)
    assert 'id="frag-pass"' in html and "Pass the device to Ana" in html
    for seat in range(3):
        for name in names(state, seat):
            assert name not in html
    # Non-card actions stay: the placement squares can be tapped.
    assert 'class="target reachable"' in html


@pytest.mark.django_db
def test_the_tap_opens_the_hand_of_the_seat_to_act_only(client, person) -> None:  # type: ignore[no-untyped-def]
    game = hot_seat_game(person)
    state = State.from_json(game.snapshot)
    response = client.post(reverse("frag:reveal", args=[game.pk]), {"seat": "0"}, HTTP_HX_REQUEST="true")
    html = shown(response.content.decode())
    assert response.status_code == 200 and 'id="frag-pass"' not in html
    for name in names(state, 0):
        assert name in html
    for seat in (1, 2):
        for name in names(state, seat) - names(state, 0):
            assert name not in html
    assert all(name in page(client, game) for name in names(state, 0))


@pytest.mark.django_db
def test_a_stale_pass_screen_opens_no_other_hand(client, person) -> None:  # type: ignore[no-untyped-def]
    game = hot_seat_game(person)
    state = State.from_json(game.snapshot)
    response = client.post(reverse("frag:reveal", args=[game.pk]), {"seat": "1"}, HTTP_HX_REQUEST="true")
    html = shown(response.content.decode())
    assert response.status_code == 409
    for seat in range(3):
        for name in names(state, seat):
            assert name not in html
    assert REVEALED not in client.session


@pytest.mark.django_db
def test_the_hand_folds_again_when_the_turn_passes_to_the_other_seat(client, person) -> None:  # type: ignore[no-untyped-def]
    game = hot_seat_game(person)
    client.post(reverse("frag:reveal", args=[game.pk]), {"seat": "0"})
    state = State.from_json(game.snapshot)
    action = state.legal_actions(0)[0]
    client.post(reverse("frag:act", args=[game.pk]), {"choice": "0", "version": game.version})
    game.refresh_from_db()
    state = State.from_json(game.snapshot)
    assert action["type"] == "place" and state.current_players() == [1]
    html = page(client, game)
    assert "Pass the device to Bea" in html
    for seat in range(3):
        for name in names(state, seat):
            assert name not in html
    client.post(reverse("frag:reveal", args=[game.pk]), {"seat": "1"})
    html = page(client, game)
    assert all(name in html for name in names(state, 1))
    assert not any(name in html for name in names(state, 0) - names(state, 1))


def test_folded_buttons_name_no_hand_card_but_keep_the_others() -> None:
    """Card buttons (play, drop, discard, attack with a weapon from the hand) go; move, pistol, end turn stay."""

    class Fighter:
        hand = [7]

    class FakeState:
        fighters = [Fighter()]

    legal = [
        {"type": "play", "player": 0, "card": 7},
        {"type": "drop", "player": 0, "card": 7},
        {"type": "discard", "player": 0, "card": 7},
        {"type": "attack", "player": 0, "target": 1, "weapon": 7},
        {"type": "attack", "player": 0, "target": 1, "weapon": "pistol"},
        {"type": "end_turn", "player": 0},
    ]
    hidden = [names_a_hand_card(FakeState(), a) for a in legal]  # type: ignore[arg-type]
    assert hidden == [True, True, True, True, False, False]


@pytest.mark.django_db
def test_a_single_person_game_shows_the_hand_without_a_tap(client, person) -> None:  # type: ignore[no-untyped-def]
    game = game_with(person)
    state = State.from_json(game.snapshot)
    html = page(client, game)
    assert 'id="frag-pass"' not in html and "data-folded" not in html
    assert all(name in html for name in names(state, 0))


def _session_for(user) -> SessionStore:  # type: ignore[no-untyped-def]
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return session


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_live_boards_keep_the_device_s_folded_state() -> None:
    """The socket renders the device's folded state (its session), read afresh for every board it sends: the
    catch-up at connection is folded; after the tap, a catch-up shows the hand of the seat to act, and only it."""
    person = await sync_to_async(UserFactory)()
    game = await sync_to_async(hot_seat_game)(person)
    state = State.from_json(game.snapshot)
    session = await sync_to_async(_session_for)(person)
    cookie = f"{settings.SESSION_COOKIE_NAME}={session.session_key}; django_language=en"
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]
    socket = LiveCommunicator(application, f"/ws/frag/{game.pk}/?after=0", headers=headers)
    connected, _code = await socket.connect()
    assert connected

    html = await socket.receive_from(timeout=5)
    assert 'hx-swap-oob="true"' in html and 'id="frag-pass"' in html
    assert not any(name in html for seat in range(3) for name in names(state, seat))

    def reveal() -> None:  # the device taps the hand open over HTTP, after the socket opened
        reveal_hand(session, game.pk, hand_key(state, 0))
        session.save()

    await sync_to_async(reveal)()
    await socket.send_to(text_data=json.dumps({"resume": 0}))
    html = await socket.receive_from(timeout=5)
    assert all(name in html for name in names(state, 0))
    assert not any(name in html for seat in (1, 2) for name in names(state, seat) - names(state, 0))
    await socket.disconnect()


@pytest.mark.django_db
def test_another_person_at_the_table_cannot_open_a_hot_seat_hand(client) -> None:  # type: ignore[no-untyped-def]
    host, guest = UserFactory(), UserFactory()
    seats = [
        services.SeatSpec(name="Ana", health=2, speed=3, accuracy=2, user=host),
        services.SeatSpec(name="Bea", health=2, speed=3, accuracy=2, user=host),
        services.SeatSpec(name="Gil", health=2, speed=3, accuracy=2, user=guest),
    ]
    game = services.game_create(creator=host, map_name="entrepot", seats=seats, seed=3)
    state = State.from_json(game.snapshot)
    client.force_login(guest)
    client.cookies["django_language"] = "en"
    response = client.post(reverse("frag:reveal", args=[game.pk]), {"seat": "0"}, HTTP_HX_REQUEST="true")
    html = shown(response.content.decode())
    assert response.status_code == 409
    assert not any(name in html for seat in (0, 1) for name in names(state, seat) - names(state, 2))
    # The guest plays from another device: their own hand is never folded.
    assert 'id="frag-pass"' not in page(client, game)


@pytest.mark.django_db
def test_a_frag_accepted_mid_turn_does_not_reopen_the_attacker_s_hand(client, person) -> None:  # type: ignore[no-untyped-def]
    """Ana's hand is open in her turn; Bea, dying, takes the device and accepts the frag; the turn goes back to
    Ana in the same turn number, but the device is still in Bea's hands: Ana's hand stays folded until she taps."""
    game = hot_seat_game(person)
    for _seat in (0, 1):  # Ana and Bea place their fighters
        client.post(reverse("frag:act", args=[game.pk]), {"choice": "0", "version": game.version})
        game.refresh_from_db()
    state = State.from_json(game.snapshot)
    state.phase, state.turn.player = ACTION, 0
    state.fighters[1].hp = 0
    state.pending = {"player": 1, "attacker": 0, "resume": []}
    Game.objects.filter(pk=game.pk).update(snapshot=state.to_json())
    session = client.session
    reveal_hand(session, game.pk, hand_key(state, 0))
    session.save()
    game.refresh_from_db()
    assert "Pass the device to Bea" in page(client, game)
    assert State.from_json(game.snapshot).legal_actions(1)[0]["type"] == "accept_frag"
    client.post(reverse("frag:act", args=[game.pk]), {"choice": "0", "version": game.version})
    game.refresh_from_db()
    state = State.from_json(game.snapshot)
    assert state.current_players() == [0] and state.pending is None
    html = page(client, game)
    assert "Pass the device to Ana" in html
    assert not any(name in html for name in names(state, 0))
