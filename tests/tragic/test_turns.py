"""The turn: phases, costs, SPECIAL placement, the stack, the end of the game (000, III.3–7 and V.10)."""

from __future__ import annotations

import pytest

from tests.tragic.helpers import Dice, clear_hands, events_of, give, pass_all, set_points, started, turn_of
from tragic.engine import IllegalAction


def test_paying_a_cost_takes_the_named_attribute_then_any_points_chosen():
    """« "1 S" et "2 SPECIAL" revient à tourner une carte Force … puis à choisir … 2 de votre choix »."""
    state = turn_of(started(), 0)
    set_points(state, 0, "S", 3)
    bat = give(state, 0, "coup-de-batte-2")  # 2 S + 1 any
    before = state.to_json()
    with pytest.raises(IllegalAction) as refusal:
        state.apply(
            {"kind": "play", "player": 0, "card": bat, "pay": {"S": 1, "P": 1, "L": 1}, "target": {"player": 1}}
        )
    assert refusal.value.code == "unpaid_cost" and "2 S" in refusal.value.reason
    assert state.to_json() == before
    state.apply({"kind": "play", "player": 0, "card": bat, "pay": {"S": 2, "L": 1}, "target": {"player": 1}})
    assert state.available(0, "L") == 0 and state.available(0, "S") == 1


def test_wrong_phase_and_wrong_player_are_refused_and_change_nothing():
    state = turn_of(started(), 0)
    punch = give(state, 1, "coup-de-poing-1")
    before = state.to_json()
    with pytest.raises(IllegalAction) as refusal:
        state.apply({"kind": "play", "player": 1, "card": punch, "pay": {"S": 1}, "target": {"player": 0}})
    assert refusal.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as refusal:
        state.apply({"kind": "pass", "player": 0})
    assert refusal.value.code == "wrong_phase"
    assert state.to_json() == before


def test_wiki_special_placed_only_after_a_main_phase_cost_once_the_stack_resolved():
    """« après payé un cout (et résolu la pile d'événement qui en découle) … le joueur peut lancer une carte
    d'Aptitude SPECIAL » (001)."""
    state = turn_of(started(), 0)
    clear_hands(state)
    aptitude = give(state, 0, "aptitude-force-1")
    punch = give(state, 0, "coup-de-poing-1")
    give(state, 1, "esquive-1")  # so that player 1 may answer, and the stack waits
    with pytest.raises(IllegalAction):
        state.apply({"kind": "place_special", "player": 0, "card": aptitude})
    state.apply({"kind": "play", "player": 0, "card": punch, "pay": {"S": 1}, "target": {"player": 1}})
    assert state.window == "pending"
    pass_all(state)
    assert state.window == "open"
    state.apply({"kind": "place_special", "player": 0, "card": aptitude})
    # « Il peut payer avec cette carte dès le moment où elle est posée »
    assert state.available(0, "S") == 1 and state.points(0, "S") == 2


def test_booklet_special_may_follow_the_cost_at_once():
    state = turn_of(started(profile="booklet"), 0)
    clear_hands(state)
    give(state, 0, "aptitude-force-1")
    punch = give(state, 0, "coup-de-poing-1")
    state.apply({"kind": "play", "player": 0, "card": punch, "pay": {"S": 1}, "target": {"player": 1}})
    assert state.window == "open"


def test_the_window_closes_with_the_next_action():
    """« je paie une carte A, puis je paie une carte B, je ne peux pas poser d'Aptitude pour l'action A »."""
    state = turn_of(started(), 0)
    clear_hands(state)
    give(state, 0, "aptitude-force-1")
    stimpak = give(state, 0, "stimpak-1")
    magazine = give(state, 0, "lecture-de-magazine-1")
    give(state, 1, "contre-mesure-2")  # player 1 may answer the magazine: the stack waits for them
    set_points(state, 1, "I", 2)
    state.apply({"kind": "play", "player": 0, "card": stimpak, "pay": {"E": 1}})
    pass_all(state)
    assert state.window == "open"
    state.apply({"kind": "play", "player": 0, "card": magazine, "pay": {"I": 1}})
    assert state.window == "pending"


def test_reaction_on_the_opponents_turn_gives_no_special():
    """« L'utilisation d'une carte Réaction ayant lieu pendant le tour adverse ne permet pas de poser »."""
    state = turn_of(started(), 0)
    punch = give(state, 0, "coup-de-poing-1")
    parry = give(state, 1, "parade-1")
    state.apply({"kind": "play", "player": 0, "card": punch, "pay": {"S": 1}, "target": {"player": 1}})
    state.apply({"kind": "react", "player": 1, "card": parry, "pay": {"S": 1}})
    assert state.window == "pending"  # player 0's window, not player 1's


def test_the_stack_resolves_last_in_first_out_with_reactions_to_reactions():
    """« Joueur 2 Réagis à cette action … son action sera donc résolu en premier … si l'action du Joueur 1 est
    toujours valide … alors il effectue son action »."""
    state = turn_of(started(), 0)
    set_points(state, 0, "I", 3)
    set_points(state, 1, "I", 3)
    magazine = give(state, 0, "lecture-de-magazine-1")
    counter_1 = give(state, 1, "contre-mesure-2")
    counter_0 = give(state, 0, "contre-mesure-2")
    hand = len(state.players[0].zones["hand"])
    state.apply({"kind": "play", "player": 0, "card": magazine, "pay": {"I": 1}})
    assert state.current_players() == [1]
    state.apply({"kind": "react", "player": 1, "card": counter_1, "pay": {"I": 2}})
    assert state.current_players() == [0]
    events = state.apply({"kind": "react", "player": 0, "card": counter_0, "pay": {"I": 2}})
    # Player 1 has nothing left to answer with, so is not asked: player 0's counter cancels player 1's,
    # then the magazine resolves.
    cancelled = [e["card"] for e in events if e["t"] == "cancelled"]
    assert cancelled == ["contre-mesure-2"]
    assert [e["t"] for e in events].index("cancelled") < [e["t"] for e in events].index("drew")
    assert len(state.players[0].zones["hand"]) == hand - 2 + 2  # magazine and counter left, two cards drawn
    assert not state.stack


def test_draw_phase_with_an_empty_library_loses():
    """« Si un joueur ne peut plus piocher à cette Phase (et seulement à cette Phase), il perd »."""
    state = turn_of(started(), 0)
    for uid in list(state.players[1].zones["library"]):
        state.move(uid, "discard")
    state.apply({"kind": "end_turn", "player": 0})
    assert state.is_over() and state.winner() == 0
    assert state.players[1].lost_reason == "library"


def test_one_card_left_is_enough_to_go_on():
    """« S'il reste au moins une carte dans sa Bibliothèque mais qu'il doit en piocher plus d'une, la partie continue »."""
    state = turn_of(started(), 0)
    for uid in list(state.players[1].zones["library"])[1:]:
        state.move(uid, "discard")
    state.apply({"kind": "end_turn", "player": 0})
    assert not state.is_over() and state.active == 1


def test_disengage_leaves_equipment_alone():
    """« ATTENTION : Il ne doit pas désengager de carte à ce moment-là dans sa ZONE D'ÉQUIPEMENT !! »"""
    state = turn_of(started(), 0)
    armour = give(state, 1, "armure-de-combat-2", "equipment", engaged=True)
    skill = state.players[1].zones["skill"][0]
    state.cards[skill].engaged = True
    state.players[1].engaged_points["S"] = 1
    state.apply({"kind": "end_turn", "player": 0})
    assert state.cards[armour].engaged and not state.cards[skill].engaged
    assert state.available(1, "S") == state.points(1, "S")


def test_both_at_zero_is_a_draw():
    """« en cas d'égalité, c'est un match nul (zéro Point de Vie étant la valeur absolue …) »."""
    state = turn_of(started(), 0)
    state.players[0].life = 2
    state.players[1].life = 1
    raider = give(state, 1, "pillard-kamikaze-2", "play")  # MARTYR x3 and a counter-attack of 2
    punch = give(state, 0, "coup-de-poing-1")
    state.rng = Dice([6, 6, 6])
    state.apply({"kind": "play", "player": 0, "card": punch, "pay": {"S": 1}, "target": {"card": raider}})
    state.players[1].life = 0
    pass_all(state)
    assert state.is_over() and state.winner() is None


def test_timer_waits_for_equal_turns_and_least_damage_wins():
    """« Le joueur A, humain, termine … avec 30 PV, le joueur B, Griffemort … avec 31 PV. Le joueur A remporte
    la partie car il a infligé davantage de dégat » (000, V.10.c)."""
    state = turn_of(started(traits=[[], ["griffemort-2"]], profile="booklet"), 0)
    state.first_player = 0
    state.players[0].life, state.players[1].life = 30, 31  # 70 and 89 damage taken (max 100 and 120)
    state.players[0].turns_played, state.players[1].turns_played = 5, 4
    state.apply({"kind": "time_up"})
    state.apply({"kind": "end_turn", "player": 0})
    assert not state.is_over()  # player 1 still plays their fifth turn
    while state.phase != "main":
        player = state.current_players()[0]
        state.apply([a for a in state.legal_actions(player) if a["kind"] == "end_upkeep"][0])
    state.apply({"kind": "end_turn", "player": 1})
    assert state.is_over() and state.winner() == 0


def test_concession_hands_the_win():
    state = turn_of(started(), 0)
    state.apply({"kind": "concede", "player": 1})
    assert state.winner() == 0


def test_terminez_immediatement_votre_tour_still_allows_the_special():
    """« Un effet demandant de terminer immédiatement le tour … à l'exception du droit de poser une carte
    Aptitude » (000, V.7)."""
    state = turn_of(started(), 0)
    clear_hands(state)
    getaway = give(state, 0, "fuite-1")
    aptitude = give(state, 0, "aptitude-agilite-1")
    state.apply({"kind": "play", "player": 0, "card": getaway, "pay": {"A": 1}})
    pass_all(state)
    assert state.ending and state.active == 0
    assert {a["kind"] for a in state.legal_actions(0)} == {"place_special", "end_turn"}
    state.apply({"kind": "place_special", "player": 0, "card": aptitude})
    assert state.active == 1


WATER_PURIFIER = {
    "id": "purificateur-1",
    "name": "Purificateur d'eau",
    "name_en": "Water purifier",
    "type": "building",
    "level": 1,
    "life": 3,
    "keywords": {"ENTRETIEN": True},
    "effects": [{"op": "heal", "n": 2, "when": "upkeep"}],
    "text": "ENTRETIEN : soignez-vous de 2 PV.",
    "text_en": "Upkeep: heal 2 life.",
}


def test_upkeep_effects_are_resolved_in_the_chosen_order():
    """« Vous pouvez résoudre les effets d'entretien de ces cartes dans l'ordre de votre choix »."""
    state = turn_of(started(extra_cards=[WATER_PURIFIER]), 1)
    give(state, 0, "purificateur-1", "play")
    state.players[0].addictions["Buffout"] = 1
    state.players[0].life = 40
    state.apply({"kind": "end_turn", "player": 1})
    assert state.phase == "upkeep"
    assert sorted(e["kind"] for e in state.upkeep_todo) == ["accro", "effect"]
    with pytest.raises(IllegalAction) as refusal:
        state.apply({"kind": "end_upkeep", "player": 0})
    assert refusal.value.code == "upkeep_pending"
    accro = next(e for e in state.upkeep_todo if e["kind"] == "accro")
    state.apply({"kind": "upkeep", "player": 0, "entry": accro["id"], "pay": {"E": 1}})
    effect = next(e for e in state.upkeep_todo if e["kind"] == "effect")
    events = state.apply({"kind": "upkeep", "player": 0, "entry": effect["id"]})
    assert state.players[0].life == 42
    # The log tells which card's upkeep was resolved.
    assert [(e["player"], e["card"]) for e in events_of(events, "upkeep")] == [(0, "purificateur-1")]
    state.apply({"kind": "end_upkeep", "player": 0})
    assert state.phase == "main"


def test_accro_withdrawal_when_neither_paid_nor_discarded():
    state = turn_of(started(), 1)
    state.players[0].addictions["Nuka-Cola Quantum"] = 2
    life = state.players[0].life
    state.apply({"kind": "end_turn", "player": 1})
    accro = state.upkeep_todo[0]
    state.apply({"kind": "upkeep", "player": 0, "entry": accro["id"]})
    assert state.players[0].life == life - 4


def test_radaway_works_when_disengaged_and_is_paid_again_in_upkeep():
    """Erratum 4: « il faut bien la désengager pour obtenir l'effet de la drogue … lorsque cette carte est
    désengagée, payez son cout pour l'engager »."""
    state = turn_of(started(), 0)
    set_points(state, 0, "E", 2)
    radaway = give(state, 0, "radaway-3")
    state.players[0].radiation = 3
    state.apply({"kind": "play", "player": 0, "card": radaway, "pay": {"E": 1, "S": 1}})
    assert state.cards[radaway].engaged and state.players[0].radiation == 3
    state.apply({"kind": "end_turn", "player": 0})
    state.apply({"kind": "end_turn", "player": 1}) if state.phase == "main" else None
    while state.active != 0:
        player = state.current_players()[0]
        state.apply(next(a for a in state.legal_actions(player) if a["kind"] in ("end_upkeep", "end_turn")))
    assert state.players[0].radiation == 2
    entry = next(e for e in state.upkeep_todo if e["kind"] == "engage_cost")
    state.apply({"kind": "upkeep", "player": 0, "entry": entry["id"], "pay": {"E": 1, "S": 1}})
    assert state.cards[radaway].engaged and state.cards[radaway].zone == "play"


def test_end_of_turn_effects_and_allies_heal():
    state = turn_of(started(), 0)
    give(state, 0, "distillerie-2", "play")
    state.players[0].life = 40
    dog = give(state, 1, "canigou-2", "play")
    state.cards[dog].damage = 3
    events = state.apply({"kind": "end_turn", "player": 0})
    assert state.players[0].life == 42 and state.cards[dog].damage == 0
    assert events_of(events, "end_of_turn_effect")


def test_an_accro_cost_is_offered_paid_in_points_by_a_discard_or_withdrawn():
    """« payer un cout « Accro » en défaussant une carte ou en payant en Point d'Action » (000, III.4.d): the
    upkeep offers the three answers to an addiction of index 2 — pay 2 points of any attribute, discard a card,
    or neither (the withdrawal, 2 × 2 life)."""
    state = turn_of(started(), 1)
    set_points(state, 0, "E", 2)
    state.players[0].addictions["Nuka-Cola Quantum"] = 2
    state.apply({"kind": "end_turn", "player": 1})
    [accro] = state.upkeep_todo
    offered = [a for a in state.legal_actions(0) if a["kind"] == "upkeep"]
    hand = state.players[0].zones["hand"]
    assert [sorted(a) for a in offered] == [
        ["entry", "kind", "pay", "player"],
        ["discard", "entry", "kind", "player"],
        ["entry", "kind", "player"],
    ]
    assert sum(offered[0]["pay"].values()) == 2 and offered[1]["discard"] == hand[0]
    with pytest.raises(IllegalAction) as refused:
        state.apply({"kind": "upkeep", "player": 0, "entry": accro["id"] + 1})
    assert refused.value.code == "bad_choice"


def test_leaving_the_vault_is_paid_in_the_upkeep_with_its_capacity_s_cost():
    """FAQ 11: « il faut payer « pour » sortir pendant l'Entretien »; the card: « Pendant votre Entretien, payez le
    cout de cette Capacité pour sortir » (2 Endurance + 1 SPECIAL). Staying in costs nothing."""
    state = turn_of(started(), 0)
    set_points(state, 0, "E", 6)
    vault = give(state, 0, "abri-vault-tec-inacheve-3", "play")
    state.apply({"kind": "activate", "player": 0, "card": vault, "pay": {"E": 3}})
    pass_all(state)
    assert state.players[0].sheltered == vault
    state.apply({"kind": "end_turn", "player": 0})
    while state.active != 0 or state.phase != "upkeep":
        player = state.current_players()[0]
        state.apply(next(a for a in state.legal_actions(player) if a["kind"] in ("end_upkeep", "end_turn")))
    [exit_] = state.upkeep_todo
    assert exit_["kind"] == "shelter_exit" and exit_.get("optional")
    offered = [a for a in state.legal_actions(0) if a["kind"] in ("upkeep", "end_upkeep")]
    assert [a["kind"] for a in offered] == ["upkeep", "end_upkeep"] and sum(offered[0]["pay"].values()) == 3
    for short in ({}, {"E": 2}):
        with pytest.raises(IllegalAction) as refused:
            state.apply({"kind": "upkeep", "player": 0, "entry": exit_["id"], "pay": short})
        assert refused.value.code == "unpaid_cost"
    points = state.available(0, "E")
    state.apply({"kind": "upkeep", "player": 0, "entry": exit_["id"], "pay": {"E": 3}})
    assert state.players[0].sheltered is None and state.available(0, "E") == points - 3


def test_when_the_player_whose_turn_it_is_concedes_the_next_player_begins():
    """« Un joueur peut décider d'abandonner la partie … Ces derniers peuvent continuer à jouer sans lui » (000,
    V.10.a): with three players, the one whose turn it was leaves, with nothing on the table, and the next player
    clockwise begins their turn."""
    state = turn_of(started(players=3), 0)
    assert not any(state.zone(0, zone) for zone in ("play", "combat", "equipment"))
    state.apply({"kind": "concede", "player": 0})
    assert not state.is_over() and state.active == 1
    assert state.current_players() == [1] and 0 not in state.priority
