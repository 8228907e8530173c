"""A Test's results that roll no dice, its Revers and its refusals, exactly (found by mutation testing).

V-1: « réussit automatiquement dès que le rang […] est égale ou supérieure » ; highly technical fields:
« échoue automatiquement » ; V-2: « un nombre fixe de Revers sera infligé si le personnage échoue » or « un
Revers (maximum 3) pour chaque Rang en dessous du minimum requis »."""

from __future__ import annotations

import random
from dataclasses import replace
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
    dice_distribution,
    fudge_test,
    hazard_revers,
    reroll,
    roll_4df,
    simple_conflict,
    simple_conflict_chances,
    success_chance,
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


def test_changing_one_die_is_refused_off_the_dice_or_to_its_own_face() -> None:
    """Appendix 4: « changer le résultat de l'un des dés »: one of the four dice, to another Fudge face."""
    rolled = fudge_test(FudgeTestSetup(Rank.MOYEN, Difficulty.MOYENNE), RNG, dice=(-1, 0, 1, 0))
    for index, face in ((-1, 1), (4, 1), (0, 2), (0, -2)):
        with pytest.raises(RuleError) as refused:
            change_die(rolled, index, face)
        assert refused.value.code == "bad_die_change" and refused.value.values == {"index": index, "face": face}
    with pytest.raises(RuleError) as same:
        change_die(rolled, 2, 1)
    assert same.value.code == "die_unchanged"
    last = change_die(rolled, 3, -1)
    assert last.dice == (-1, 0, 1, -1) and last.final_rank == Rank.MEDIOCRE and not last.success
    assert last.atout_changes == ("die3:-1",) and last.rolled and last.setup == rolled.setup


def test_a_reroll_keeps_the_setup_and_every_earlier_change() -> None:
    setup = FudgeTestSetup(Rank.MOYEN, Difficulty.MOYENNE, hazard_per_rank=True)
    first = change_die(fudge_test(setup, RNG, dice=(0, 0, 0, 0)), 0, -1)
    again = reroll(first, random.Random(8))
    assert again.setup == setup and again.atout_changes == ("die0:-1", "reroll") and len(again.dice) == 4
    assert again.final_rank == Rank.MOYEN + sum(again.dice) and again.revers == max(0, -sum(again.dice))


def test_an_untrained_technical_field_made_harder_takes_the_narrators_steps_at_least_one() -> None:
    """« Le Narrateur peut augmenter le Degré de difficulté »: by the steps he sets, one at least; only for a field
    still at Faible or below (« toujours au Rang Faible à l'issue de la création du personnage »)."""

    def setup(rank: int, steps: int) -> FudgeTestSetup:
        return FudgeTestSetup(
            rank,
            Difficulty.MOYENNE,
            highly_technical=True,
            technical_policy=TechnicalPolicy.HARDER,
            technical_steps=steps,
        )

    assert setup(Rank.FAIBLE, 2).required_rank == Rank.EXCELLENT
    assert setup(Rank.FAIBLE, 0).required_rank == Rank.BON
    assert setup(Rank.MEDIOCRE, 2).required_rank == Rank.MOYEN and not setup(Rank.MEDIOCRE, 2).untrained_technical
    assert setup(Rank.LAMENTABLE, 1).untrained_technical
    # A result's margin is read against the harder rank.
    result = fudge_test(setup(Rank.FAIBLE, 2), RNG, dice=(1, 1, 0, 0))
    assert (result.final_rank, result.margin, result.ranks_short, result.success) == (Rank.MOYEN, -2, 2, False)
    assert success_chance(setup(Rank.FAIBLE, 2)) == Fraction(1, 81)


def test_the_chance_of_success_counts_every_total_at_or_above_the_need() -> None:
    """4dF: 1, 4, 10, 16, 19, 16, 10, 4, 1 ways in 81; Moyen against Moyenne needs 0 or better: 19+16+10+4+1; Bon, −1 or better: 16 more."""
    assert success_chance(FudgeTestSetup(Rank.MOYEN, Difficulty.MOYENNE)) == Fraction(50, 81)
    assert success_chance(FudgeTestSetup(Rank.FAIBLE, Difficulty.EXTREME)) == 0
    assert success_chance(FudgeTestSetup(Rank.FAIBLE, Difficulty.NA)) == 1
    assert success_chance(FudgeTestSetup(Rank.BON, Difficulty.MOYENNE)) == Fraction(66, 81)
    automatic = FudgeTestSetup(Rank.MOYEN, Difficulty.MOYENNE, allow_automatic=True)
    assert success_chance(automatic) == 1 and not fudge_test(automatic, RNG).rolled
    short = FudgeTestSetup(Rank.MEDIOCRE, Difficulty.MOYENNE, allow_automatic=True)
    assert fudge_test(short, RNG, dice=(0, 0, 0, 0)).rolled and success_chance(short) == Fraction(31, 81)


def test_the_distribution_of_any_number_of_fudge_dice() -> None:
    assert dice_distribution(1) == {-1: Fraction(1, 3), 0: Fraction(1, 3), 1: Fraction(1, 3)}
    assert dice_distribution(2) == {t: Fraction(n, 9) for t, n in zip(range(-2, 3), (1, 2, 3, 2, 1), strict=True)}
    assert list(dice_distribution(3)) == [-3, -2, -1, 0, 1, 2, 3]
    rolls = {roll_4df(random.Random(seed)) for seed in range(60)}
    assert all(len(r) == 4 and set(r) <= {-1, 0, 1} for r in rolls) and len(rolls) > 30


def test_a_die_may_turn_blank_and_a_test_rolls_its_own_dice_when_none_are_given() -> None:
    rolled = fudge_test(FudgeTestSetup(Rank.MOYEN, Difficulty.MOYENNE), RNG, dice=(-1, 0, 1, 0))
    assert change_die(rolled, 0, 0).dice == (0, 0, 1, 0)
    own = fudge_test(FudgeTestSetup(Rank.MOYEN, Difficulty.MOYENNE), random.Random(2))
    assert own.rolled and len(own.dice) == 4 and own.final_rank == Rank.MOYEN + sum(own.dice)


def test_an_untrained_technical_failure_costs_a_revers_per_rank_short() -> None:
    """« un Revers (maximum 3) pour chaque Rang en dessous du minimum requis », the automatic failure included:
    Faible against Difficile (Bon) is three ranks short."""
    setup = FudgeTestSetup(
        Rank.FAIBLE,
        Difficulty.DIFFICILE,
        highly_technical=True,
        technical_policy=TechnicalPolicy.FAIL,
        hazard_per_rank=True,
    )
    failed = fudge_test(setup, RNG)
    assert failed.automatic_failure and failed.revers == 3 and failed.final_rank == Rank.FAIBLE
    assert fudge_test(replace(setup, difficulty=Difficulty.MOYENNE), RNG).revers == 2
