"""Exact odds of success and raise, for each trait die with and without the Wild Die."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from states.rules.dice import Outcome, TraitDie, trait_roll
from states.rules.odds import p_at_least, p_raises_at_least, trait_odds


def test_an_acing_die_never_totals_its_maximum():
    assert p_at_least(6, 6) == Fraction(1, 6)
    assert p_at_least(6, 7) == Fraction(1, 6)  # 6 is always followed by at least 1
    assert p_at_least(6, 8) == Fraction(1, 6) * Fraction(5, 6)


@pytest.mark.parametrize(
    ("sides", "extra_success", "wild_success"),
    [
        (4, Fraction(1, 4), Fraction(5, 8)),
        (6, Fraction(1, 2), Fraction(3, 4)),
        (8, Fraction(5, 8), Fraction(13, 16)),
        (10, Fraction(7, 10), Fraction(17, 20)),
        (12, Fraction(3, 4), Fraction(7, 8)),
    ],
)
def test_success_odds_of_each_trait_die(sides, extra_success, wild_success):
    die = TraitDie(sides)
    assert trait_odds(die, wild_card=False).success == extra_success
    assert trait_odds(die, wild_card=True).success == wild_success


def test_raise_odds_of_a_d6_wild_card_worked_by_hand():
    # Raise needs 8: one d6 reaches it with 6 then 2+ (5/36); either of two d6 does with 1 − (31/36)².
    assert trait_odds(TraitDie(6), wild_card=True).raise_ == 1 - Fraction(31, 36) ** 2


def test_double_one_is_removed_from_success_when_modifiers_would_lift_it():
    odds = trait_odds(TraitDie(4), wild_card=True, modifier=3)
    assert odds.success == 1 - Fraction(1, 24)
    assert odds.critical_failure == Fraction(1, 24)
    assert odds.failure == 0


def test_raises_at_least_zero_is_success():
    die = TraitDie(10, 0)
    assert p_raises_at_least(die, wild_card=True, raises=0) == trait_odds(die, wild_card=True).success
    assert p_raises_at_least(die, wild_card=True, raises=1) == trait_odds(die, wild_card=True).raise_


def _simulate(die: TraitDie, wild: bool, modifier: int, n: int, seed: int) -> tuple[float, float, float]:
    from states.rules.dice import Modifier

    rng = random.Random(seed)
    mods = [Modifier("m", modifier)] if modifier else []
    s = r = c = 0
    for _ in range(n):
        roll = trait_roll(rng, die, wild_card=wild, modifiers=mods)
        s += roll.succeeded
        r += roll.outcome is Outcome.RAISE
        c += roll.outcome is Outcome.CRITICAL_FAILURE
    return s / n, r / n, c / n


@settings(max_examples=20, deadline=None)
@given(
    sides=st.sampled_from([4, 6, 8, 10, 12]),
    bonus=st.integers(-2, 2),
    wild=st.booleans(),
    modifier=st.integers(-4, 4),
    seed=st.integers(0, 10**6),
)
def test_exact_odds_match_simulation(sides, bonus, wild, modifier, seed):
    die = TraitDie(sides, bonus)
    odds = trait_odds(die, wild_card=wild, modifier=modifier)
    n = 4000
    success, raise_, critical = _simulate(die, wild, modifier, n, seed)
    # Five standard deviations of a proportion over n trials: wrong formulas miss by far more.
    for exact, seen in ((odds.success, success), (odds.raise_, raise_), (odds.critical_failure, critical)):
        p = float(exact)
        tolerance = 5 * (max(p * (1 - p), 1e-4) / n) ** 0.5 + 1e-9
        assert abs(p - seen) <= tolerance, (die, wild, modifier, p, seen)
