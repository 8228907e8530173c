"""Healing « quand il le souhaite »: cards and blood markers, in one's own turn and in another's."""

from __future__ import annotations

import pytest

from frag.engine import IllegalAction
from tests.frag.arena import OPEN, arena, snapshot


def hurt_defender(**defender):  # type: ignore[no-untyped-def]
    # P0 (Précision 4: two attacks) shoots P1 (Santé 3) twice; the script: hit for 1, then the second attack.
    return arena(
        OPEN,
        fighters=[{"at": (1, 1), "accuracy": 4}, {"at": (1, 4), "health": 3, **defender}],
        dice=[6, 6, 6, 6] + [4, 4] + [2, 2, 2] + [6, 6, 6, 6] + [1, 1] + [6, 6, 6],
    )


def test_a_defender_hurt_by_the_first_attack_spends_a_blood_marker_before_the_second() -> None:
    """« Le Marqueur de Sang : [...] Quand il le souhaite, il peut le dépenser pour récupérer un point de santé
    perdu. » : in the attacker's turn, between two attacks."""
    state = hurt_defender()
    state.fighters[1].blood = 1
    state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    assert state.fighters[1].hp == 2
    assert state.current_players() == [0]
    assert state.legal_actions(1) == [{"type": "spend_blood", "player": 1}]
    events = state.apply({"type": "spend_blood", "player": 1})
    assert [e["type"] for e in events] == ["spent_blood", "healed"]
    assert state.fighters[1].hp == 3 and state.fighters[1].blood == 0
    # The turn is still the attacker's: its second attack follows.
    assert state.current_players() == [0]
    state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})


def test_a_healing_card_is_played_in_another_s_turn() -> None:
    """« il peut utiliser une carte ou un Marqueur de Sang pour se redonner de la Santé »"""
    state = hurt_defender(hand=["trousse_soins"])
    state.apply({"type": "attack", "player": 0, "target": 1, "weapon": "pistol"})
    uid = state.fighters[1].hand[0]
    assert {"type": "play", "player": 1, "card": uid} in state.legal_actions(1)
    state.apply({"type": "play", "player": 1, "card": uid})
    assert state.fighters[1].hp == 3


def test_in_another_s_turn_only_healing_and_only_when_hurt() -> None:
    state = hurt_defender(hand=["trousse_soins"])
    state.fighters[1].blood = 1
    before = snapshot(state)
    # Unhurt: nothing to heal, nothing offered.
    assert state.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply({"type": "spend_blood", "player": 1})
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply({"type": "roll", "player": 1})
    assert snapshot(state) == before
