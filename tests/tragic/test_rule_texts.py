"""The rules the coverage matrix listed as implemented but untested (docs/rules-coverage-tragic.md): each test
quotes the rule (000 is the booklet, 001 the wiki revision) and checks the engine against it."""

from __future__ import annotations

import pytest

from tests.tragic.helpers import (
    Dice,
    clear_hands,
    config,
    events_of,
    give,
    pass_all,
    set_points,
    started,
    turn_of,
)
from tragic.engine import IllegalAction, new_game
from tragic.engine.damage import BASE_CRIT_CHANCES

NO_CRIT = [6, 6, 6]


def targets_of(state, player, uid):
    return [a.get("target") for a in state.legal_actions(player) if a.get("card") == uid]


def test_trait_and_competence_cards_are_never_targets():
    """Z11 (001, ZONE DE TRAIT / ZONE DE COMPÉTENCE): « Les cartes dans cette Zone sont inciblable »."""
    state = turn_of(started(traits=[[], ["peau-dure-1"]]), 0)
    clear_hands(state)
    set_points(state, 0, "I", 3)
    emp = give(state, 0, "impulsion-emp-3")  # INCAPACITÉ: any opposing card « qui possède une Capacité »
    hack = give(state, 0, "piratage-de-terminal-2")  # « Défaussez un(e) Objet adverse »
    protected = state.players[1].zones["trait"] + state.players[1].zones["skill"]
    assert len(protected) == 4
    offered = targets_of(state, 0, emp) + targets_of(state, 0, hack)
    assert not any(t and t.get("card") in protected for t in offered)
    for uid in protected:
        before = state.to_json()
        with pytest.raises(IllegalAction):
            state.apply({"kind": "play", "player": 0, "card": emp, "pay": {"I": 3}, "target": {"card": uid}})
        assert state.to_json() == before


def test_an_ally_gone_before_the_damage_deals_none_and_takes_none():
    """A2 (000, V.8–9): an attack resolves against what is still there: « l'Allié riposte et inflige sa valeur
    d'attaque … au même moment », so an ally that left play before the attack resolved neither takes the damage
    nor strikes back; allies attacking that were destroyed before the blow deal nothing."""
    state = turn_of(started(), 0)
    clear_hands(state)
    merc = give(state, 1, "mercenaire-2", "play")
    give(state, 1, "esquive-1")  # a reaction: player 1 is asked before the attack resolves
    set_points(state, 0, "S", 2)
    punch = give(state, 0, "coup-de-poing-1")
    life = state.players[0].life
    state.rng = Dice(NO_CRIT)
    state.apply({"kind": "play", "player": 0, "card": punch, "pay": {"S": 1}, "target": {"card": merc}})
    assert state.priority == [1]
    state.move(merc, "discard")  # destroyed in answer (what a reaction or an effect would do)
    events = pass_all(state)
    assert not events_of(events, "attack") and not events_of(events, "counter_attack")
    assert state.players[0].life == life and state.cards[merc].damage == 0

    # An ally attack whose attacker is destroyed before the blow: nothing reaches the player.
    state = turn_of(started(), 0)
    clear_hands(state)
    raider = give(state, 0, "mercenaire-2", "play")
    guard = give(state, 1, "garde-de-caravane-1", "play")
    give(state, 1, "esquive-1")
    state.cards[raider].engaged = False
    lives = [p.life for p in state.players]
    state.apply({"kind": "ally_attack", "player": 0, "allies": [raider], "target": {"card": guard}})
    assert state.priority == [1]
    state.move(raider, "discard")
    while (state.pending is not None or state.priority) and not state.over:
        state.apply(state.timeout_actions()[0])  # pass, no block
    assert state.cards[guard].damage == 0
    assert [p.life for p in state.players] == lives  # and nothing struck back at an attacker that is gone


def test_a_trait_s_critical_malus_counts_for_every_attack():
    """F12 (000, FAQ 12): the Trait's critical malus « s'applique-t-il à toutes les attaques ou uniquement à
    l'attaque offerte ? Toutes »: with Peau dure (-1 chance) every attack rolls one chance die fewer."""

    def chance_dice(traits):
        state = turn_of(started(traits=[traits, []]), 0)
        clear_hands(state)
        set_points(state, 0, "S", 3)
        counts = []
        for card_id in ("coup-de-poing-1", "coup-de-poing-1"):
            uid = give(state, 0, card_id)
            state.rng = Dice([2, 2, 2, 2])
            events = state.apply({"kind": "play", "player": 0, "card": uid, "pay": {"S": 1}, "target": {"player": 1}})
            events += pass_all(state)
            counts.append(len(events_of(events, "attack")[0]["dice"]))
        return counts

    assert chance_dice([]) == [BASE_CRIT_CHANCES, BASE_CRIT_CHANCES]
    assert chance_dice(["peau-dure-1"]) == [BASE_CRIT_CHANCES - 1, BASE_CRIT_CHANCES - 1]


def test_two_armour_pieces_never_share_a_slot():
    """F15 (000, FAQ 15): the polished-metal pieces « ne pouvaient pas se cumule sur le même emplacement,
    évidemment »: a second piece for the same slot is refused while the first is equipped."""
    state = turn_of(started(), 0)
    clear_hands(state)
    set_points(state, 0, "E", 5)
    first = give(state, 0, "brassards-en-metal-poli-2", "equipment", engaged=True)
    second = give(state, 0, "brassards-en-metal-poli-2", "equipment", engaged=True)
    state.apply({"kind": "equip", "player": 0, "card": first, "pay": {"E": 2}})
    assert state.armour(0)["polished_metal"] == 3
    assert not [a for a in state.legal_actions(0) if a["kind"] == "equip" and a["card"] == second]
    before = state.to_json()
    with pytest.raises(IllegalAction) as refusal:
        state.apply({"kind": "equip", "player": 0, "card": second, "pay": {"E": 2}})
    assert "already equipped on the arms" in str(refusal.value)
    assert state.to_json() == before
    assert state.armour(0)["polished_metal"] == 3  # never 6


def test_your_allies_get_plus_x_plus_y():
    """G-buff (000, VII): « Vos Alliés obtiennent +x/+y »: Meneur gives every ally of its owner +0/+1, and
    only theirs."""
    state = turn_of(started(), 0)
    mine = give(state, 0, "garde-de-caravane-1", "play")
    theirs = give(state, 1, "garde-de-caravane-1", "play")
    assert (state.ally_power(mine), state.ally_max_life(mine)) == (1, 4)
    give(state, 0, "meneur-3", "special")
    assert (state.ally_power(mine), state.ally_max_life(mine)) == (1, 5)
    assert (state.ally_power(theirs), state.ally_max_life(theirs)) == (1, 4)


def test_armure_xn_is_taken_from_every_blow_on_the_ally():
    """G-armurexn (000, VII): ARMURE xN, « une Attaque doit dépasser ce nombre pour infliger des dégats »: the
    Garde de caravane (ARMURE x1) takes one less from a punch, nothing from a blow of 1."""
    state = turn_of(started(), 0)
    clear_hands(state)
    guard = give(state, 1, "garde-de-caravane-1", "play")
    set_points(state, 0, "S", 3)
    punch = give(state, 0, "coup-de-poing-1")
    state.rng = Dice(NO_CRIT)
    events = state.apply({"kind": "play", "player": 0, "card": punch, "pay": {"S": 1}, "target": {"card": guard}})
    events += pass_all(state)
    blow = events_of(events, "attack")[0]
    assert blow["armour"] == 1
    assert blow["final"] == blow["raw"] - 1
    assert state.ally_armour(guard, "generic") == 1
    assert state.ally_armour(guard, "generic", penetration=1) == 0


def test_special_cards_are_dons_never_targeted_nor_destroyed():
    """G-don (000, VII): « Don : Autrement appelé « Aptitude » … ne peuvent être ni ciblé ni détruit »: a SPECIAL
    card, even one with a bonus (Meneur), is never offered as a target and is refused as one."""
    state = turn_of(started(), 0)
    clear_hands(state)
    leader = give(state, 1, "meneur-3", "special")
    set_points(state, 0, "I", 3)
    emp = give(state, 0, "impulsion-emp-3")
    hack = give(state, 0, "piratage-de-terminal-2")
    specials = state.players[1].zones["special"]
    assert leader in specials
    offered = targets_of(state, 0, emp) + targets_of(state, 0, hack)
    assert not any(t and t.get("card") in specials for t in offered)
    before = state.to_json()
    for card, pay in ((emp, {"I": 3}), (hack, {"I": 2})):
        with pytest.raises(IllegalAction):
            state.apply({"kind": "play", "player": 0, "card": card, "pay": pay, "target": {"card": leader}})
    assert state.to_json() == before


def test_gardez_the_cards_found_or_kept_stay_in_the_hand():
    """G-gardez (000, VII): « Gardez : Signifie que le joueur garde la ou les cartes dont il est question dans sa
    main »: the card a search finds is kept in hand (not played), and a hand kept at the mulligan is the hand."""
    state = turn_of(started(), 0)
    clear_hands(state)
    set_points(state, 0, "C", 2)
    quest = give(state, 0, "recrutement-1")
    state.apply({"kind": "play", "player": 0, "card": quest, "pay": {"C": 1}})
    pass_all(state)
    found = state.legal_actions(0)[0]["card"]
    state.apply({"kind": "search", "player": 0, "card": found})
    hand = [state.cards[u].cid for u in state.players[0].zones["hand"]]
    assert hand == [found]
    assert not state.players[0].zones["play"]

    state = new_game(config(), 2)
    for i in (0, 1):
        state.apply({"kind": "choose_traits", "player": i, "traits": []})
    for i in (0, 1):
        state.apply({"kind": "choose_skills", "player": i, "skills": ["medecine-1", "troc-1", "science-1"]})
    hands = [list(p.zones["hand"]) for p in state.players]
    while state.phase == "mulligan":
        state.apply({"kind": "keep", "player": state.current_players()[0], "bottom": []})
    assert [p.zones["hand"][: len(h)] for p, h in zip(state.players, hands, strict=True)] == hands


def test_incapacite_discards_a_card_with_a_capacity_without_any_damage_step():
    """G-incapacite (000, VII): « Une Attaque d'Incapacité permet de cibler et de défausser n'importe quelle carte
    … qui possède une Capacité … Les Alliés dans ce cas-là sont simplement défaussé, sans Phase de calcul de
    dégat »: no attack roll, no counter-attack; an ally without any capacity is not reached."""
    state = turn_of(started(), 0)
    clear_hands(state)
    guard = give(state, 1, "garde-de-caravane-1", "play")  # EN DÉFENSE, ARMURE: capacities
    set_points(state, 0, "I", 3)
    emp = give(state, 0, "impulsion-emp-3")
    life = state.players[0].life
    assert {"card": guard} in targets_of(state, 0, emp)
    state.rng = Dice([1, 1, 1])  # a critical, were the dice rolled
    events = state.apply({"kind": "play", "player": 0, "card": emp, "pay": {"I": 3}, "target": {"card": guard}})
    events += pass_all(state)
    assert state.cards[guard].zone == "discard"
    assert events_of(events, "incapacitated")
    assert not events_of(events, "attack") and not events_of(events, "counter_attack")
    assert state.players[0].life == life

    # An ally without any capacity (Milicien, a plain 2/2) is not discarded: the attack's damage step applies.
    state = turn_of(started(), 0)
    clear_hands(state)
    plain = give(state, 1, "milicien-1", "play")
    set_points(state, 0, "I", 3)
    emp = give(state, 0, "impulsion-emp-3")
    state.rng = Dice(NO_CRIT)
    events = state.apply({"kind": "play", "player": 0, "card": emp, "pay": {"I": 3}, "target": {"card": plain}})
    events += pass_all(state)
    assert state.cards[plain].zone == "play"
    assert not events_of(events, "incapacitated") and events_of(events, "attack")


@pytest.mark.parametrize("missing", [0, 2, 6])
def test_healing_never_exceeds_the_maximum_life(missing):
    """G-maxvie and G-soins (000, VII): « Il ne peut pas être dépassé par des Soins » ; « On ne peut jamais
    dépasser le maximum de Point de Vie d'un joueur »."""
    state = turn_of(started(), 0)
    clear_hands(state)
    p = state.players[0]
    p.life = p.max_life - missing
    stim = give(state, 0, "stimpak-1")  # Heal 6 life
    state.apply({"kind": "play", "player": 0, "card": stim, "pay": {"E": 1}})
    pass_all(state)
    assert p.life == min(p.max_life, p.max_life - missing + 6)


def test_healing_is_for_players_never_for_allies():
    """G-soins (000, VII): « Un soin guéri les points de vie d'un joueur, on ne peut jamais guérir un Allié »: a
    heal offers no ally as its target and leaves a hurt ally as it was."""
    state = turn_of(started(), 0)
    clear_hands(state)
    ally = give(state, 0, "garde-de-caravane-1", "play")
    state.cards[ally].damage = 2
    state.players[0].life -= 10
    stim = give(state, 0, "stimpak-1")
    assert targets_of(state, 0, stim) == [None]
    state.apply({"kind": "play", "player": 0, "card": stim, "pay": {"E": 1}})
    pass_all(state)
    assert state.cards[ally].damage == 2
    with pytest.raises(IllegalAction):
        other = give(state, 0, "stimpak-1")
        state.apply({"kind": "play", "player": 0, "card": other, "pay": {"E": 1}, "target": {"card": ally}})


def test_a_quest_plays_like_an_action_but_an_action_search_never_finds_it():
    """G-quete (000, VII): « Quête : Similaire à une Action, mais ne peut pas être cherché dans la Bibliothèque
    comme tel »."""
    state = turn_of(started(), 0)
    for uid in list(state.players[0].zones["library"]):
        state.move(uid, "discard")
    give(state, 0, "recrutement-1", "library")
    give(state, 0, "stimpak-1", "library")
    assert state.search_matches(0, "action", None) == ["stimpak-1"]
    assert state.search_matches(0, "quest", None) == ["recrutement-1"]
    # Like an Action: played from the hand in the main phase, on the stack, then to the discard.
    clear_hands(state)
    set_points(state, 0, "C", 2)
    quest = give(state, 0, "recrutement-1")
    state.apply({"kind": "play", "player": 0, "card": quest, "pay": {"C": 1}})
    pass_all(state)
    assert state.cards[quest].zone == "discard"


def test_traits_are_unique():
    """G-trait (000, VII): « Ils sont forcément « Uniques » (puisqu'il n'est pas possible d'avoir deux fois le
    même Trait) »: the same Trait twice is refused, and never offered."""
    state = new_game(config(), 3)
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply({"kind": "choose_traits", "player": 0, "traits": ["peau-dure-1", "peau-dure-1"]})
    assert state.to_json() == before
    assert all(len(set(a["traits"])) == len(a["traits"]) for a in state.legal_actions(0))
