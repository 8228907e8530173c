"""The rule texts' worked examples, replayed exactly (issue 6, Acceptance)."""

from __future__ import annotations

from tests.tragic.helpers import Dice, equip, events_of, give, pass_all, set_points, started, turn_of
from tragic.engine.damage import base_damage, critical_factor, excess_split, final_damage, raw_damage

ALLY_6_4 = {
    "id": "test-allie-6-4",
    "name": "Allié 6/4",
    "name_en": "Ally 6/4",
    "type": "ally",
    "level": 1,
    "power": 6,
    "life": 4,
    "text": "6/4",
    "text_en": "6/4",
}
COMPANION_4_6 = {
    "id": "test-compagnon-4-6",
    "name": "Compagnon 4/6",
    "name_en": "Companion 4/6",
    "type": "companion",
    "level": 1,
    "power": 4,
    "life": 6,
    "text": "4/6",
    "text_en": "4/6",
}
ALLY_1_3 = {
    "id": "test-allie-1-3",
    "name": "Allié A",
    "name_en": "Ally A",
    "type": "ally",
    "level": 1,
    "power": 1,
    "life": 3,
    "text": "1/3",
    "text_en": "1/3",
}
ALLY_2_1 = {
    "id": "test-allie-2-1",
    "name": "Allié B",
    "name_en": "Ally B",
    "type": "ally",
    "level": 1,
    "power": 2,
    "life": 1,
    "text": "2/1",
    "text_en": "2/1",
}
ALLY_0_3_ARMOUR_1 = {
    "id": "test-allie-0-3",
    "name": "Allié 0/3",
    "name_en": "Ally 0/3",
    "type": "ally",
    "level": 1,
    "power": 0,
    "life": 3,
    "keywords": {"ARMURE": 1},
    "text": "ARMURE x1",
    "text_en": "ARMURE x1",
}
EXCESS_8 = {
    "id": "test-excès-8",
    "name": "Attaque 8",
    "name_en": "Attack 8",
    "type": "attack",
    "level": 1,
    "keywords": {"EXCES_DE_DEGATS": True},
    "attack": {"flat": 8},
    "text": "8",
    "text_en": "8",
}
EXTRA = [ALLY_6_4, COMPANION_4_6, ALLY_1_3, ALLY_2_1, ALLY_0_3_ARMOUR_1, EXCESS_8]


def test_assault_rifle_ignores_two_armour_then_ciblage_on_the_weak_hand_doubles():
    """« 12 Points de Dégats … j'ignore 2 Points d'Armure … J'ai 3 Points d'Armure … 11 Points de Dégats de
    base … je cible ta main droite grâce à mon CIBLAGE … un total de 22 Points de Dégat finaux » (000, III.6.b)."""
    assert base_damage(12, 3, penetration=2) == 11
    assert final_damage(11, critical_factor(0), applications=2) == 22

    state = turn_of(started(traits=[[], ["unidextre-1", "peau-dure-1"]]), 0)
    rifle = equip(state, 0, "fusil-d-assaut-2")
    equip(state, 1, "armure-de-combat-2")  # Armour 2, plus Peau dure's 1: 3 in all
    set_points(state, 0, "P", 3)
    assert state.armour(1)["generic"] == 3
    state.rng = Dice([4, 5, 6])  # two chance dice and the confirmation: no critical
    life = state.players[1].life
    events = state.apply(
        {"kind": "activate", "player": 0, "card": rifle, "pay": {"P": 2}, "target": {"player": 1}, "aim": "hand"}
    )
    events += pass_all(state)
    attack = events_of(events, "attack")[0]
    assert (attack["raw"], attack["armour"], attack["base"], attack["final"]) == (12, 3, 11, 22)
    assert state.players[1].life == life - 22


def test_coup_de_batte_with_the_legendary_force_card_and_la_poisse():
    """« Avec 4 SPECIAL Force et le SPECIAL Légendaire Force, en utilisant un COUP DE BATTE – 2, cela donne
    [ 5 (SPECIAL) + 1 (Bonus Légendaire) ] x2 = 12 … si le Coup Critique est confirmé … La Poisse …
    Dégat de base x 3 = 12 x 3 = 36 » (000, VII)."""
    assert raw_damage(5, 1, 2, 0) == 12
    assert final_damage(12, critical_factor(1, multiplier=3)) == 36

    state = turn_of(started(traits=[["la-poisse-1"], []]), 0)
    set_points(state, 0, "S", 4)
    give(state, 0, "force-legendaire-3", "special")
    assert state.points(0, "S") == 5
    bat = give(state, 0, "coup-de-batte-2")
    state.rng = Dice([1, 1])  # La Poisse leaves one chance die: it shows 1, the confirmation too
    events = state.apply({"kind": "play", "player": 0, "card": bat, "pay": {"S": 3}, "target": {"player": 1}})
    events += pass_all(state)
    attack = events_of(events, "attack")[0]
    assert (attack["raw"], attack["criticals"], attack["factor"], attack["final"]) == (12, 1, 3, 36)


def test_vampirisme_two_criticals_of_three():
    """« Joueur B possède 1 points d'Armure, Joueur A Griffemort possède 10 Force ; … (10-1)=9, il réussit
    2 Coups Critiques sur 3 : 9x2x2+9=36+9=45 Points de dégat finaux, il se soigne donc de 45 » (000, VII)."""
    assert final_damage(base_damage(10, 1), critical_factor(2)) == 45

    state = turn_of(started(traits=[["griffemort-2"], ["peau-dure-1"]]), 0)
    set_points(state, 0, "S", 10)
    claws = give(state, 0, "coup-de-griffes-1")
    state.players[0].life = 10
    state.rng = Dice([1, 1, 4, 1])  # Griffemort's three chances, two of them 1, and the confirmation
    events = state.apply({"kind": "play", "player": 0, "card": claws, "pay": {"S": 2}, "target": {"player": 1}})
    events += pass_all(state)
    attack = events_of(events, "attack")[0]
    assert (attack["base"], attack["criticals"], attack["final"]) == (9, 2, 45)
    assert events_of(events, "vampirism")[0]["amount"] == 45
    assert state.players[0].life == 55


def test_allies_6_4_and_4_6_defeat_each_other():
    """« un Allié 6/4 affronte un Compagnon 4/6 … les deux cartes sont défaussées en même temps »."""
    state = turn_of(started(extra_cards=EXTRA), 0)
    ally = give(state, 0, "test-allie-6-4", "play")
    companion = give(state, 1, "test-compagnon-4-6", "play")
    state.apply({"kind": "ally_attack", "player": 0, "allies": [ally], "target": {"card": companion}})
    pass_all(state)
    assert state.cards[ally].zone == "discard"
    assert state.cards[companion].zone == "discard"


def test_ally_1_3_beats_2_1_and_heals_at_end_of_turn():
    """« A est à présent considéré comme un Allié 1/1 … s'il décide d'attendre jusqu'à la fin du tour, il sera
    soigné » (000, V.8)."""
    state = turn_of(started(extra_cards=EXTRA), 0)
    a = give(state, 0, "test-allie-1-3", "play")
    b = give(state, 1, "test-allie-2-1", "play")
    state.apply({"kind": "ally_attack", "player": 0, "allies": [a], "target": {"card": b}})
    pass_all(state)
    assert state.cards[b].zone == "discard"
    assert (state.ally_power(a), state.ally_life(a)) == (1, 1)
    state.apply({"kind": "end_turn", "player": 0})
    assert state.ally_life(a) == 3


def test_wiki_excess_damage_split_with_a_critical():
    """« Vous produisez 8 Points de Dégat de base avec Excès de Dégats, l'attaque est Critique, l'Allié à 3 PV,
    et 1 d'Armure, votre adversaire à 3 Points d'Armure … soit 5 points de dégats critiques subis par le
    joueur adverse » (001, Attaquer)."""
    split = excess_split(8, critical_factor(1), ally_life=3, ally_armour=1, player_armour=3)
    assert (split.to_ally, split.to_player) == (4, 5)

    state = turn_of(started(traits=[[], ["peau-dure-1"]], extra_cards=EXTRA), 0)
    equip(state, 1, "armure-de-combat-2")
    ally = give(state, 1, "test-allie-0-3", "play")
    attack_card = give(state, 0, "test-excès-8")
    life = state.players[1].life
    state.rng = Dice([1, 6, 1])  # one chance die of two shows 1 and the confirmation die confirms it
    state.apply({"kind": "play", "player": 0, "card": attack_card, "pay": {}, "target": {"card": ally}})
    events = pass_all(state)
    assert state.cards[ally].zone == "discard"
    assert events_of(events, "attack")[0]["excess"] == 5
    assert state.players[1].life == life - 5


def test_martyr_2_1_times_3_deals_6_to_whoever_defeated_it():
    """« une 2/1 avec MARTYR x3 produira en une seule fois 6 points de dégat au joueur adverse » (000, VII)."""
    state = turn_of(started(), 0)
    raider = give(state, 1, "pillard-kamikaze-2", "play")
    punch = give(state, 0, "coup-de-poing-1")
    state.rng = Dice([6, 6, 6])
    life = state.players[0].life
    state.apply({"kind": "play", "player": 0, "card": punch, "pay": {"S": 1}, "target": {"card": raider}})
    events = pass_all(state)
    assert events_of(events, "martyr")[0]["amount"] == 6
    # The raider's counter-attack (its 2 damage) lands at the same moment as the punch.
    assert events_of(events, "counter_attack")[0]["amount"] == 2
    assert state.players[0].life == life - 6 - 2
