"""Tests, simple conflicts and hazardous tests (V, « 1 – Tests », « Tests hasardeux »)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from characters.rules.ladder import Rank
from conflicts.rules.fudge import (
    DICE_4DF,
    ConflictWinner,
    FudgeTestSetup,
    Modifier,
    TechnicalPolicy,
    change_die,
    fudge_test,
    reroll,
    simple_conflict,
    simple_conflict_chances,
    success_chance,
)
from conflicts.rules.ranks import Difficulty, difficulty_from_rank
from conflicts.rules.relatedness import Relatedness, related_rank
from conflicts.rules.resolution import WOUNDS, Severity

RNG = random.Random(4)


def test_harvey_climbs_the_wall() -> None:
    """Athlétisme Moyen, « deux +, un – et une face neutre »: Bon, « juste suffisant » for a Difficile Test."""
    result = fudge_test(FudgeTestSetup(Rank.MOYEN, Difficulty.DIFFICILE), RNG, dice=(1, 1, -1, 0))
    assert result.final_rank == Rank.BON
    assert result.success
    assert result.margin == 0


def test_harvey_takes_the_bend_too_fast() -> None:
    """Pilotage Bon, « + ■ - - »: Moyen, two ranks under Excellent: two Revers, a Blessure sérieuse."""
    setup = FudgeTestSetup(Rank.BON, Difficulty.TRES_DIFFICILE, hazard_per_rank=True)
    result = fudge_test(setup, RNG, dice=(1, 0, -1, -1))
    assert result.final_rank == Rank.MOYEN
    assert not result.success
    assert result.ranks_short == 2
    assert result.revers == 2
    assert WOUNDS[Severity(result.revers)] == "serious_wound"


def test_hazard_per_rank_stops_at_three_and_fixed_hazard_applies_on_failure_only() -> None:
    per_rank = FudgeTestSetup(Rank.LAMENTABLE, Difficulty.IMPOSSIBLE, hazard_per_rank=True)
    assert fudge_test(per_rank, RNG, dice=(0, 0, 0, 0)).revers == 3
    fixed = FudgeTestSetup(Rank.MOYEN, Difficulty.MOYENNE, hazard_fixed_revers=1)
    assert fudge_test(fixed, RNG, dice=(-1, 0, 0, 0)).revers == 1
    assert fudge_test(fixed, RNG, dice=(0, 0, 0, 0)).revers == 0


def test_difficulty_scale_gives_required_ranks() -> None:
    """« Facile: Faible … Impossible: Légendaire »; n.a. needs no roll."""
    assert [d.required_rank for d in Difficulty] == [1, 2, 3, 4, 5, 6, 7, 8]
    result = fudge_test(FudgeTestSetup(Rank.ABYSSAL, Difficulty.NA), RNG)
    assert result.success and not result.rolled


def test_difficulty_from_an_opponents_trait() -> None:
    """« un Rang Bon indique une action Difficile »."""
    assert difficulty_from_rank(Rank.BON) is Difficulty.DIFFICILE
    assert difficulty_from_rank(12) is Difficulty.IMPOSSIBLE


def test_narrator_may_grant_automatic_success() -> None:
    setup = FudgeTestSetup(Rank.BON, Difficulty.DIFFICILE, allow_automatic=True)
    result = fudge_test(setup, RNG)
    assert result.success and not result.rolled
    assert success_chance(setup) == 1


@pytest.mark.parametrize(
    ("rank", "relatedness", "expected"),
    [
        (Rank.BON, Relatedness.CLOSE, Rank.BON),
        (Rank.BON, Relatedness.RELATED, Rank.MOYEN),
        (Rank.BON, Relatedness.DISTANT, Rank.MEDIOCRE),
        (Rank.MEDIOCRE, Relatedness.DISTANT, Rank.FAIBLE),
        (Rank.LAMENTABLE, Relatedness.DISTANT, Rank.LAMENTABLE),
    ],
)
def test_relatedness_lowers_a_field_never_below_faible(rank: int, relatedness: Relatedness, expected: int) -> None:
    assert related_rank(rank, relatedness) == expected


def test_untrained_highly_technical_field_fails_or_gets_harder() -> None:
    fail = FudgeTestSetup(Rank.FAIBLE, Difficulty.FACILE, highly_technical=True, technical_policy=TechnicalPolicy.FAIL)
    result = fudge_test(fail, RNG)
    assert result.automatic_failure and not result.success
    assert success_chance(fail) == 0
    harder = FudgeTestSetup(
        Rank.FAIBLE, Difficulty.FACILE, highly_technical=True, technical_policy=TechnicalPolicy.HARDER
    )
    assert harder.required_rank == Rank.MEDIOCRE
    trained = FudgeTestSetup(
        Rank.MOYEN, Difficulty.FACILE, highly_technical=True, technical_policy=TechnicalPolicy.FAIL
    )
    assert not trained.untrained_technical


def test_modifiers_move_the_rank_one_card_one_rank() -> None:
    """« chaque bonus de +1 Carte devient un bonus de +1 Rang lors d'un Test »."""
    setup = FudgeTestSetup(
        Rank.MOYEN,
        Difficulty.TRES_DIFFICILE,
        modifiers=(Modifier("revers", -1), Modifier("equipment", 2), Modifier("atout", 1)),
    )
    assert setup.effective_rank == Rank.EXCELLENT
    assert fudge_test(setup, RNG, dice=(0, 0, 0, 0)).success


def test_4df_distribution_is_exact() -> None:
    assert [DICE_4DF[t] * 81 for t in range(-4, 5)] == [1, 4, 10, 16, 19, 16, 10, 4, 1]
    assert sum(DICE_4DF.values()) == 1


def test_success_chance_of_a_test() -> None:
    """Moyen against Difficile needs +1 or better on 4dF: (16+10+4+1)/81."""
    assert success_chance(FudgeTestSetup(Rank.MOYEN, Difficulty.DIFFICILE)) == Fraction(31, 81)


def test_simple_conflict_higher_final_rank_wins_equal_is_a_tie() -> None:
    assert simple_conflict(4, 4, RNG, first_dice=(1, 0, 0, 0), second_dice=(0, 0, 0, 0)).winner is ConflictWinner.FIRST
    assert simple_conflict(4, 5, RNG, first_dice=(1, 0, 0, 0), second_dice=(0, 0, 0, 0)).winner is ConflictWinner.TIE
    chances = simple_conflict_chances(4, 4)
    assert chances[ConflictWinner.FIRST] == chances[ConflictWinner.SECOND]
    assert sum(chances.values()) == 1


def test_atouts_reroll_or_change_one_die() -> None:
    """Appendix 4: relancer les dés, changer le résultat de l'un des dés."""
    setup = FudgeTestSetup(Rank.MOYEN, Difficulty.DIFFICILE)
    first = fudge_test(setup, RNG, dice=(-1, -1, 0, 0))
    changed = change_die(first, 0, 1)
    assert changed.dice == (1, -1, 0, 0) and changed.final_rank == Rank.MOYEN
    rerolled = reroll(changed, random.Random(1))
    assert rerolled.atout_changes == ("die0:1", "reroll")
