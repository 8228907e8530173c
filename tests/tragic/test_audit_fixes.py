"""The rule items the audit of issue 15 found wrong, each checked against the text it quotes."""

from __future__ import annotations

import pytest

from tests.tragic.helpers import (
    QUIET_SKILLS,
    Dice,
    at_mulligan,
    clear_hands,
    config,
    give,
    pass_all,
    set_points,
    started,
    turn_of,
)
from tragic.engine import IllegalAction, new_game


def test_excess_damage_of_an_ally_attacking_an_ally_reaches_its_owner():
    """EXCÈS DE DÉGATS: « Un Allié ou une Attaque avec Excès de Dégats infligera le surplus de dégat au
    joueur subissant l'attaque » (000, VII): Griffemort apprivoisé 7/6 on a Milicien 2/2 → 5 to its owner."""
    state = turn_of(started(), 0)
    deathclaw = give(state, 0, "griffemort-apprivoise-3", "play")
    milicien = give(state, 1, "milicien-1", "play")
    life = state.players[1].life
    state.apply({"kind": "ally_attack", "player": 0, "allies": [deathclaw], "target": {"card": milicien}})
    while state.priority:
        pass_all(state)
    assert state.cards[milicien].zone == "discard"
    assert state.players[1].life == life - 5


@pytest.mark.parametrize(
    ("source", "zone", "pay"),
    [("etranger-mysterieux-3", "hand", {"L": 2, "any": 2}), ("explosifs-1", "skill", {"S": 1, "P": 1})],
)
def test_discretion_protects_from_damage_effects(source, zone, pay):
    """DISCRÉTION: the player « n'est pas attaquable directement (et donc immunisé aux Réactions qui lui
    ferait subir des dégats) » (000, VII) — nor to an Action or a Compétence that deals damage."""
    state = turn_of(started(), 0)
    state.players[1].stealth = True
    for attribute in "SPL":
        set_points(state, 0, attribute, 2)
    uid = give(state, 0, source, zone)
    life = state.players[1].life
    kind = "play" if zone == "hand" else "activate"
    payment = {a: n for a, n in pay.items() if a != "any"}
    if "any" in pay:
        payment["S"] = payment.get("S", 0) + pay["any"]
    state.apply({"kind": kind, "player": 0, "card": uid, "pay": payment})
    while state.priority:
        pass_all(state)
    assert state.players[1].life == life


def test_the_timer_counts_radiation_damage_once():
    """« Le vainqueur est celui ayant le moins de blessure » (000, V.10.c): 5 generic against 5 radiation
    is a draw; the track's lowered maximum is not a wound."""
    state = turn_of(started(), 0)
    state.lose_life(0, 5)
    state.lose_life(1, 5, radiation=True)
    assert state.players[0].damage_taken == state.players[1].damage_taken == 5
    state.timer = True
    state.finish_on_timer()
    assert state.over and state.winner() is None


def test_a_confrerie_blocker_deals_its_plus_one_to_an_enemy():
    """« Les ennemis de la Confrérie subissent 1 Point de Dégat supplémentaire » (000, VII, Confrérie de
    l'Acier): a Chevalier 3/2 blocking a ghoul deals it 4, not only when it attacks."""
    sturdy_ghoul = {
        "id": "goule-robuste-1",
        "name": "Goule robuste",
        "name_en": "Sturdy ghoul",
        "type": "ally",
        "level": 1,
        "attribute": "E",
        "cost": {"E": 1},
        "tags": ["ghoul"],
        "power": 1,
        "life": 9,
        "text": "Allié 1/9.",
        "text_en": "Ally 1/9.",
    }
    state = turn_of(started(extra_cards=[sturdy_ghoul]), 0)
    ghoul = give(state, 0, "goule-robuste-1", "play")
    knight = give(state, 1, "chevalier-de-la-confrerie-1", "play")
    state.apply({"kind": "ally_attack", "player": 0, "allies": [ghoul], "target": {"player": 1}})
    while state.priority:
        pass_all(state)
    events = state.apply({"kind": "block", "player": 1, "blockers": [knight], "split": [1]})
    hurt = [e for e in events if e["t"] == "ally_hurt" and e["card"] == "goule-robuste-1"]
    assert [e["amount"] for e in hurt] == [4]


def test_london_mulligan_declarations_come_before_anyone_mulligans():
    """« le premier joueur déclare s'il va prendre un mulligan. Ensuite, chaque autre joueur dans l'ordre
    du tour fait la même chose. Une fois que chaque joueur a fait une déclaration, tous les joueurs qui ont
    décidé de prendre des mulligans le font en même temps » (001, Pioche initiale, MTG 103.4)."""
    state = new_game(config(), 2)
    for i in (0, 1):
        state.apply({"kind": "choose_traits", "player": i, "traits": ["vous-etes-magique-1"]})
    for i in (0, 1):
        state.apply({"kind": "choose_skills", "player": i, "skills": ["medecine-1", "troc-1", "science-1"]})
    first = state.first_player
    second = 1 - first
    hand = list(state.players[first].zones["hand"])
    assert state.current_players() == [first]
    state.apply({"kind": "mulligan", "player": first})
    assert state.players[first].zones["hand"] == hand  # declared, not yet taken
    assert state.current_players() == [second]
    state.apply({"kind": "mulligan", "player": second})
    assert state.players[first].mulligans == state.players[second].mulligans == 1  # together
    assert state.current_players() == [first]
    state.apply({"kind": "keep", "player": first, "bottom": state.players[first].zones["hand"][:1]})
    assert state.current_players() == [second] and state.phase == "mulligan"
    state.apply({"kind": "keep", "player": second, "bottom": state.players[second].zones["hand"][:1]})
    assert state.phase in ("upkeep", "main")


def test_an_idle_first_mulligan_round_still_ends_with_one_player():
    state = at_mulligan()
    state.apply({"kind": "mulligan", "player": 0})
    assert state.players[0].mulligans == 1  # alone in the round: taken at once


def test_blocking_with_any_group_of_allies():
    """« plusieurs cartes peuvent défendre, tout comme dans MTG, vous choisissez la répartition des dégats »
    (000, III.6.c): two of three allies may block."""
    state = turn_of(started(), 0)
    set_points(state, 0, "S", 5)
    brute = give(state, 0, "griffemort-apprivoise-3", "play")
    guards = [give(state, 1, "milicien-1", "play") for _ in range(3)]
    state.apply({"kind": "ally_attack", "player": 0, "allies": [brute], "target": {"player": 1}})
    while state.priority:
        pass_all(state)
    groups = {tuple(a["blockers"]) for a in state.legal_actions(1) if a["kind"] == "block"}
    assert (guards[0], guards[2]) in groups and tuple(guards) in groups and () in groups
    state.apply({"kind": "block", "player": 1, "blockers": guards[:2], "split": [4, 3]})
    assert state.cards[guards[2]].zone == "play"


def test_an_opponent_may_interrupt_after_an_ally_is_called():
    """« Pendant sa Phase Principale, un joueur peut se faire Interrompre, l'adversaire peut alors consommer
    des ressources et utiliser des Capacités » (Phase 5); FAQ 16: « cet effet peut être réalisé pendant le
    tour adverse après l'avoir interrompu, et ce, à n'importe quel moment de sa phase de jeu »."""
    state = turn_of(started(skills=[QUIET_SKILLS, ["instinct-1", "troc-1", "science-1"]]), 0)
    clear_hands(state)
    set_points(state, 0, "C", 1)
    milicien = give(state, 0, "milicien-1")
    state.players[1].life -= 10
    state.apply({"kind": "play", "player": 0, "card": milicien, "pay": {"C": 1}})
    assert state.current_players() == [1]
    instinct = next(u for u in state.zone(1, "skill") if state.cards[u].cid == "instinct-1")
    offered = state.legal_actions(1)
    assert {"kind": "pass", "player": 1} in offered
    assert any(a["kind"] == "activate" and a["card"] == instinct for a in offered)
    life = state.players[1].life
    state.apply(next(a for a in offered if a["kind"] == "activate"))
    pass_all(state)
    assert state.players[1].life == life + 2
    assert state.current_players() == [0]  # back to the active player's main phase


def test_a_player_with_no_response_is_never_asked():
    """Automatic passing: « Libre à lui d'utiliser une carte de Réaction » — a player who has none (and no
    capacity usable at any time) is not asked to let it resolve."""
    state = turn_of(started(), 0)
    clear_hands(state)
    punch = give(state, 0, "coup-de-poing-1")
    life = state.players[1].life
    state.rng = Dice([6, 6, 6])
    events = state.apply({"kind": "play", "player": 0, "card": punch, "pay": {"S": 1}, "target": {"player": 1}})
    assert not state.stack and state.current_players() == [0]
    assert not [e for e in events if e["t"] == "passed"]
    assert state.players[1].life < life


def test_stop_only_when_aimed_at():
    """The « stop me when I can respond » setting (as XMage's stops): turned off, the player is still
    asked about an attack aimed at them, not about the opponent's own Action."""
    state = turn_of(started(), 0)
    clear_hands(state)
    set_points(state, 1, "I", 2)
    give(state, 1, "contre-mesure-2")
    set_points(state, 1, "A", 2)
    give(state, 1, "esquive-1")
    state.apply({"kind": "set_stop", "player": 1, "stop": False})
    magazine = give(state, 0, "lecture-de-magazine-1")
    state.apply({"kind": "play", "player": 0, "card": magazine, "pay": {"I": 1}})
    assert not state.stack and state.current_players() == [0]  # could counter it, but is not asked
    punch = give(state, 0, "coup-de-poing-1")
    state.apply({"kind": "play", "player": 0, "card": punch, "pay": {"S": 1}, "target": {"player": 1}})
    assert state.current_players() == [1]  # aimed at them: asked
    with pytest.raises(IllegalAction):
        state.apply({"kind": "set_stop", "player": 1, "stop": "no"})


@pytest.mark.parametrize("part", ["head", "torso", "arms", "legs", "hand"])
def test_ciblage_offers_every_body_part(part):
    """CIBLAGE: « permet de viser une partie du corps de l'adversaire et d'endommager toute pièce d'armure
    qui se trouverait à cet emplacement » (000, VII)."""
    state = turn_of(started(), 0)
    shot = give(state, 0, "tir-ajuste-1")
    offered = [a for a in state.legal_actions(0) if a.get("card") == shot]
    assert {"kind": "play", "player": 0, "card": shot, "pay": {"P": 1}, "target": {"player": 1}, "aim": part} in offered
