"""Attacks and damage: the accuracy roll against the distance, weapon dice against Santé dice, armour."""

from __future__ import annotations

import pytest

from frag.engine import IllegalAction, combat
from frag.engine.base import ACTION
from tests.frag.arena import OPEN, arena, snapshot


@pytest.mark.parametrize("attack", range(8, 16))
def test_eight_against_eight_to_fifteen_loses_one(attack: int) -> None:
    """« si la cible fait 8 et que l'attaquant fait de 8 à 15, alors le défenseur perd 1 point de Santé »"""
    assert combat.health_lost(attack, 8) == 1


@pytest.mark.parametrize("attack", range(16, 24))
def test_eight_against_sixteen_to_twenty_three_loses_two(attack: int) -> None:
    """« Si l'attaquant avait fait de 16 à 23, le défenseur aurait perdu 2 points de Santé. »"""
    assert combat.health_lost(attack, 8) == 2


def test_a_higher_defence_takes_nothing_but_extra_damage_still_counts() -> None:
    """« Ces dommages comptent même si les dommages occasionnés lors de la résolution sont nuls. »"""
    assert combat.health_lost(7, 8) == 0
    assert combat.health_lost(7, 8, extra_damage=1) == 1
    assert combat.health_lost(16, 8, extra_damage=2) == 4


@pytest.mark.parametrize(("accuracy", "attacks"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)])
def test_attacks_per_turn_are_half_the_precision_rounded_up(accuracy: int, attacks: int) -> None:
    assert combat.attacks_per_turn(accuracy) == attacks


def two_fighters(**kwargs):  # type: ignore[no-untyped-def]
    attacker = {"at": (1, 1), "accuracy": 2, **kwargs.pop("attacker", {})}
    defender = {"at": (1, 4), "health": 3, **kwargs.pop("defender", {})}
    return arena(OPEN, fighters=[attacker, defender], **kwargs)


def test_a_hit_compares_weapon_dice_with_the_defender_s_santé_dice() -> None:
    # accuracy 2 dice: 2+1 = 3 >= distance 3; shotgun 4 dice = 16 against Santé 3 dice = 8: loses 2
    state = two_fighters(attacker={"weapons": ["fusil_pompe"]}, dice=[2, 1, 4, 4, 4, 4, 3, 3, 2])
    uid = state.fighters[0].weapons[0][0]
    events = state.apply({"type": "attack", "player": 0, "target": 1, "weapon": uid})
    roll = next(e for e in events if e["type"] == "damage_roll")
    assert (roll["attack_dice"], roll["defence_dice"], roll["lost"]) == ([4, 4, 4, 4], [3, 3, 2], 2)
    assert state.fighters[1].hp == 1


def test_the_accuracy_roll_must_reach_the_distance_counting_the_target_square() -> None:
    state = two_fighters(dice=[1, 1])
    events = state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    accuracy = next(e for e in events if e.get("purpose") == "accuracy")
    assert (accuracy["distance"], accuracy["hit"]) == (3, False)
    assert state.fighters[1].hp == 3
    assert state.turn.attacks == 1


def test_ammunition_is_spent_before_the_roll_even_on_a_miss() -> None:
    """« Avant de faire un jet de précision, il faut diminuer de 1 le marqueur balle »"""
    state = two_fighters(attacker={"weapons": ["harpon"]}, dice=[1, 1])
    uid = state.fighters[0].weapons[0][0]
    state.apply({"type": "attack", "player": 0, "target": 1, "weapon": uid})
    assert state.fighters[0].weapons[0][1] == 2


def test_an_empty_weapon_cannot_shoot_until_reloaded() -> None:
    """« Vous n'êtes pas obligé de défausser une arme sans munition mais vous ne pourrez plus tirer avec »"""
    state = two_fighters(attacker={"weapons": ["harpon"], "hand": ["munitions"], "accuracy": 4}, dice=[])
    uid = state.fighters[0].weapons[0][0]
    state.fighters[0].weapons[0][1] = 0
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="out of ammunition"):
        state.apply({"type": "attack", "player": 0, "target": 1, "weapon": uid})
    assert snapshot(state) == before
    reload = state.fighters[0].hand[0]
    state.apply({"type": "play", "player": 0, "card": reload, "weapon": uid})
    assert state.fighters[0].weapons[0][1] == 3


def test_a_weapon_can_be_put_into_play_as_it_is_declared() -> None:
    state = two_fighters(attacker={"hand": ["railgun"]}, dice=[6, 6, 1, 1, 1, 1, 1, 6, 6, 6])
    uid = state.fighters[0].hand[0]
    events = state.apply({"type": "attack", "player": 0, "target": 1, "weapon": uid})
    assert state.fighters[0].weapons == [[uid, 2]]
    # 5 against 18: nothing, but the railgun's 2 extra damage count anyway.
    assert next(e for e in events if e["type"] == "damage_roll")["lost"] == 2


def test_no_more_attacks_than_half_the_precision() -> None:
    state = two_fighters(dice=[1, 1])
    state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    with pytest.raises(IllegalAction, match="no attack left"):
        state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})


def test_armour_is_discarded_once_it_has_absorbed_its_value() -> None:
    """« si un combattant porte une armure légère (+1 de Santé) et reçoit un point de blessure, il doit la défausser »"""
    state = two_fighters(defender={"health": 2, "armour": "gilet_kevlar"}, dice=[3, 3, 5, 5, 3, 3, 3])
    assert state.fighters[1].hp == 3
    events = state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    assert [e["type"] for e in events if e["type"] in ("wounded", "armour_destroyed")] == [
        "wounded",
        "armour_destroyed",
    ]
    assert state.fighters[1].armour is None
    assert state.fighters[1].hp == 2
    assert "gilet_kevlar" in [state.card_ids[u] for u in state.discards["gadget"]]


def test_a_stronger_armour_survives_a_smaller_wound() -> None:
    state = two_fighters(defender={"health": 2, "armour": "armure_combat"}, dice=[3, 3, 5, 5, 2, 2, 2, 2])
    state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    assert state.fighters[1].armour is not None and state.fighters[1].armour[1] == 1
    assert state.fighters[1].hp == 3


def test_one_armour_at_a_time() -> None:
    state = two_fighters(attacker={"armour": "gilet_kevlar", "hand": ["exosquelette"]})
    with pytest.raises(IllegalAction, match="more than one armour"):
        state.apply({"type": "play", "player": 0, "card": state.fighters[0].hand[0]})


def test_a_frag_leaves_blood_and_weapons_and_the_turn_goes_on() -> None:
    """« L'attaquant marque 1 Frag [...] et il pioche une carte Spéciale » ; « Marquer un Frag ne met pas fin au tour »"""
    state = two_fighters(defender={"health": 1, "weapons": ["clou"], "armour": "gilet_kevlar"}, dice=[3, 3, 6, 6, 1, 1])
    events = state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    victim = state.fighters[1]
    assert victim.out and victim.weapons == [] and victim.armour is None
    assert state.fighters[0].frags == 1
    assert state.card(state.fighters[0].hand[-1]).deck == "special"
    target_square = next(e for e in events if e["type"] == "fragged")["place"]
    assert state.blood[target_square] == 1
    assert [state.card_ids[u] for p in state.piles.values() for u in p["cards"]] == ["clou"]
    assert "gilet_kevlar" in [state.card_ids[u] for u in state.discards["gadget"]]
    assert state.phase == ACTION and state.current_players() == [0]


def test_a_dying_fighter_may_heal_at_once_and_survive() -> None:
    """« Si le niveau de santé d'un joueur atteint 0 ou moins et si il ne peut se redonner immédiatement des points
    de santé, il est fragué »"""
    state = two_fighters(defender={"health": 2, "hp": 1, "hand": ["trousse_soins"]}, dice=[3, 3, 2, 2, 3])
    state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    assert state.current_players() == [1]
    assert {a["type"] for a in state.legal_actions(1)} == {"accept_frag", "play"}
    state.apply({"type": "play", "player": 1, "card": state.fighters[1].hand[0]})
    assert state.fighters[1].hp == 2 and not state.fighters[1].out
    assert state.current_players() == [0]


def test_healing_never_goes_above_the_starting_santé() -> None:
    state = two_fighters(attacker={"health": 3, "hp": 2, "hand": ["nanomachines"]})
    state.apply({"type": "play", "player": 0, "card": state.fighters[0].hand[0]})
    assert state.fighters[0].hp == 3


def test_victory_at_the_configured_number_of_frags() -> None:
    state = two_fighters(defender={"health": 1}, dice=[3, 3, 6, 6, 1])
    state.config["frags_to_win"] = 1
    events = state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    assert state.is_over() and state.winner() == 0
    assert events[-1] == {"type": "game_over", "winner": 0, "reason": "frags"}
    with pytest.raises(IllegalAction, match="over"):
        state.apply({"type": "end_turn", "player": 0})


def test_a_fighter_whose_healing_cannot_bring_it_back_is_fragged_at_once() -> None:
    state = two_fighters(defender={"health": 2, "hp": 1, "hand": ["trousse_soins"]}, dice=[3, 3, 6, 6, 1])
    state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    assert state.fighters[1].out
    assert state.current_players() == [0]


def test_gadgets_in_play_are_lost_with_the_frag_but_specials_stay() -> None:
    """« Les cartes Armes et Gadgets en jeu sont perdues quand le joueur est fragué alors que les cartes Spéciales ne
    le sont pas »"""
    state = two_fighters(defender={"health": 1, "hand": ["casque", "reflexes"]}, dice=[3, 3, 6, 6, 1, 1])
    shield, reflexes = state.fighters[1].hand
    state.fighters[1].hand = []
    state.modifiers = [
        {
            "uid": shield,
            "owner": 1,
            "stat": "defence_dice",
            "op": "add",
            "value": 1,
            "scope": "self",
            "duration": "round",
        },
        {"uid": reflexes, "owner": 1, "stat": "attacks", "op": "add", "value": 1, "scope": "self", "duration": "round"},
    ]
    state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    assert state.fighters[1].out
    assert [m["uid"] for m in state.modifiers] == [reflexes]
    assert shield in state.discards["gadget"]


def test_quad_damage_quadruples_the_weapon_dice_before_other_cards_add_theirs() -> None:
    """Dégâts quadruples, and « Si à un moment vous devez additionner ET multiplier des bonus, on multiplie d'abord et
    ensuite on additionne » : the pistol's 2 dice become 8; with Rage (+3 dice) played too, 2 × 4 + 3 = 11."""
    state = two_fighters(attacker={"hand": ["quad_damage"]}, dice=[6, 6] + [1] * 8 + [6, 6, 6])
    state.apply({"type": "play", "player": 0, "card": state.fighters[0].hand[0]})
    events = state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    assert len(next(e for e in events if e["type"] == "damage_roll")["attack_dice"]) == 8

    state = two_fighters(attacker={"hand": ["rage", "quad_damage"]}, dice=[6, 6] + [1] * 11 + [6, 6, 6])
    for uid in list(state.fighters[0].hand):
        state.apply({"type": "play", "player": 0, "card": uid})
    events = state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    assert len(next(e for e in events if e["type"] == "damage_roll")["attack_dice"]) == 11


def test_a_gadget_in_play_can_be_dropped_under_a_marker() -> None:
    """« Un combattant peut se débarrasser d'une arme ou d'un gadget qui étaient en jeu (c'est à dire posé devant lui)
    n'importe quand durant son tour. Un Marqueur Arme de couleur est alors placé sur la case [...] Vous ne pouvez pas
    ramasser un objet que vous avez jeté dans le même tour. »"""
    state = two_fighters(attacker={"hand": ["lunette"]})
    uid = state.fighters[0].hand[0]
    state.apply({"type": "play", "player": 0, "card": uid})
    assert state.stat(0, "accuracy_dice") == 2
    assert {"type": "drop", "player": 0, "card": uid} in state.legal_actions(0)
    events = state.apply({"type": "drop", "player": 0, "card": uid})
    assert [e["type"] for e in events] == ["dropped", "weapon_marker"]
    assert state.stat(0, "accuracy_dice") == 0
    (pile,) = state.piles.values()
    assert pile["cards"] == [uid] and pile["place"] == state.fighters[0].place
    assert not [a for a in state.legal_actions(0) if a["type"] == "take_weapon"]
    # A Special in play is not « une arme ou un gadget »: it cannot be dropped.
    state = two_fighters(attacker={"hand": ["rage"]})
    rage = state.fighters[0].hand[0]
    state.apply({"type": "play", "player": 0, "card": rage})
    with pytest.raises(IllegalAction, match="not in play in front of you"):
        state.apply({"type": "drop", "player": 0, "card": rage})


def test_a_shortage_doubles_the_ammunition_of_the_other_fighters_shots() -> None:
    """Pénurie: « Les tirs des autres combattants coûtent le double de munitions jusqu'à votre prochain tour »: a
    harpoon with one shot left cannot fire (it is not even offered), with three it fires and keeps one."""
    state = two_fighters(attacker={"weapons": ["harpon"]}, defender={"hand": ["penurie"]}, dice=[1, 1])
    state._play(1, state.fighters[1].hand[0], {}, [])
    uid = state.fighters[0].weapons[0][0]
    state.fighters[0].weapons[0][1] = 1
    assert not [a for a in state.legal_actions(0) if a["type"] == "attack" and a.get("weapon") == uid]
    with pytest.raises(IllegalAction, match="out of ammunition"):
        state.apply({"type": "attack", "player": 0, "target": 1, "weapon": uid})
    state.fighters[0].weapons[0][1] = 3
    assert [a for a in state.legal_actions(0) if a["type"] == "attack" and a.get("weapon") == uid]
    state.apply({"type": "attack", "player": 0, "target": 1, "weapon": uid})
    assert state.fighters[0].weapons[0][1] == 1


def test_a_fighter_cannot_attack_itself() -> None:
    state = two_fighters(dice=[])
    with pytest.raises(IllegalAction, match="^choose another fighter to attack$"):
        state.apply({"type": "attack", "player": 0, "target": 0, "weapon": "pistol"})
