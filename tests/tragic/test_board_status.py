"""The status line says whose turn it is and who must act now, and what for; the stack names targets."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.campaigns.factories import PASSWORD
from tests.tragic.helpers import give, turn_of
from tests.tragic.test_web import duel, english
from tragic import selectors, services
from tragic.models import Game
from tragic.presenters import card_name
from tragic.services import load_state

pytestmark = pytest.mark.django_db


def status_of(client, game: Game, user) -> str:  # type: ignore[no-untyped-def]
    client.login(username=user.username, password=PASSWORD)
    english(client)
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    return " ".join(page.split('id="tragic-status">')[1].split("</p>")[0].split())


def test_the_status_line_names_whose_turn_it_is_and_the_player_to_act(client):
    game, alice, bob = duel(seed=7)  # Alice starts with a Coup de poing
    state = load_state(game)
    assert state.active == 0
    assert status_of(client, game, alice).startswith(f"Turn {state.turn} of {alice.username}, main phase.")
    assert "<strong>Your move.</strong>" in status_of(client, game, alice)
    assert f"Waiting for {alice.username}." in status_of(client, game, bob)

    punch = next(
        a for a in state.legal_actions(0) if a["kind"] == "play" and state.cards[a["card"]].cid == "coup-de-poing-1"
    )
    game = services.game_act(game=game, user=alice, action=punch, expected_version=game.version)
    # Still Alice's turn, but Bob is the one to act: both lines say so.
    mine = status_of(client, game, bob)
    assert mine.startswith(f"Turn {state.turn} of {alice.username}, main phase.")
    assert "Your move: react or let it resolve." in mine
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    assert f"{alice.username} acts: react now or let it resolve" in page
    theirs = status_of(client, game, alice)
    assert f"Waiting for {bob.username}." in theirs and "Your move" not in theirs
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    stack = page.split('id="tragic-stack"')[1].split("</ol>")[0]
    assert f"→ {bob.username}" in stack


def test_the_defender_is_told_to_choose_blockers(client):
    game, alice, bob = duel()
    state = turn_of(load_state(game), 0)
    brute = give(state, 0, "brute-super-mutante-2", "play")
    give(state, 1, "milicien-1", "play")
    state.apply({"kind": "ally_attack", "player": 0, "allies": [brute], "target": {"player": 1}})
    state.apply({"kind": "pass", "player": 1})
    Game.objects.filter(pk=game.pk).update(snapshot=state.to_json())
    game.refresh_from_db()
    assert "Your move: choose your blockers." in status_of(client, game, bob)


def test_setup_says_setup_and_the_board_shows_what_just_happened(client):
    game, alice, bob = duel()
    client.login(username=alice.username, password=PASSWORD)
    english(client)
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    recent = page.split('id="tragic-recent"')[1].split("</section>")[0]
    assert "Just now" in recent and recent.count("<li>") == 4
    game = services.game_create(user=alice, deck_ref="ready:acier-et-plomb", opponent="invite", seed=2)
    game = services.game_join(token=game.invite_token, user=bob, deck_ref="ready:la-bande-des-terres-desolees")
    assert status_of(client, game, alice).startswith("Setup: choosing Traits.")


def test_a_hidden_choice_is_confirmed_to_its_player_and_shown_face_down_to_the_others(client):
    from tests.tragic.test_cancel import stalled
    from tragic.presenters import card_name

    game, alice, bob = stalled()
    client.login(username=alice.username, password=PASSWORD)
    english(client)
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    chosen = page.split('id="tragic-chosen">')[1].split("</p>")[0]
    assert chosen.startswith("Your choice is made, face down:")
    assert all(card_name(c) in chosen for c in ("medecine-1", "troc-1", "science-1"))
    assert "Still choosing." in page
    client.login(username=bob.username, password=PASSWORD)
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    assert "Compétences chosen, face down." in page and 'id="tragic-chosen"' not in page


def test_the_board_log_names_the_stolen_card_to_the_thief_and_the_victim_only():
    """FAQ 13's theft: the others (here a spectator, as in a replay) learn how many cards, not which."""
    game, _alice, _bob = duel()
    stolen = "stimpak-1"
    game.log.append({"t": "stole", "player": 0, "victim": 1, "count": 1, "cards": [stolen], "private": [0, 1]})
    Game.objects.filter(pk=game.pk).update(log=game.log)
    game.refresh_from_db()
    with translation.override("en"):
        for seat in game.seats.all():
            assert any(card_name(stolen) in line for line in selectors.board(game, seat)["log"])
        spectator = selectors.board(game, None)["log"]
    assert any("steals 1 card from" in line for line in spectator)
    assert not any(card_name(stolen) in line for line in spectator)
