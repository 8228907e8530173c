"""A Test's results that roll no dice, its Revers and its refusals, exactly (found by mutation testing).

V-1: « réussit automatiquement dès que le rang […] est égale ou supérieure » ; highly technical fields:
« échoue automatiquement » ; V-2: « un nombre fixe de Revers sera infligé si le personnage échoue » or « un
Revers (maximum 3) pour chaque Rang en dessous du minimum requis »."""

from __future__ import annotations

import random

import pytest

from characters.rules.ladder import Rank
from conflicts.rules.errors import RuleError
from conflicts.rules.fudge import (
    FudgeTestResult,
    FudgeTestSetup,
    TechnicalPolicy,
    change_die,
    fudge_test,
    hazard_revers,
    reroll,
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
