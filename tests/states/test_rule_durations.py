"""How long a situation lasts and how much it weighs, each at its boundary (seed 004's « Situations » and « Ruse »
cards, « Fatigue »): a broken duration or amount fails here, not only a flag."""

from __future__ import annotations

import random

import pytest

from states.models import SavageState
from states.rules.dice import Modifier
from states.rules.states import CardState, fatigue_penalty, roll_penalties
from states.services.fatigue import savage_fatigue_gain
from states.services.rolls import savage_trait_roll, savage_trick
from states.services.rounds import savage_round_deal, savage_round_next_turn, savage_round_set_participants
from states.services.sheet import savage_sheet_update
from states.services.situations import parry_of, savage_situation_toggle
from tests.states.dice import ScriptedDice

BASE_PARRY = 5


def _state(character) -> SavageState:  # type: ignore[no-untyped-def]
    return SavageState.objects.get(character=character)


def _sheets(table) -> None:  # type: ignore[no-untyped-def]
    for character, actor in ((table.pc, table.alice), (table.npc, table.narrator)):
        savage_sheet_update(
            character=character,
            actor=actor,
            data={"vigor_die": "d6", "spirit_die": "d6", "base_pace": 6, "base_parry": BASE_PARRY},
            expected_version=None,
        )


def _round_with_the_pc_first(table) -> None:  # type: ignore[no-untyped-def]
    """Deal a round in which Jim acts before Le Borgne (a seed found once, then checked)."""
    savage_round_set_participants(
        campaign=table.campaign, actor=table.narrator, characters=[table.pc, table.npc], expected_version=None
    )
    for seed in range(50):
        tracker = savage_round_deal(
            campaign=table.campaign, actor=table.narrator, expected_version=None, rng=random.Random(seed)
        )
        if tracker.order[0] == table.pc.pk:
            return
    raise AssertionError("no seed deals Jim first")


def test_defence_plus_two_parry_lasts_through_other_turns_and_ends_at_the_defenders_next_action(table) -> None:
    """« Si la seule action d'un personnage durant un Round consiste à se défendre, il reçoit un bonus de +2 à sa
    Parade jusqu'à son action suivante. » Jim's turn does not end Le Borgne's defence; Le Borgne's own turn does."""
    _sheets(table)
    savage_situation_toggle(character=table.npc, actor=table.narrator, situation="defend", expected_version=None)
    assert parry_of(_state(table.npc)).value == BASE_PARRY + 2
    _round_with_the_pc_first(table)
    assert "defend" in _state(table.npc).situations  # another character's action does not end it
    assert parry_of(_state(table.npc)).value == BASE_PARRY + 2
    savage_round_next_turn(campaign=table.campaign, actor=table.narrator, expected_version=None)  # Le Borgne acts
    assert "defend" not in _state(table.npc).situations
    assert parry_of(_state(table.npc)).value == BASE_PARRY


def test_a_trick_is_minus_two_parry_never_minus_four_until_the_targets_next_action(table) -> None:
    """Ruse: « Succès : l'adversaire est distrait et subit un malus de -2 en Parade jusqu'à sa prochaine action »;
    « Les pénalités dues aux ruses ne sont pas cumulables. » The −2 holds through the trickster's turn and ends
    at the target's."""
    _sheets(table)
    # Jim (Wild Card, d4 Agility): 3 with a Wild Die of 5 → 5; the NPC (an extra) rolls 2. A success.
    savage_trick(
        character=table.pc, target=table.npc, actor=table.alice, attribute="agility", expected_version=None,
        rng=ScriptedDice(3, 5, 2),
    )  # fmt: skip
    assert parry_of(_state(table.npc)).value == BASE_PARRY - 2
    savage_trick(
        character=table.pc, target=table.npc, actor=table.alice, attribute="agility", expected_version=None,
        rng=ScriptedDice(3, 5, 2),
    )  # fmt: skip
    assert parry_of(_state(table.npc)).value == BASE_PARRY - 2  # not −4
    _round_with_the_pc_first(table)
    assert parry_of(_state(table.npc)).value == BASE_PARRY - 2  # Jim's turn: still distracted
    savage_round_next_turn(campaign=table.campaign, actor=table.narrator, expected_version=None)
    assert not _state(table.npc).tricked and parry_of(_state(table.npc)).value == BASE_PARRY


@pytest.mark.parametrize("levels", [0, 1, 2])
def test_each_level_of_fatigue_is_minus_one_to_every_trait_roll(levels: int) -> None:
    """« Chaque niveau de Fatigue inflige un malus de -1 à tous les jets de Trait »: at every level, not only one."""
    state = CardState(fatigue=levels)
    assert fatigue_penalty(state) == -levels
    assert roll_penalties(state) == ((Modifier("fatigue", -levels),) if levels else ())


@pytest.mark.parametrize("levels", [1, 2])
def test_the_roll_dialog_takes_one_from_the_roll_per_level_of_fatigue(table, levels: int) -> None:
    """The same rule through the service a player taps: one level −1, two levels −2 (d8 showing 7, Wild Die 3)."""
    _sheets(table)
    for _ in range(levels):
        savage_fatigue_gain(character=table.pc, actor=table.alice, source="cold", expected_version=None)
    roll = savage_trait_roll(
        character=table.pc, actor=table.alice, trait="other", die="d8", expected_version=None,
        rng=ScriptedDice(7, 3),
    )  # fmt: skip
    assert {m.key: m.value for m in roll.modifiers} == {"fatigue": -levels}
    assert roll.total == 7 - levels
