"""Whatever the sequence of taps and rolls, the cards' invariants hold and a refusal changes nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from states.rules import states as rules
from states.rules.dice import Modifier, TraitDie, trait_roll
from states.rules.errors import IllegalTransition

OPERATIONS = (
    "take",
    "heal",
    "set",
    "shaken",
    "unshake",
    "award",
    "spend",
    "soak",
    "incap",
    "bleed",
    "bleed_roll",
    "recover",
)


def apply(state: rules.CardState, op: str, n: int, rng: random.Random) -> rules.CardState:
    roll = trait_roll(rng, TraitDie(6), wild_card=True, modifiers=rules.roll_penalties(state))
    if op == "take":
        return rules.wounds_take(state, n)[0]
    if op == "heal":
        return rules.wounds_heal(state, n)
    if op == "set":
        return rules.wounds_set(state, n)[0]
    if op == "shaken":
        return rules.shaken_set(state, not state.shaken)
    if op == "unshake":
        return rules.token_unshake(state)
    if op == "award":
        return rules.token_award(state, n)
    if op == "spend":
        return rules.token_spend(state)
    if op == "soak":
        return rules.wounds_take(state, n, soak_roll=roll)[0]
    if op == "incap":
        return rules.incapacitation_roll(state, roll)[0]
    if op == "bleed":
        return rules.bleeding_set(state, not state.bleeding_out)
    if op == "bleed_roll":
        return rules.bleeding_roll(state, roll, lethal=bool(n % 2), rng=rng)[0]
    return rules.shaken_recovery(state, roll)[0]


@settings(max_examples=150, deadline=None)
@given(
    steps=st.lists(st.tuples(st.sampled_from(OPERATIONS), st.integers(-1, 6)), max_size=25),
    seed=st.integers(0, 10**6),
)
def test_the_cards_invariants_hold_and_refusals_change_nothing(steps, seed):
    rng = random.Random(seed)
    state = rules.CardState()
    for op, n in steps:
        before = state
        try:
            state = apply(state, op, n, rng)
        except IllegalTransition as refusal:
            assert refusal.reason and refusal.code
            assert state == before
            continue
        assert 0 <= state.wounds <= rules.INCAPACITATING_WOUND
        assert state.tokens >= 0
        assert (
            state.incapacitated == (state.wounds == rules.INCAPACITATING_WOUND) or state.dead or not state.incapacitated
        )
        assert not (state.dead and state.bleeding_out)
        assert rules.wound_penalty(state) >= -3
        if state.incapacitation_roll_due:
            assert state.incapacitated


def test_a_character_dead_of_bleeding_makes_no_incapacitation_roll() -> None:
    """Hémorragie: « Échec : il meurt. » A death from bleeding out before the État critique roll (found by the
    invariant test above) used to let that roll bring the dead character back as bleeding out."""
    state = rules.wounds_take(rules.CardState(), 4)[0]
    state = rules.bleeding_set(state, True)
    failed = trait_roll(random.Random(0), TraitDie(6), wild_card=True, modifiers=(Modifier("test", -20),))
    dead, outcome = rules.bleeding_roll(state, failed, lethal=True, rng=random.Random(0))
    assert dead.dead and outcome.result is rules.BleedingResult.DIES and dead.incapacitation_roll_due
    with pytest.raises(IllegalTransition) as refusal:
        rules.incapacitation_roll(dead, failed)
    assert refusal.value.code == "dead"
