"""The rule items the audit of issue 15 found wrong, each checked against the text it quotes."""

from __future__ import annotations

import pytest

from tests.tragic.helpers import at_mulligan, config, give, set_points, started, turn_of
from tragic.engine import new_game


def test_excess_damage_of_an_ally_attacking_an_ally_reaches_its_owner():
    """EXCÈS DE DÉGATS: « Un Allié ou une Attaque avec Excès de Dégats infligera le surplus de dégat au
    joueur subissant l'attaque » (000, VII): Griffemort apprivoisé 7/6 on a Milicien 2/2 → 5 to its owner."""
    state = turn_of(started(), 0)
    deathclaw = give(state, 0, "griffemort-apprivoise-3", "play")
    milicien = give(state, 1, "milicien-1", "play")
    life = state.players[1].life
    state.apply({"kind": "ally_attack", "player": 0, "allies": [deathclaw], "target": {"card": milicien}})
    while state.priority:
        state.apply({"kind": "pass", "player": state.priority[0]})
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
        state.apply({"kind": "pass", "player": state.priority[0]})
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
        state.apply({"kind": "pass", "player": state.priority[0]})
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
        state.apply({"kind": "pass", "player": state.priority[0]})
    groups = {tuple(a["blockers"]) for a in state.legal_actions(1) if a["kind"] == "block"}
    assert (guards[0], guards[2]) in groups and tuple(guards) in groups and () in groups
    state.apply({"kind": "block", "player": 1, "blockers": guards[:2], "split": [4, 3]})
    assert state.cards[guards[2]].zone == "play"
