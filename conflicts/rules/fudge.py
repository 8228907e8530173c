"""Fudge dice, Tests, simple conflicts and hazardous tests (V, « 1 – Tests » and « Tests hasardeux »).

« Le joueur jette ensuite 4 dés Fudge … chaque signe + augmente le Rang d'une Caractéristique de un,
chaque signe – réduit au contraire … d'un Rang … Lorsque le Rang modifié par les dés Fudge est égal
ou supérieur au Rang requis par la Difficulté, l'action est réussie. »
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from math import comb

from .errors import RuleError
from .ranks import FAIBLE, Difficulty
from .relatedness import Relatedness, related_rank

FACES = (1, 1, 0, 0, -1, -1)
"""« deux faces portent un signe +, deux autres faces un signe – et les deux dernières faces sont neutres »."""

DICE_COUNT = 4


def roll_4df(rng: random.Random) -> tuple[int, int, int, int]:
    first, second, third, fourth = (rng.choice(FACES) for _ in range(DICE_COUNT))
    return first, second, third, fourth


def dice_distribution(dice: int = DICE_COUNT) -> dict[int, Fraction]:
    """Exact chance of each total of ``dice`` Fudge dice: 4dF gives 1, 4, 10, 16, 19, 16, 10, 4, 1 over 81."""
    totals: dict[int, Fraction] = {}
    third = Fraction(1, 3)
    for plus in range(dice + 1):
        for minus in range(dice - plus + 1):
            blanks = dice - plus - minus
            ways = comb(dice, plus) * comb(dice - plus, minus)
            totals[plus - minus] = (
                totals.get(plus - minus, Fraction(0)) + ways * third**plus * third**minus * third**blanks
            )
    return dict(sorted(totals.items()))


DICE_4DF = dice_distribution()


@dataclass(frozen=True)
class Modifier:
    """One line of the breakdown: « chaque bonus de +1 Carte devient un bonus de +1 Rang lors d'un Test ».

    ``code`` names the source (``revers``, ``equipment``, ``scale``, ``atout``, ``help``, ``weapon``,
    ``armour``, ``shield``, ``two_weapons``, ``surprise``, ``conditions``, ``cover``, ``upper_hand``,
    ``vehicle_speed``, ``vehicle_robustness``, ``range``, ``behaviour``, ``other``).
    """

    code: str
    amount: int
    note: str = ""


class TechnicalPolicy(StrEnum):
    """« Le Narrateur peut augmenter le Degré de difficulté ou déclarer qu'un personnage … échoue automatiquement »."""

    NONE = "none"
    FAIL = "fail"
    HARDER = "harder"


@dataclass(frozen=True)
class FudgeTestSetup:
    trait_rank: int
    difficulty: Difficulty
    relatedness: Relatedness = Relatedness.CLOSE
    modifiers: tuple[Modifier, ...] = ()
    highly_technical: bool = False
    technical_policy: TechnicalPolicy = TechnicalPolicy.NONE
    technical_steps: int = 1
    allow_automatic: bool = False
    hazard_fixed_revers: int | None = None
    hazard_per_rank: bool = False

    @property
    def untrained_technical(self) -> bool:
        """« … toujours au Rang Faible à l'issue de la création du personnage »."""
        return self.highly_technical and self.trait_rank <= FAIBLE

    @property
    def required_rank(self) -> int:
        required = self.difficulty.required_rank
        if self.untrained_technical and self.technical_policy is TechnicalPolicy.HARDER:
            required += max(1, self.technical_steps)
        return required

    @property
    def effective_rank(self) -> int:
        """The trait as used: relatedness first (it has a floor), then every card/rank modifier."""
        return related_rank(self.trait_rank, self.relatedness) + sum(m.amount for m in self.modifiers)


@dataclass(frozen=True)
class FudgeTestResult:
    setup: FudgeTestSetup
    dice: tuple[int, ...]
    final_rank: int
    success: bool
    rolled: bool
    automatic_failure: bool = False
    revers: int = 0
    atout_changes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def margin(self) -> int:
        return self.final_rank - self.setup.required_rank

    @property
    def ranks_short(self) -> int:
        return max(0, -self.margin)


def hazard_revers(setup: FudgeTestSetup, final_rank: int, success: bool) -> int:
    """« un nombre fixe de Revers sera infligé si le personnage échoue » or « un Revers (maximum 3) pour
    chaque Rang en dessous du minimum requis »."""
    if success:
        return 0
    if setup.hazard_fixed_revers is not None:
        return max(0, min(3, setup.hazard_fixed_revers))
    if setup.hazard_per_rank:
        return max(0, min(3, setup.required_rank - final_rank))
    return 0


def _result(setup: FudgeTestSetup, dice: tuple[int, ...], changes: tuple[str, ...] = ()) -> FudgeTestResult:
    final = setup.effective_rank + sum(dice)
    success = final >= setup.required_rank
    return FudgeTestResult(
        setup=setup,
        dice=dice,
        final_rank=final,
        success=success,
        rolled=True,
        revers=hazard_revers(setup, final, success),
        atout_changes=changes,
    )


def fudge_test(setup: FudgeTestSetup, rng: random.Random, *, dice: Sequence[int] | None = None) -> FudgeTestResult:
    """Resolve a Test. ``dice`` replays known faces (tests, a player's physical dice)."""
    if not setup.difficulty.needs_roll:
        return FudgeTestResult(setup=setup, dice=(), final_rank=setup.effective_rank, success=True, rolled=False)
    if setup.untrained_technical and setup.technical_policy is TechnicalPolicy.FAIL:
        final = setup.effective_rank
        return FudgeTestResult(
            setup=setup,
            dice=(),
            final_rank=final,
            success=False,
            rolled=False,
            automatic_failure=True,
            revers=hazard_revers(setup, final, False),
        )
    if setup.allow_automatic and setup.effective_rank >= setup.required_rank:
        # « le personnage … réussit automatiquement dès que le rang … est égal ou supérieur au Rang requis ».
        return FudgeTestResult(setup=setup, dice=(), final_rank=setup.effective_rank, success=True, rolled=False)
    faces = tuple(dice) if dice is not None else roll_4df(rng)
    if len(faces) != DICE_COUNT or any(f not in (-1, 0, 1) for f in faces):
        raise RuleError("bad_dice", dice=list(faces))
    return _result(setup, faces)


def reroll(result: FudgeTestResult, rng: random.Random) -> FudgeTestResult:
    """Appendix 4: « Un Atout peut ainsi être dépensé pour relancer les dés Fudge »."""
    if not result.rolled:
        raise RuleError("nothing_rolled")
    return _result(result.setup, roll_4df(rng), (*result.atout_changes, "reroll"))


def change_die(result: FudgeTestResult, index: int, face: int) -> FudgeTestResult:
    """Appendix 4: « un Atout peut être utilisé pour changer le résultat de l'un des dés »."""
    if not result.rolled:
        raise RuleError("nothing_rolled")
    if not 0 <= index < len(result.dice) or face not in (-1, 0, 1):
        raise RuleError("bad_die_change", index=index, face=face)
    if result.dice[index] == face:
        raise RuleError("die_unchanged")
    dice = list(result.dice)
    dice[index] = face
    return _result(result.setup, tuple(dice), (*result.atout_changes, f"die{index}:{face}"))


def add_modifier(result: FudgeTestResult, modifier: Modifier) -> FudgeTestResult:
    """A rank added to a Test already rolled, the same dice read again: a teammate's help (appendix 4,
    « Deux Atouts permettent de donner un bonus de +1 Carte ou de +1 Rang à un autre personnage […] Ce bonus
    est accordé pour un tirage de cartes ou un lancer de dés »), or the +1 its spender buys again after a
    counter (« le personnage qui a dépensé l'Atout originel peut décider de dépenser un second Atout pour
    gagner à nouveau le bonus espéré »)."""
    if not result.rolled:
        raise RuleError("nothing_rolled")
    return _result(with_modifiers(result.setup, modifier), result.dice, (*result.atout_changes, modifier.code))


def remove_modifier(result: FudgeTestResult, code: str) -> FudgeTestResult:
    """The last modifier ``code`` taken off a Test already rolled, the same dice read again: a countered
    Atout (« contrer la dépense d'un Atout par une autre personne et ainsi l'annuler »)."""
    if not result.rolled:
        raise RuleError("nothing_rolled")
    modifiers = list(result.setup.modifiers)
    index = next((i for i in range(len(modifiers) - 1, -1, -1) if modifiers[i].code == code), None)
    if index is None:
        raise RuleError("no_such_modifier", code=code)
    del modifiers[index]
    setup = replace(result.setup, modifiers=tuple(modifiers))
    return _result(setup, result.dice, (*result.atout_changes, f"-{code}"))


def with_modifiers(setup: FudgeTestSetup, *extra: Modifier) -> FudgeTestSetup:
    return replace(setup, modifiers=(*setup.modifiers, *extra))


def success_chance(setup: FudgeTestSetup) -> Fraction:
    """The exact chance of success before rolling, from the 4dF distribution."""
    if not setup.difficulty.needs_roll:
        return Fraction(1)
    if setup.untrained_technical and setup.technical_policy is TechnicalPolicy.FAIL:
        return Fraction(0)
    if setup.allow_automatic and setup.effective_rank >= setup.required_rank:
        return Fraction(1)
    need = setup.required_rank - setup.effective_rank
    return sum((p for total, p in DICE_4DF.items() if total >= need), Fraction(0))


class ConflictWinner(StrEnum):
    FIRST = "first"
    SECOND = "second"
    TIE = "tie"


@dataclass(frozen=True)
class SimpleConflictResult:
    first_dice: tuple[int, ...]
    second_dice: tuple[int, ...]
    first_final: int
    second_final: int
    winner: ConflictWinner


def simple_conflict(
    first_rank: int,
    second_rank: int,
    rng: random.Random,
    *,
    first_dice: Sequence[int] | None = None,
    second_dice: Sequence[int] | None = None,
) -> SimpleConflictResult:
    """« les deux adversaires lancent chacun 4 dés Fudge … Le Rang final le plus élevé l'emporte. Un même
    résultat indique une égalité. » The ranks passed in already carry every modifier."""
    a = tuple(first_dice) if first_dice is not None else roll_4df(rng)
    b = tuple(second_dice) if second_dice is not None else roll_4df(rng)
    fa, fb = first_rank + sum(a), second_rank + sum(b)
    winner = ConflictWinner.FIRST if fa > fb else ConflictWinner.SECOND if fb > fa else ConflictWinner.TIE
    return SimpleConflictResult(a, b, fa, fb, winner)


def simple_conflict_chances(first_rank: int, second_rank: int) -> dict[ConflictWinner, Fraction]:
    """Exact chances of each outcome of a simple conflict: two independent 4dF."""
    out = dict.fromkeys(ConflictWinner, Fraction(0))
    for da, pa in DICE_4DF.items():
        for db, pb in DICE_4DF.items():
            diff = (first_rank + da) - (second_rank + db)
            key = ConflictWinner.FIRST if diff > 0 else ConflictWinner.SECOND if diff < 0 else ConflictWinner.TIE
            out[key] += pa * pb
    return out
