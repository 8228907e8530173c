"""Attacks, armour by damage type and the glossary's keywords (000, VII; 001, Attaquer)."""

from __future__ import annotations

import pytest

from tests.tragic.helpers import Dice, clear_hands, equip, events_of, give, pass_all, set_points, started, turn_of
from tragic.engine import IllegalAction
from tragic.engine.damage import armour_against, roll_criticals

NO_CRIT = [6, 6, 6]


def attack(state, card_id, target, pay, player=0, **extra):
    uid = give(state, player, card_id)
    state.rng = Dice(extra.pop("dice", NO_CRIT))
    events = state.apply({"kind": "play", "player": player, "card": uid, "pay": pay, "target": target, **extra})
    while state.priority:
        events += pass_all(state)
    return events


def test_armour_by_damage_type():
    armour = {
        "generic": 1,
        "energy": 2,
        "polished_metal": 3,
        "bacteriological": 4,
        "radiation": 5,
        "fire": 1,
        "explosion": 2,
    }
    assert armour_against(armour, "generic") == 1
    assert armour_against(armour, "laser") == 1 + 2 + 3
    assert armour_against(armour, "plasma") == 1 + 2
    assert armour_against(armour, "fire") == 1 + 1 + 2
    assert armour_against(armour, "explosion") == 1 + 2
    assert armour_against(armour, "poison") == 4  # « traverse l'Armure »
    assert armour_against(armour, "radiation") == 5  # « ignorent l'Armure » but not anti-radiation armour


def test_radiation_ignores_armour_raises_the_track_and_is_never_critical():
    state = turn_of(started(traits=[[], ["peau-dure-1"]]), 0)
    set_points(state, 0, "E", 2)
    life = state.players[1].life
    events = attack(state, "crachat-radioactif-2", {"player": 1}, {"E": 2}, dice=[1, 1, 1])
    assert state.players[1].life == life - 5
    assert state.players[1].radiation == 1
    assert events_of(events, "attack")[0]["factor"] == 1


def test_poison_goes_through_ordinary_armour():
    state = turn_of(started(traits=[[], ["peau-dure-1"]]), 0)
    life = state.players[1].life
    attack(state, "flechette-empoisonnee-1", {"player": 1}, {"E": 1})
    assert state.players[1].life == life - 3  # Endurance 1 + 2, no armour against poison


def test_penetrant_and_transpercant():
    state = turn_of(started(traits=[[], ["peau-dure-1"]]), 0)
    equip(state, 1, "armure-de-combat-2")
    set_points(state, 0, "S", 4)
    events = attack(state, "charge-furieuse-2", {"player": 1}, {"S": 2})
    assert events_of(events, "attack")[0]["base"] == 4  # TRANSPERÇANT: 3 armour ignored


def test_critical_needs_a_chance_die_and_the_confirmation_both_at_one():
    """« il faut obtenir un double 1 … on ne peut donc pas faire de jet si on ne possède qu'un seul dé »."""
    assert roll_criticals(2, Dice([1, 4, 1])).criticals == 1
    assert roll_criticals(2, Dice([1, 1, 2])).criticals == 0
    assert roll_criticals(0, Dice([1])).criticals == 0
    assert roll_criticals(-6, Dice([1])).confirmation == 1


def test_attacking_an_ally_brings_its_counter_attack():
    """« Un joueur utilise une carte ATTAQUE contre un Allié : … l'Allié riposte et inflige sa valeur d'attaque »."""
    state = turn_of(started(), 0)
    merc = give(state, 1, "mercenaire-2", "play")
    life = state.players[0].life
    attack(state, "coup-de-poing-1", {"card": merc}, {"S": 1})
    assert state.players[0].life == life - 4
    assert state.ally_life(merc) == 2


def test_an_ally_attacking_a_player_gets_no_counter_and_can_be_blocked_with_a_split():
    state = turn_of(started(), 0)
    brute = give(state, 0, "brute-super-mutante-2", "play")  # 5/3
    m1 = give(state, 1, "milicien-1", "play")  # 2/2
    m2 = give(state, 1, "milicien-1", "play")
    state.apply({"kind": "ally_attack", "player": 0, "allies": [brute], "target": {"player": 1}})
    pass_all(state)
    assert state.pending["kind"] == "block"
    with pytest.raises(IllegalAction):
        state.apply({"kind": "block", "player": 1, "blockers": [m1, m2], "split": [1, 1]})
    for named in ({"blockers": [m1, m1], "split": [1, 4]}, {"blockers": m1}):
        with pytest.raises(IllegalAction) as refused:
            state.apply({"kind": "block", "player": 1, **named})
        assert (refused.value.code, refused.value.template) == ("bad_choice", "name your defenders")
    state.apply({"kind": "block", "player": 1, "blockers": [m1, m2], "split": [1, 4]})
    assert state.cards[m2].zone == "discard" and state.ally_life(m1) == 1
    assert state.cards[brute].zone == "discard"  # 2 + 2 against 3 life


def test_en_defense_must_fall_first():
    state = turn_of(started(), 0)
    clear_hands(state)
    guard = give(state, 1, "garde-de-caravane-1", "play")
    milicien = give(state, 1, "milicien-1", "play")
    punch = give(state, 0, "coup-de-poing-1")
    targets = [a.get("target") for a in state.legal_actions(0) if a.get("card") == punch]
    assert targets == [{"card": guard}]
    with pytest.raises(IllegalAction):
        state.apply({"kind": "play", "player": 0, "card": punch, "pay": {"S": 1}, "target": {"card": milicien}})
    assert not any(a["kind"] == "ally_attack" and a["allies"] == [guard] for a in state.legal_actions(1))


def test_horde_attacks_all_together():
    state = turn_of(started(), 0)
    p1 = give(state, 0, "protectron-1", "play")
    p2 = give(state, 0, "protectron-1", "play")
    attacks = [a for a in state.legal_actions(0) if a["kind"] == "ally_attack"]
    assert all(sorted(a["allies"]) == sorted([p1, p2]) for a in attacks)
    # The one-card-at-a-time answer (targeting) offers the same group attacks as the legal actions.
    one_by_one = state.ally_attack_choices(0)
    assert sorted(map(repr, one_by_one)) == sorted(map(repr, attacks)) and one_by_one
    with pytest.raises(IllegalAction):
        state.apply({"kind": "ally_attack", "player": 0, "allies": [p1], "target": {"player": 1}})


def test_inciblable_and_factions():
    state = turn_of(started(), 0)
    clear_hands(state)
    spy = give(state, 1, "espion-de-l-institut-1", "play")
    synth = give(state, 1, "synthetique-de-l-institut-2", "play")
    own_synth = give(state, 0, "synthetique-de-l-institut-2", "play")
    punch = give(state, 0, "coup-de-poing-1")
    targets = [a.get("target") for a in state.legal_actions(0) if a.get("card") == punch]
    assert {"card": spy} not in targets and {"card": synth} in targets
    ally_targets = [
        a["target"] for a in state.legal_actions(0) if a["kind"] == "ally_attack" and a["allies"] == [own_synth]
    ]
    assert {"card": synth} not in ally_targets  # « Une faction ne peut pas affronter … la même Faction »


def test_brotherhood_and_its_enemies_never_serve_together():
    state = turn_of(started(traits=[[], ["synthetique-1"]]), 0)
    set_points(state, 0, "C", 3)
    set_points(state, 0, "S", 3)
    paladin = give(state, 0, "paladin-de-la-confrerie-2", "play")
    ghoul = give(state, 0, "goule-sauvage-1")
    state.apply({"kind": "play", "player": 0, "card": ghoul, "pay": {"E": 1, "L": 1}})
    assert state.cards[paladin].zone == "discard"
    turn_of(state, 1)
    knight = give(state, 1, "chevalier-de-la-confrerie-1")
    assert state.play_problem(1, knight) == "your Traits are incompatible with the Confrérie de l'Acier"


def test_companions_are_unique_across_the_battlefield_and_unique_replaces():
    state = turn_of(started(), 0)
    give(state, 1, "canigou-2", "play")
    dog = give(state, 0, "canigou-2")
    set_points(state, 0, "C", 2)
    assert "already on the battlefield" in state.play_problem(0, dog)
    foot = give(state, 0, "patte-de-lapin-1", "play")
    second = give(state, 0, "patte-de-lapin-1")
    state.apply({"kind": "play", "player": 0, "card": second, "pay": {"L": 1}})
    assert state.cards[foot].zone == "discard"


def test_charge_de_protection_takes_the_blow_even_engaged():
    state = turn_of(started(), 0)
    dog = give(state, 1, "canigou-2", "play", engaged=True)
    other_dog = give(state, 1, "canigou-2", "play", engaged=True)
    life = state.players[1].life
    uid = give(state, 0, "coup-de-poing-1")
    state.rng = Dice(NO_CRIT)
    state.apply({"kind": "play", "player": 0, "card": uid, "pay": {"S": 1}, "target": {"player": 1}})
    pass_all(state)
    assert state.pending["kind"] == "protect"
    with pytest.raises(IllegalAction) as refused:  # « one » ally takes the blow, never two
        state.apply({"kind": "block", "player": 1, "blockers": [dog, other_dog], "split": []})
    assert (refused.value.code, refused.value.template) == (
        "bad_choice",
        "one CHARGE DE PROTECTION ally takes the blow",
    )
    state.apply({"kind": "block", "player": 1, "blockers": [dog], "split": []})
    assert state.players[1].life == life and state.ally_life(dog) == 3
    with pytest.raises(IllegalAction) as refused:  # the blow taken, the attacker's turn goes on: nothing to block
        state.apply({"kind": "block", "player": 0, "blockers": [], "split": []})
    assert (refused.value.code, refused.value.template) == ("wrong_phase", "nobody is attacking you")


def test_absorption_totale_keeps_the_excess():
    state = turn_of(started(), 0)
    nova = give(state, 1, "nova-3", "play")
    set_points(state, 0, "S", 5)
    give(state, 0, "griffemort-apprivoise-3", "play")
    deathclaw = state.players[0].zones["play"][-1]
    state.cards[nova].damage = 0
    life = state.players[1].life
    state.apply({"kind": "ally_attack", "player": 0, "allies": [deathclaw], "target": {"player": 1}})
    pass_all(state)
    state.apply({"kind": "block", "player": 1, "blockers": [nova], "split": [7]})
    assert state.players[1].life == life  # 7 against 5 life: ABSORPTION TOTALE keeps the 2 on Nova


def test_excess_damage_of_an_attacking_ally_reaches_the_player():
    state = turn_of(started(), 0)
    deathclaw = give(state, 0, "griffemort-apprivoise-3", "play")
    milicien = give(state, 1, "milicien-1", "play")
    life = state.players[1].life
    state.apply({"kind": "ally_attack", "player": 0, "allies": [deathclaw], "target": {"player": 1}})
    pass_all(state)
    state.apply({"kind": "block", "player": 1, "blockers": [milicien], "split": [7]})
    assert state.players[1].life == life - 5


def test_martyr_indices_add_up_and_self_defeat_turns_it_back():
    """« les indices s'additionnent lorsqu'ils sont « obtenus » » (FAQ 6)."""
    state = turn_of(started(), 0)
    set_points(state, 0, "C", 2)
    raider = give(state, 0, "pillard-kamikaze-2", "play")
    sacrifice = give(state, 0, "dernier-sacrifice-2")
    state.apply({"kind": "play", "player": 0, "card": sacrifice, "pay": {"C": 2}, "target": {"card": raider}})
    pass_all(state)
    assert state.keyword(raider, "MARTYR") == 4
    life = state.players[0].life
    state.remove_ally(raider, defeated_by=0)
    assert state.players[0].life == life - 8


def test_when_defeated_resolves_however_it_leaves():
    state = turn_of(started(), 0)
    merchant = give(state, 1, "marchand-ambulant-1", "play")
    hand = len(state.players[1].zones["hand"])
    state.destroy_card(merchant, by=0)
    assert len(state.players[1].zones["hand"]) == hand + 2


def test_discretion_hides_the_player_and_its_attacks_cannot_be_answered():
    state = turn_of(started(), 0)
    sneak = give(state, 0, "infiltration-1")
    state.apply({"kind": "play", "player": 0, "card": sneak, "pay": {"A": 1}})
    pass_all(state)
    assert state.players[0].stealth
    turn_of(state, 1)
    punch = give(state, 1, "coup-de-poing-1")
    assert state.play_problem(1, punch) == "it has no legal target"
    turn_of(state, 0)
    give(state, 1, "esquive-1")
    events = attack(state, "coup-de-poing-1", {"player": 1}, {"S": 1})
    assert events_of(events, "attack") and not state.stack  # resolved at once, no reaction window
    assert not state.players[0].stealth  # no silencer: DISCRÉTION is gone


def test_a_silencer_keeps_discretion():
    state = turn_of(started(), 0)
    state.players[0].stealth = True
    set_points(state, 0, "A", 3)
    attack(state, "attaque-sournoise-2", {"player": 1}, {"A": 3})
    assert state.players[0].stealth


def test_ciblage_breaks_the_armour_piece_on_the_aimed_part():
    state = turn_of(started(), 0)
    helmet = equip(state, 1, "casque-de-la-confrerie-2")
    attack(state, "tir-ajuste-1", {"player": 1}, {"P": 1}, aim="head")
    assert state.cards[helmet].zone == "discard"


def test_respirateur_ignores_gas():
    state = turn_of(started(), 0)
    equip(state, 1, "masque-a-gaz-1")
    set_points(state, 0, "I", 2)
    life = state.players[1].life
    attack(state, "mine-a-gaz-2", {"player": 1}, {"I": 2})
    assert state.players[1].life == life


def test_luminescent_adds_radiation_to_melee_attacks():
    state = turn_of(started(traits=[["goule-2"], []]), 0)
    life = state.players[1].life
    attack(state, "coup-de-poing-1", {"player": 1}, {"S": 1})
    assert state.players[1].life == life - 2 and state.players[1].radiation == 1


def test_equipping_and_unequipping_cost_the_card_s_cost():
    state = turn_of(started(), 0)
    set_points(state, 0, "E", 3)
    armour = give(state, 0, "armure-de-combat-2", "equipment", engaged=True)
    assert state.armour(0).get("generic", 0) == 0
    state.apply({"kind": "equip", "player": 0, "card": armour, "pay": {"E": 3}})
    assert state.armour(0)["generic"] == 2
    with pytest.raises(IllegalAction) as refusal:
        state.apply({"kind": "unequip", "player": 0, "card": armour, "pay": {}})
    assert refusal.value.code == "unpaid_cost"


def test_the_unfinished_vault_shields_the_player_not_the_building():
    """« c'est le joueur qui est immunisé aux effets néfastes, pas l'Abri … la quasi-totalité des cartes
    Attaque d'Agilité peuvent la détruire en un coup » (FAQ 10) ; leaving is paid during upkeep (FAQ 11)."""
    state = turn_of(started(), 1)
    set_points(state, 1, "E", 4)
    vault = give(state, 1, "abri-vault-tec-inacheve-3", "play")
    state.apply({"kind": "activate", "player": 1, "card": vault, "pay": {"E": 3}})
    pass_all(state)
    assert state.players[1].sheltered == vault
    assert {a["kind"] for a in state.legal_actions(1)} <= {"end_turn", "concede", "place_special"}
    turn_of(state, 0)
    give(state, 0, "coup-de-couteau-1")
    targets = [a["target"] for a in state.legal_actions(0) if state.cards[a.get("card", 0)].cid == "coup-de-couteau-1"]
    assert {"player": 1} not in targets and {"card": vault} in targets
    set_points(state, 0, "A", 5)
    attack(state, "coup-de-couteau-1", {"card": vault}, {"A": 1})
    assert state.cards[vault].zone == "discard" and state.players[1].sheltered is None


def test_bon_vivant_adds_one_to_beneficial_effects_but_not_to_the_draw_phase():
    """FAQ 13: « Non, ce sont bien les effets bénéfiques qui font piocher une fois de plus »."""
    state = turn_of(started(traits=[["bon-vivant-bon-fond-1"], []]), 0)
    state.players[0].life = 20
    stimpak = give(state, 0, "stimpak-1")
    state.apply({"kind": "play", "player": 0, "card": stimpak, "pay": {"E": 1}})
    pass_all(state)
    assert state.players[0].life == 27
    state.apply({"kind": "end_turn", "player": 0})
    hand = len(state.players[0].zones["hand"])
    state.apply({"kind": "end_turn", "player": 1}) if state.phase == "main" else None
    while state.active != 0:
        player = state.current_players()[0]
        state.apply(next(a for a in state.legal_actions(player) if a["kind"] in ("end_upkeep", "end_turn")))
    assert len(state.players[0].zones["hand"]) == hand + 2


def test_decouverte_sends_each_card_where_chosen():
    state = turn_of(started(), 0)
    scouting = give(state, 0, "reperage-1")
    library = state.players[0].zones["library"]
    top3 = list(reversed(library[-3:]))
    state.apply({"kind": "play", "player": 0, "card": scouting, "pay": {"P": 1}})
    pass_all(state)
    assert state.pending["kind"] == "discover" and state.pending["cards"] == top3
    assert "cards" not in state.observation(1)["pending"]
    state.apply(
        {"kind": "discover", "player": 0, "placements": [[top3[0], "discard"], [top3[1], "bottom"], [top3[2], "top"]]}
    )
    assert state.cards[top3[0]].zone == "discard"
    assert library[0] == top3[1] and library[-1] == top3[2]


def test_cherchez_reveals_the_card_and_shuffles():
    state = turn_of(started(), 0)
    hunt = give(state, 0, "recuperation-d-armes-1")
    state.apply({"kind": "play", "player": 0, "card": hunt, "pay": {"P": 1}})
    events = pass_all(state)
    assert state.pending["kind"] == "search"
    choice = state.legal_actions(0)[0]["card"]
    events = state.apply({"kind": "search", "player": 0, "card": choice})
    assert events_of(events, "searched")[0]["card"] == choice  # revealed to everyone
    assert state.pending is None


def test_recyclage_discards_then_draws():
    state = turn_of(started(skills=[["recyclage-1", "troc-1", "science-1"], ["medecine-1", "troc-1", "science-1"]]), 0)
    skill = state.players[0].zones["skill"][0]
    card = state.players[0].zones["hand"][0]
    hand = len(state.players[0].zones["hand"])
    state.apply({"kind": "activate", "player": 0, "card": skill, "pay": {"L": 1}, "choice": card})
    pass_all(state)
    assert state.cards[card].zone == "discard" and len(state.players[0].zones["hand"]) == hand


def test_lockpicking_triggers_on_special_placement_too():
    """FAQ 17: « une carte Aptitude dans votre main qui est placée … correspond à la condition »."""
    state = turn_of(
        started(skills=[["passe-partout-crochetage-1", "troc-1", "science-1"], ["medecine-1", "troc-1", "science-1"]]),
        0,
    )
    state.players[0].life = 40
    aptitude = give(state, 0, "aptitude-force-1")
    state.window = "open"
    state.apply({"kind": "place_special", "player": 0, "card": aptitude})
    assert state.players[0].life == 41


def test_dodge_cancels_the_attack_on_me():
    state = turn_of(started(), 0)
    punch = give(state, 0, "coup-de-poing-1")
    dodge = give(state, 1, "esquive-1")
    life = state.players[1].life
    state.apply({"kind": "play", "player": 0, "card": punch, "pay": {"S": 1}, "target": {"player": 1}})
    state.apply({"kind": "react", "player": 1, "card": dodge, "pay": {"A": 1, "L": 1}})
    pass_all(state)
    assert state.players[1].life == life and not state.stack
    assert state.cards[punch].zone == "discard"


def test_area_explosion_hits_every_ally_with_one_critical_roll():
    state = turn_of(started(), 0)
    set_points(state, 0, "S", 3)
    allies = [give(state, 1, "milicien-1", "play") for _ in range(3)]
    events = attack(state, "lancer-de-grenade-2", {"player": 1}, {"S": 3})
    assert len(events_of(events, "attack")) == 1
    assert all(state.cards[u].zone == "discard" for u in allies)


def test_three_players_play_clockwise():
    state = started(players=3)
    first = state.active
    state.apply({"kind": "end_turn", "player": first})
    while state.phase == "upkeep":
        state.apply({"kind": "end_upkeep", "player": state.active})
    assert state.active == (first + 1) % 3


def test_stealth_boy_affliction_costs_life_for_unpaid_endurance():
    """« L'utilisation de la Capacité des Stealth Boy vous coute 2 Points de SPECIAL Endurance pour obtenir
    la DISCRÉTION, perdez 1 Point de Vie par Point d'Endurance que vous n'avez pas payé » (000, VII)."""
    state = turn_of(started(), 0)
    boy = give(state, 0, "stealth-boy-2", "play")
    life = state.players[0].life
    offered = next(a for a in state.legal_actions(0) if a.get("card") == boy)
    assert offered["pay"] == {"E": 1}  # one Endurance point is all there is
    state.apply({"kind": "activate", "player": 0, "card": boy, "pay": {}})
    pass_all(state)
    assert state.players[0].stealth and state.players[0].life == life - 2


def test_raider_power_helmet_malus_without_a_chassis():
    """Erratum 2: « c'est lorsque le casque est équipé sans Chassis que le malus s'applique »."""
    state = turn_of(started(), 0)
    equip(state, 0, "casque-a-a-de-pillard-2")
    assert state.mods(0).crit_chances == -1
    equip(state, 0, "chassis-d-armure-assistee-3")
    assert state.mods(0).crit_chances == 0 and state.armour(0)["generic"] == 4


def test_vous_etes_magique_keeps_allies_en_defense_through_the_opponents_turn():
    """Erratum 1: « FIN DE TOUR », « de sorte que les Alliés conservent « En Défense » pendant le tour adverse »."""
    state = turn_of(started(traits=[["vous-etes-magique-1"], []]), 0)
    militia = give(state, 0, "milicien-1", "play")
    state.apply({"kind": "end_turn", "player": 0})
    assert state.keyword(militia, "EN_DEFENSE")
    punch = give(state, 1, "coup-de-poing-1")
    assert [a["target"] for a in state.legal_actions(1) if a.get("card") == punch] in ([], [{"card": militia}])
    state.apply({"kind": "end_turn", "player": 1}) if state.phase == "main" else None
    while state.active != 0:
        player = state.current_players()[0]
        state.apply(next(a for a in state.legal_actions(player) if a["kind"] in ("end_upkeep", "end_turn")))
    assert not state.keyword(militia, "EN_DEFENSE")


def test_demolition_sends_the_building_to_the_destroyed_zone_for_good():
    """« ZONE DE DESTRUCTION : … ces cartes ne pourront plus jamais revenir en jeu au cours de la partie »."""
    state = turn_of(started(), 0)
    still = give(state, 1, "distillerie-2", "play")
    demolition = give(state, 0, "demolition-2")
    set_points(state, 0, "S", 2)
    state.apply({"kind": "play", "player": 0, "card": demolition, "pay": {"S": 2}, "target": {"card": still}})
    pass_all(state)
    assert state.cards[still].zone == "destroyed"


def test_trap_spotting_makes_the_opponent_prove_a_reaction():
    """FAQ 14: « je lui ai dit avoir au moins une carte Réaction, dois-je le lui prouver ? Oui »."""
    state = turn_of(started(), 0)
    clear_hands(state)
    give(state, 1, "esquive-1")
    spotting = give(state, 0, "reperage-de-piege-1")
    events = state.apply({"kind": "play", "player": 0, "card": spotting, "pay": {"P": 1}})
    events += pass_all(state)
    assert events_of(events, "reaction_revealed") == [{"t": "reaction_revealed", "player": 1, "card": "esquive-1"}]


def test_a_parry_also_softens_an_allys_attack():
    state = turn_of(started(), 0)
    clear_hands(state)
    brute = give(state, 0, "brute-super-mutante-2", "play")
    parry = give(state, 1, "parade-1")
    life = state.players[1].life
    state.apply({"kind": "ally_attack", "player": 0, "allies": [brute], "target": {"player": 1}})
    state.apply({"kind": "react", "player": 1, "card": parry, "pay": {"S": 1}})
    pass_all(state)
    pass_all(state)
    assert state.players[1].life == life - 1  # 5 power, 4 parried


EXILE = {
    "id": "exil-1",
    "name": "Exil",
    "name_en": "Exile",
    "type": "action",
    "level": 1,
    "attribute": "S",
    "cost": {"S": 1},
    "effects": [{"op": "destroy", "card_type": "ally", "irrevocably": True}],
    "text": "Détruisez un Allié adverse : il va dans la Zone de destruction.",
    "text_en": "Destroy an opposing ally: it goes to the destroyed zone for good.",
}


def test_an_ally_destroyed_for_good_goes_to_the_destroyed_zone_not_the_discard():
    """« ZONE DE DESTRUCTION : … ces cartes ne pourront plus jamais revenir en jeu au cours de la partie »: an ally
    as well as a building, when a card of the table's own destroys it so."""
    state = turn_of(started(extra_cards=[EXILE]), 0)
    knight = give(state, 1, "chevalier-de-la-confrerie-1", "play")
    exile = give(state, 0, "exil-1")
    set_points(state, 0, "S", 1)
    state.apply({"kind": "play", "player": 0, "card": exile, "pay": {"S": 1}, "target": {"card": knight}})
    pass_all(state)
    assert state.cards[knight].zone == "destroyed"


def test_belluaires_may_fight_their_own_faction():
    """« Belluaire : Capacité de Faction : A la différence des autres Factions, les Belluaires peuvent affronter
    d'autres membres de leurs Faction » (000, glossary)."""
    state = turn_of(started(), 0)
    clear_hands(state)
    hound = give(state, 1, "chien-de-chasse-1", "play")
    own_hound = give(state, 0, "chien-de-chasse-1", "play")
    targets = [a["target"] for a in state.legal_actions(0) if a["kind"] == "ally_attack" and a["allies"] == [own_hound]]
    assert {"card": hound} in targets and {"player": 1} in targets
    assert [a["target"] for a in state.ally_attack_choices(0) if a["allies"] == [own_hound]] == targets
