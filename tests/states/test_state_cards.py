"""Every branch of every state card, with scripted dice (« Etat » cards, seed 004)."""

from __future__ import annotations

import pytest

from states.rules.dice import Modifier, TraitDie, trait_roll
from states.rules.errors import IllegalTransition
from states.rules.states import (
    BleedingResult,
    CardState,
    IncapacitationResult,
    Injury,
    ShakenResult,
    TrickResult,
    bleeding_roll,
    ensure_can_act,
    incapacitation_roll,
    pace,
    roll_penalties,
    shaken_recovery,
    shaken_set,
    soaked_wounds,
    token_award,
    token_spend,
    token_unshake,
    trick_resolve,
    wounds_heal,
    wounds_set,
    wounds_take,
)
from tests.states.dice import ScriptedDice

D6 = TraitDie(6)


def roll(*faces: int, die: TraitDie = D6, mods: tuple[Modifier, ...] = (), wild: bool = True):
    return trait_roll(ScriptedDice(*faces), die, wild_card=wild, modifiers=mods)


# --- Secoué ----------------------------------------------------------------------------------


def test_shaken_failure_stays_shaken_with_free_actions_only():
    state, result = shaken_recovery(CardState(shaken=True), roll(2, 3))
    assert state.shaken and result is ShakenResult.STAYS_FREE_ACTIONS


def test_shaken_critical_failure_also_stays_shaken():
    state, result = shaken_recovery(CardState(shaken=True), roll(1, 1))
    assert state.shaken and result is ShakenResult.STAYS_FREE_ACTIONS


def test_shaken_success_ends_it_but_free_actions_only():
    state, result = shaken_recovery(CardState(shaken=True), roll(5, 2))
    assert not state.shaken and result is ShakenResult.ENDS_FREE_ACTIONS


def test_shaken_raise_ends_it_and_the_character_acts_normally():
    state, result = shaken_recovery(CardState(shaken=True), roll(6, 2, 1))
    assert not state.shaken and result is ShakenResult.ENDS_ACTS


def test_a_token_ends_shaken_at_any_moment_even_after_the_spirit_roll():
    after_roll, _ = shaken_recovery(CardState(shaken=True, tokens=1), roll(2, 3))
    state = token_unshake(after_roll)
    assert not state.shaken and state.tokens == 0


def test_a_token_cannot_end_shaken_without_a_token_or_without_shaken():
    with pytest.raises(IllegalTransition) as exc:
        token_unshake(CardState(shaken=True, tokens=0))
    assert exc.value.code == "no_token"
    with pytest.raises(IllegalTransition) as exc:
        token_unshake(CardState(shaken=False, tokens=2))
    assert exc.value.code == "not_shaken"


def test_shaken_roll_refused_when_not_shaken_and_one_tap_toggle():
    with pytest.raises(IllegalTransition):
        shaken_recovery(CardState(), roll(5, 5))
    assert shaken_set(CardState(), True).shaken
    with pytest.raises(IllegalTransition):
        shaken_set(CardState(shaken=True), True)


# --- Blessure --------------------------------------------------------------------------------


def test_each_wound_is_minus_one_to_trait_rolls_and_pace():
    state = CardState(wounds=2, fatigue=1)
    assert roll_penalties(state) == (Modifier("wounds", -2), Modifier("fatigue", -1))
    assert pace(6, state) == 4
    assert roll_penalties(CardState()) == ()


def test_up_to_three_wounds_then_the_fourth_means_etat_critique():
    state, result = wounds_take(CardState(wounds=1), 2)
    assert state.wounds == 3 and not state.incapacitated and not result.incapacitated_now
    state, result = wounds_take(state, 1)
    assert state.wounds == 4 and state.incapacitated and state.incapacitation_roll_due
    assert result.incapacitated_now
    assert roll_penalties(state) == (Modifier("wounds", -3),)


def test_wounds_beyond_the_fourth_are_not_counted():
    state, result = wounds_take(CardState(wounds=2), 3)
    assert state.wounds == 4 and result.taken == 3 and state.incapacitated


def test_a_fifth_wound_count_is_refused_and_nothing_changes():
    before = CardState(wounds=4, incapacitated=True, tokens=1)
    with pytest.raises(IllegalTransition) as exc:
        wounds_take(before, 1)
    assert exc.value.code == "fifth_wound"
    with pytest.raises(IllegalTransition) as exc:
        wounds_set(CardState(wounds=2), 5)
    assert exc.value.code == "fifth_wound"
    assert before == CardState(wounds=4, incapacitated=True, tokens=1)


def test_the_one_tap_wound_track_sets_and_heals():
    state, result = wounds_set(CardState(), 2)
    assert state.wounds == 2 and result.taken == 2
    state, result = wounds_set(state, 0)
    assert state.wounds == 0 and result is None
    with pytest.raises(IllegalTransition):
        wounds_set(state, 0)


def test_healing_below_four_ends_etat_critique_and_at_zero_ends_a_healing_injury():
    state = CardState(wounds=4, incapacitated=True, injury=Injury.UNTIL_HEALED)
    state = wounds_heal(state, 1)
    assert state.wounds == 3 and not state.incapacitated and state.injury is Injury.UNTIL_HEALED
    state = wounds_heal(state, 3)
    assert state.injury is Injury.NONE
    permanent = wounds_heal(CardState(wounds=1, injury=Injury.PERMANENT), 1)
    assert permanent.injury is Injury.PERMANENT
    with pytest.raises(IllegalTransition):
        wounds_heal(CardState(wounds=1), 2)


# --- Encaissement ----------------------------------------------------------------------------


def test_soak_failure_changes_nothing_but_the_token_is_spent():
    state, result = wounds_take(CardState(tokens=1), 2, soak_roll=roll(2, 3))
    assert result.soaked == 0 and state.wounds == 2 and state.tokens == 0


def test_soak_success_one_wound_fewer():
    state, result = wounds_take(CardState(tokens=2), 2, soak_roll=roll(5, 1))
    assert result.soaked == 1 and state.wounds == 1 and state.tokens == 1


def test_soak_each_raise_one_more_wound_fewer():
    # 12 is two raises: raises + 1 = 3 wounds fewer.
    assert soaked_wounds(3, roll(6, 6, 2, 1)) == 3
    state, result = wounds_take(CardState(tokens=1), 3, soak_roll=roll(6, 2, 1))
    assert result.soaked == 2 and state.wounds == 1


def test_soak_never_removes_more_than_the_wounds_taken():
    _, result = wounds_take(CardState(tokens=1), 1, soak_roll=roll(6, 6, 6, 2, 1))
    assert result.soaked == 1 and result.taken == 0


def test_a_full_soak_of_the_fourth_wound_avoids_etat_critique():
    state, result = wounds_take(CardState(wounds=3, tokens=1), 1, soak_roll=roll(4, 1))
    assert state.wounds == 3 and not state.incapacitated and not result.incapacitated_now


def test_soaking_without_a_token_is_refused_and_nothing_changes():
    before = CardState(wounds=1, tokens=0)
    with pytest.raises(IllegalTransition) as exc:
        wounds_take(before, 2, soak_roll=roll(6, 2, 1))
    assert exc.value.code == "no_token"
    assert before.wounds == 1


# --- État critique ---------------------------------------------------------------------------

CRITICAL = CardState(wounds=4, incapacitated=True, incapacitation_roll_due=True)
MINUS_3 = (Modifier("wounds", -3),)


def test_incapacitation_one_or_less_dies():
    state, result = incapacitation_roll(CRITICAL, roll(4, 3, mods=MINUS_3))
    assert result is IncapacitationResult.DIES and state.dead


def test_incapacitation_failure_permanent_injury_and_bleeding_out():
    state, result = incapacitation_roll(CRITICAL, roll(5, 2, mods=MINUS_3))
    assert state.bleeding_out and state.injury is Injury.PERMANENT and not state.dead
    assert result is IncapacitationResult.PERMANENT_INJURY_AND_BLEEDING


def test_incapacitation_success_wounded_until_healed():
    state, result = incapacitation_roll(CRITICAL, roll(6, 1, 2, mods=MINUS_3))
    assert result is IncapacitationResult.WOUNDED_UNTIL_HEALED and state.injury is Injury.UNTIL_HEALED
    assert not state.bleeding_out and state.incapacitated


def test_incapacitation_raise_wounded_for_24_hours():
    state, result = incapacitation_roll(CRITICAL, roll(6, 5, 2, mods=MINUS_3))
    assert result is IncapacitationResult.WOUNDED_24_HOURS and state.injury is Injury.DAY


def test_incapacitation_roll_only_when_due():
    with pytest.raises(IllegalTransition):
        incapacitation_roll(CardState(wounds=4, incapacitated=True), roll(6, 5, 2))


def test_acting_while_in_etat_critique_is_refused():
    with pytest.raises(IllegalTransition) as exc:
        ensure_can_act(CRITICAL)
    assert exc.value.code == "incapacitated"
    with pytest.raises(IllegalTransition):
        ensure_can_act(CardState(dead=True))
    with pytest.raises(IllegalTransition):
        ensure_can_act(CardState(unconscious=True))
    ensure_can_act(CardState(wounds=3, shaken=True))


# --- Hémorragie ------------------------------------------------------------------------------

BLEEDING = CardState(wounds=4, incapacitated=True, bleeding_out=True)


def test_bleeding_failure_dies_when_the_damage_was_lethal():
    state, outcome = bleeding_roll(BLEEDING, roll(3, 4, mods=MINUS_3), lethal=True, rng=ScriptedDice())
    assert outcome.result is BleedingResult.DIES and state.dead


def test_bleeding_failure_from_non_lethal_damage_unconscious_1d6_hours():
    state, outcome = bleeding_roll(BLEEDING, roll(3, 4, mods=MINUS_3), lethal=False, rng=ScriptedDice(5))
    assert outcome.result is BleedingResult.UNCONSCIOUS and outcome.unconscious_hours == 5
    assert state.unconscious and not state.dead and not state.bleeding_out


def test_bleeding_success_rolls_again_next_round():
    state, outcome = bleeding_roll(BLEEDING, roll(6, 1, 3, mods=MINUS_3), lethal=True, rng=ScriptedDice())
    assert outcome.result is BleedingResult.ROLLS_AGAIN and state.bleeding_out


def test_bleeding_raise_stops_it():
    state, outcome = bleeding_roll(BLEEDING, roll(6, 6, 1, 2, mods=MINUS_3), lethal=True, rng=ScriptedDice())
    assert outcome.result is BleedingResult.STOPS and not state.bleeding_out


def test_bleeding_roll_refused_when_not_bleeding():
    with pytest.raises(IllegalTransition):
        bleeding_roll(CardState(), roll(5, 5), lethal=True, rng=ScriptedDice())


# --- Jetons ----------------------------------------------------------------------------------


def test_tokens_are_awarded_and_spent():
    state = token_award(CardState(), 2)
    assert state.tokens == 2
    assert token_spend(state).tokens == 1
    with pytest.raises(IllegalTransition):
        token_spend(CardState())
    with pytest.raises(IllegalTransition):
        token_award(CardState(), 0)


# --- Ruse ------------------------------------------------------------------------------------


def test_trick_failure_changes_nothing():
    target, result = trick_resolve(CardState(), roll(3, 2), roll(5, 1))
    assert result is TrickResult.FAILS and not target.tricked


def test_trick_tie_goes_to_the_defender():
    _, result = trick_resolve(CardState(), roll(5, 1), roll(5, 1))
    assert result is TrickResult.FAILS


def test_trick_success_minus_two_parry_until_the_targets_next_action():
    target, result = trick_resolve(CardState(), roll(5, 1), roll(3, 1))
    assert result is TrickResult.DISTRACTED and target.tricked and not target.shaken


def test_trick_raise_also_shakes():
    target, result = trick_resolve(CardState(), roll(6, 3, 1), roll(4, 1))
    assert result is TrickResult.DISTRACTED_AND_SHAKEN and target.tricked and target.shaken


def test_trick_penalties_do_not_stack():
    target, _ = trick_resolve(CardState(tricked=True), roll(5, 1), roll(3, 1))
    assert target.tricked is True  # still one −2, never −4
