"""TRAGIC: a block naming no defender, a HORDE and its members' factions, two reactions on one attack, a reaction's
other effects (each test quotes its rule)."""

from __future__ import annotations

import pytest

from tests.tragic.helpers import Dice, clear_hands, events_of, give, pass_all, set_points, started, turn_of
from tragic.engine import IllegalAction

NO_CRIT = [6, 6, 6]  # chance dice that make no critical (as in test_keywords.py)


def test_a_block_naming_no_defender_takes_the_blow():
    """« l'adversaire peut choisir comment encaisser les dégats, soit en se protégeant avec un ou plusieurs Alliés,
    soit avec une carte de Réaction » (000, VII): defending is a choice, so a block that names no defender (no
    ``blockers``, no ``split``) is the player taking the blow, not a refused form."""
    state = turn_of(started(), 0)
    clear_hands(state)
    brute = give(state, 0, "brute-super-mutante-2", "play")  # 5/3
    milicien = give(state, 1, "milicien-1", "play")  # 2/2
    life = state.players[1].life
    state.apply({"kind": "ally_attack", "player": 0, "allies": [brute], "target": {"player": 1}})
    pass_all(state)
    assert state.pending["kind"] == "block"
    state.apply({"kind": "block", "player": 1})
    assert state.pending is None
    assert state.players[1].life == life - 5
    assert state.ally_life(milicien) == 2 and state.cards[milicien].zone == "play"


INSTITUTE_HORDE = {
    "id": "horde-de-synthetiques-1",
    "name": "Horde de synthétiques",
    "name_en": "Synth horde",
    "type": "ally",
    "level": 1,
    "attribute": "C",
    "cost": {"C": 1},
    "keywords": {"HORDE": True},
    "faction": "institut",
    "power": 2,
    "life": 3,
    "text": "Allié 2/3. HORDE. Faction : Institut.",
    "text_en": "Ally 2/3. HORDE. Faction: Institut.",
}


def test_a_horde_never_attacks_the_faction_of_any_of_its_members():
    """« Une faction ne peut pas affronter ni infliger de dégat à un Allié adverse de la même Faction » and HORDE
    « force les Alliés la possédant à attaquer tous en même temps la même cible » (000, glossary): a HORDE that
    counts one ally of the Institut attacks together, so it may not aim at an Institut ally; any other ally and
    the player stay open to it."""
    state = turn_of(started(extra_cards=[INSTITUTE_HORDE]), 0)
    clear_hands(state)
    synth_horde = give(state, 0, "horde-de-synthetiques-1", "play")
    protectron = give(state, 0, "protectron-1", "play")  # HORDE, no faction
    synth = give(state, 1, "synthetique-de-l-institut-2", "play")
    milicien = give(state, 1, "milicien-1", "play")
    attacks = [a for a in state.legal_actions(0) if a["kind"] == "ally_attack"]
    assert attacks and all(sorted(a["allies"]) == sorted([synth_horde, protectron]) for a in attacks)
    targets = [a["target"] for a in attacks]
    assert {"card": synth} not in targets
    assert {"card": milicien} in targets and {"player": 1} in targets
    one_by_one = [a["target"] for a in state.ally_attack_choices(0)]
    assert sorted(map(repr, one_by_one)) == sorted(map(repr, targets))
    with pytest.raises(IllegalAction):
        state.apply(
            {"kind": "ally_attack", "player": 0, "allies": [synth_horde, protectron], "target": {"card": synth}}
        )


def test_two_parries_on_one_attack_add_up():
    """« Réduisez de 4 les dégats de l'attaque à laquelle vous réagissez » (Parade) and « Réduisez de 3 … » (Encaisser);
    « la résolution de la « Pile » … se fait du dernier effet lancé au plus ancien » (000, Phase 6): once the first
    reaction has resolved the attack is on top again and may be answered again, and both reductions apply."""
    state = turn_of(started(), 0)
    clear_hands(state)
    set_points(state, 0, "S", 10)
    set_points(state, 1, "S", 1)
    set_points(state, 1, "E", 1)
    parry = give(state, 1, "parade-1")
    take_it = give(state, 1, "encaisser-1")
    punch = give(state, 0, "coup-de-poing-1")
    life = state.players[1].life
    state.rng = Dice(NO_CRIT)
    state.apply({"kind": "play", "player": 0, "card": punch, "pay": {"S": 1}, "target": {"player": 1}})
    state.apply({"kind": "react", "player": 1, "card": parry, "pay": {"S": 1}})
    assert [item["card"] for item in state.stack] == [punch] and state.priority == [1]
    events = state.apply({"kind": "react", "player": 1, "card": take_it, "pay": {"E": 1}})
    events += pass_all(state)
    assert [(e["raw"], e["final"]) for e in events_of(events, "attack")] == [(10, 3)]  # 10 − 4 − 3
    assert state.players[1].life == life - 3


SHIELD_AND_DRAW = {
    "id": "parade-et-pioche-1",
    "name": "Parade et pioche",
    "name_en": "Parry and draw",
    "type": "reaction",
    "level": 1,
    "attribute": "A",
    "cost": {"A": 1},
    "reacts_to": ["attack", "ally_attack"],
    "effects": [{"op": "reduce_damage", "n": 2}, {"op": "draw", "n": 1}],
    "text": "Réagissez à une Attaque. Réduisez de 2 les dégats de l'attaque, puis piochez une carte.",
    "text_en": "React to an Attack. Reduce the damage of the attack by 2, then draw a card.",
}


def test_a_reaction_runs_its_other_effects_too():
    """« Réaction : Carte qui interrompt le tour adverse en répondant à un acte opposé …, puis se rend directement à
    la Défausse une fois les effets et conditions remplies » (000, glossary): a reaction that softens the attack
    and draws a card does both."""
    state = turn_of(started(extra_cards=[SHIELD_AND_DRAW]), 0)
    clear_hands(state)
    set_points(state, 0, "S", 5)
    set_points(state, 1, "A", 1)
    reaction = give(state, 1, "parade-et-pioche-1")
    punch = give(state, 0, "coup-de-poing-1")
    top = state.players[1].zones["library"][-1]
    life = state.players[1].life
    state.rng = Dice(NO_CRIT)
    state.apply({"kind": "play", "player": 0, "card": punch, "pay": {"S": 1}, "target": {"player": 1}})
    state.apply({"kind": "react", "player": 1, "card": reaction, "pay": {"A": 1}})
    pass_all(state)
    assert state.players[1].life == life - 3  # 5 − 2
    assert state.players[1].zones["hand"] == [top]
    assert state.cards[reaction].zone == "discard"
