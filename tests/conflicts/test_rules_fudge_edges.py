"""A Test's results that roll no dice, its Revers and its refusals, exactly (found by mutation testing).

V-1: « réussit automatiquement dès que le rang […] est égale ou supérieure » ; highly technical fields:
« échoue automatiquement » ; V-2: « un nombre fixe de Revers sera infligé si le personnage échoue » or « un
Revers (maximum 3) pour chaque Rang en dessous du minimum requis »."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from characters.rules.ladder import Rank
from conflicts.rules.errors import RuleError
from conflicts.rules.fudge import (
    ConflictWinner,
    FudgeTestResult,
    FudgeTestSetup,
    TechnicalPolicy,
    change_die,
    fudge_test,
    hazard_revers,
    reroll,
    simple_conflict,
    simple_conflict_chances,
)
from conflicts.rules.ranks import Difficulty

RNG = random.Random(3)


def test_a_fixed_hazard_is_zero_to_three_revers_on_failure_and_none_on_success_or_without_hazard() -> None:
    for fixed, revers in ((0, 0), (2, 2), (5, 3)):
        setup = FudgeTestSetup(Rank.MOYEN, Difficulty.MOYENNE, hazard_fixed_revers=fixed)
        assert hazard_revers(setup, Rank.FAIBLE, False) == revers
        assert hazard_revers(setup, Rank.FAIBLE, True) == 0
    per_rank = FudgeTestSetup(Rank.MOYEN, Difficulty.MOYENNE, hazard_per_rank=True)
    assert hazard_revers(per_rank, Rank.MEDIOCRE, False) == 1
    assert hazard_revers(per_rank, Rank.MOYEN, False) == 0  # not below the minimum: no Revers
    assert hazard_revers(FudgeTestSetup(Rank.MOYEN, Difficulty.MOYENNE), Rank.FAIBLE, False) == 0


def test_results_that_roll_no_dice_say_so_whole() -> None:
    no_roll = FudgeTestSetup(Rank.FAIBLE, Difficulty.NA)
    assert fudge_test(no_roll, RNG) == FudgeTestResult(no_roll, (), Rank.FAIBLE, True, False)
    automatic = FudgeTestSetup(Rank.BON, Difficulty.MOYENNE, allow_automatic=True)
    assert fudge_test(automatic, RNG) == FudgeTestResult(automatic, (), Rank.BON, True, False)
    untrained = FudgeTestSetup(
        Rank.FAIBLE,
        Difficulty.FACILE,
        highly_technical=True,
        technical_policy=TechnicalPolicy.FAIL,
        hazard_fixed_revers=2,
    )
    assert fudge_test(untrained, RNG) == FudgeTestResult(
        untrained, (), Rank.FAIBLE, False, False, automatic_failure=True, revers=2
    )
    # Trained, or untrained under another policy, the Test is rolled.
    trained_fail = FudgeTestSetup(Rank.MOYEN, Difficulty.FACILE, technical_policy=TechnicalPolicy.FAIL)
    assert fudge_test(trained_fail, RNG, dice=(0, 0, 0, 0)).rolled


@pytest.mark.parametrize("dice", [(0, 0, 0), (0, 0, 0, 2), (0, 0, 0, 0, 0)])
def test_four_fudge_dice_of_minus_one_zero_or_one_or_refused(dice: tuple[int, ...]) -> None:
    with pytest.raises(RuleError) as refused:
        fudge_test(FudgeTestSetup(Rank.MOYEN, Difficulty.MOYENNE), RNG, dice=dice)
    assert refused.value.code == "bad_dice" and refused.value.values == {"dice": list(dice)}


def test_no_atout_rerolls_or_changes_a_test_that_rolled_nothing() -> None:
    automatic = fudge_test(FudgeTestSetup(Rank.BON, Difficulty.MOYENNE, allow_automatic=True), RNG)
    for call in (lambda: reroll(automatic, RNG), lambda: change_die(automatic, 0, 1)):
        with pytest.raises(RuleError) as refused:
            call()
        assert refused.value.code == "nothing_rolled"
    rolled = fudge_test(FudgeTestSetup(Rank.MOYEN, Difficulty.MOYENNE), RNG, dice=(0, 0, 0, 0))
    assert reroll(rolled, random.Random(5)).rolled


def test_a_simple_conflict_keeps_both_rolls_and_finals_and_the_second_can_win() -> None:
    """« les deux adversaires lancent chacun 4 dés Fudge et modifient leurs Caractéristiques respectives. Le Rang
    final le plus élevé l'emporte. Un même résultat indique une égalité »."""
    result = simple_conflict(4, 3, RNG, first_dice=(-1, -1, 0, 0), second_dice=(1, 0, 0, 0))
    assert (result.first_dice, result.second_dice) == ((-1, -1, 0, 0), (1, 0, 0, 0))
    assert (result.first_final, result.second_final) == (2, 4) and result.winner is ConflictWinner.SECOND
    rolled = simple_conflict(4, 3, random.Random(5))
    assert len(rolled.first_dice) == len(rolled.second_dice) == 4
    assert rolled.first_final == 4 + sum(rolled.first_dice) and rolled.second_final == 3 + sum(rolled.second_dice)


def test_the_exact_chances_of_a_simple_conflict_one_rank_apart() -> None:
    """The difference of two 4dF rolls is an 8dF roll (3⁸ = 6561 cases, 1107 of them 0, 1016 of them ±1): one rank
    ahead wins when it is ≥ 0, ties at −1, loses at −2 or less."""
    chances = simple_conflict_chances(5, 4)
    assert chances == {
        ConflictWinner.FIRST: Fraction(3834, 6561),
        ConflictWinner.TIE: Fraction(1016, 6561),
        ConflictWinner.SECOND: Fraction(1711, 6561),
    }
