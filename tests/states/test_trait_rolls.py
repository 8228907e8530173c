"""Savage-style trait rolls: trait die, Wild Die, aces, target 4, raises, critical failure."""

from __future__ import annotations

import random

import pytest

from states.rules.dice import MAX_ACES, Modifier, Outcome, TraitDie, grade, roll_acing, trait_roll
from tests.states.dice import ScriptedDice


def test_trait_dice_read_and_write_as_on_the_sheet():
    assert TraitDie.parse("d8") == TraitDie(8)
    assert TraitDie.parse("d12+2") == TraitDie(12, 2)
    assert TraitDie.parse("d4−2") == TraitDie(4, -2)
    assert str(TraitDie(4, -2)) == "d4-2" and str(TraitDie(12, 1)) == "d12+1"
    with pytest.raises(ValueError):
        TraitDie.parse("d7")
    with pytest.raises(ValueError):
        TraitDie(20)


def test_a_die_that_shows_its_maximum_is_rolled_again_and_added():
    assert roll_acing(ScriptedDice(6, 6, 2), 6) == (6, 6, 2)
    assert roll_acing(ScriptedDice(3), 6) == (3,)


def test_target_four_and_a_raise_for_each_full_four_above_it():
    assert grade(3) == (Outcome.FAILURE, 0)
    assert grade(4) == (Outcome.SUCCESS, 0)
    assert grade(7) == (Outcome.SUCCESS, 0)
    assert grade(8) == (Outcome.RAISE, 1)
    assert grade(12) == (Outcome.RAISE, 2)


def test_a_wild_card_keeps_the_better_of_trait_die_and_wild_die():
    roll = trait_roll(ScriptedDice(2, 5), TraitDie(8), wild_card=True)
    assert roll.trait_faces == (2,) and roll.wild_faces == (5,)
    assert roll.total == 5 and roll.used_wild_die and roll.outcome is Outcome.SUCCESS


def test_an_extra_rolls_one_die_only():
    roll = trait_roll(ScriptedDice(3), TraitDie(8), wild_card=False)
    assert roll.wild_faces == () and roll.total == 3 and roll.outcome is Outcome.FAILURE


def test_modifiers_and_the_dies_own_bonus_are_added_and_shown():
    mods = [Modifier("wounds", -2), Modifier("aim", 2), Modifier("fatigue", -1)]
    roll = trait_roll(ScriptedDice(5, 1), TraitDie(12, 1), wild_card=True, modifiers=mods)
    assert roll.total == 5 + 1 - 1
    assert roll.modifiers == tuple(mods) and roll.modifier_total == -1
    assert roll.to_json()["modifiers"] == [
        {"key": "wounds", "value": -2},
        {"key": "aim", "value": 2},
        {"key": "fatigue", "value": -1},
    ]


def test_aces_can_make_raises():
    roll = trait_roll(ScriptedDice(8, 4, 2), TraitDie(8), wild_card=True)
    assert roll.trait_faces == (8, 4) and roll.total == 12
    assert roll.outcome is Outcome.RAISE and roll.raises == 2


def test_double_one_is_a_critical_failure_for_a_wild_card_whatever_the_modifiers():
    roll = trait_roll(ScriptedDice(1, 1), TraitDie(6), wild_card=True, modifiers=[Modifier("surprise_attack", 4)])
    assert roll.total == 5
    assert roll.outcome is Outcome.CRITICAL_FAILURE


def test_an_extra_rolling_one_simply_fails():
    roll = trait_roll(ScriptedDice(1), TraitDie(6), wild_card=False)
    assert roll.outcome is Outcome.FAILURE


def test_seeded_rolls_are_reproducible():
    a = trait_roll(random.Random(7), TraitDie(10), wild_card=True)
    b = trait_roll(random.Random(7), TraitDie(10), wild_card=True)
    assert a == b


def test_a_critical_failure_brings_no_raise_whatever_the_total():
    """« a critical failure when both dice of a Wild Card show 1 » (the module's contract): a failure, so no raise, even
    when the modifiers bring the total to a raise's worth."""
    roll = trait_roll(ScriptedDice(1, 1), TraitDie(6), wild_card=True, modifiers=[Modifier("surprise_attack", 8)])
    assert roll.total == 9 and roll.outcome is Outcome.CRITICAL_FAILURE
    assert roll.raises == 0 and not roll.succeeded


def test_a_roll_against_another_target_is_graded_and_stored_with_it():
    """A roll against a target other than 4 (a Parade) is graded against it, and the stored roll says which."""
    roll = trait_roll(ScriptedDice(8, 1), TraitDie(8), wild_card=False, target=6)
    assert roll.total == 9 and roll.target == 6
    assert roll.outcome is Outcome.SUCCESS and roll.raises == 0  # against 4, 9 would be a raise


def test_on_a_tie_the_trait_die_is_kept():
    """« keep the best »: the Wild Die is named as the die kept only when it did better than the trait die."""
    roll = trait_roll(ScriptedDice(4, 4), TraitDie(8), wild_card=True)
    assert roll.total == 4 and not roll.used_wild_die


def test_an_ace_chain_stops_at_its_guard():
    """A Random that always rolls the maximum cannot loop forever: the chain stops at ``MAX_ACES`` faces exactly."""
    assert roll_acing(ScriptedDice(*[6] * MAX_ACES), 6) == (6,) * MAX_ACES
