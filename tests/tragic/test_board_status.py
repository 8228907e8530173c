"""The status line says whose turn it is and who must act now, and what for; the stack names targets."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tests.campaigns.factories import PASSWORD
from tests.tragic.helpers import equip, give, pass_all, turn_of
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
    pass_all(state)
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


def _store(game: Game, state) -> Game:  # type: ignore[no-untyped-def]
    Game.objects.filter(pk=game.pk).update(snapshot=state.to_json())
    game.refresh_from_db()
    return game


def test_the_board_shows_both_players_armour_by_damage_type(client):
    """« Suivre l'évolution de son Armure … il est tout à fait possible de s'aider d'une feuille de papier »
    (000, V.6): the board is that sheet, for every player."""
    game, alice, bob = duel()
    state = turn_of(load_state(game), 0)
    equip(state, 1, "casque-de-la-confrerie-2")
    game = _store(game, state)
    client.login(username=alice.username, password=PASSWORD)
    english(client)
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    armour = [" ".join(part.split("</p>")[0].split()) for part in page.split('class="tragic-armour">')[1:]]
    assert len(armour) == 2  # the opponent's and mine
    points = state.armour(1)
    assert f"Armour: {points['generic']} all damage" in armour[0]
    assert armour[1] == "Armour: none"


def test_the_turn_number_is_the_players_own_as_in_the_log(client):
    """« Tour : Un tour se termine lorsque qu'un joueur termine son tour » — the board and the log count
    the same turns: Alice's second turn reads « Turn 2 of Alice » on both."""
    game, alice, bob = duel(seed=7)
    for user in (alice, bob):
        state = load_state(game)
        seat = 0 if user == alice else 1
        while state.current_players() == [seat] and state.phase in ("upkeep", "main"):
            end = next(a for a in state.legal_actions(seat) if a["kind"] in ("end_turn", "end_upkeep", "upkeep"))
            game = services.game_act(game=game, user=user, action=end, expected_version=game.version)
            state = load_state(game)
            if state.active != seat:
                break
    state = load_state(game)
    active = alice if state.active == 0 else bob
    number = state.players[state.active].turns_played
    assert number == 2 and state.turn == 3
    assert status_of(client, game, alice).startswith(f"Turn {number} of {active.username}")
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    assert f"Turn {number} of {active.username}." in page.split('id="tragic-log"')[1]


def test_two_copies_of_a_target_get_distinct_labels(client):
    game, alice, bob = duel()
    state = turn_of(load_state(game), 0)
    brute = give(state, 0, "brute-super-mutante-2", "play")
    give(state, 1, "milicien-1", "play")
    give(state, 1, "milicien-1", "play")
    game = _store(game, state)
    client.login(username=alice.username, password=PASSWORD)
    english(client)
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    labels = [" ".join(b.split("</button>")[0].split()) for b in page.split('<button type="submit">')[1:]]
    attacks = [label for label in labels if label.startswith("Attack") and f" of {bob.username}" in label]
    assert len(attacks) == 2 and len(set(attacks)) == 2, attacks
    assert brute in state.zone(0, "play")


def test_the_stop_switch_is_a_players_own_setting(client):
    game, alice, bob = duel()
    game = services.game_act(
        game=game, user=bob, action={"kind": "set_stop", "stop": False}, expected_version=game.version
    )
    assert load_state(game).players[1].stop is False
    client.login(username=bob.username, password=PASSWORD)
    english(client)
    page = client.get(reverse("tragic:game", args=[game.pk])).content.decode()
    assert "Stop me whenever I can respond" in page.split('id="tragic-stop"')[1]
