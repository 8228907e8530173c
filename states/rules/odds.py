"""Exact odds of Savage-style trait rolls, as fractions.

An acing die of ``s`` sides never totals exactly ``s``: a maximum is rolled again and added. So
P(total ≥ t) = (s − t + 1)/s for 1 ≤ t ≤ s, and (1/s) · P(total ≥ t − s) above it. A Wild Card
keeps the better of the trait die and the Wild Die (independent), except that double 1 is a
critical failure even when the modifiers would lift a 1 to the target.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .dice import RAISE_STEP, TARGET, WILD_DIE_SIDES, TraitDie


@lru_cache(maxsize=4096)
def p_at_least(sides: int, needed: int) -> Fraction:
    """Probability that one acing die of ``sides`` totals at least ``needed``."""
    if needed <= 1:
        return Fraction(1)
    if needed <= sides:
        return Fraction(sides - needed + 1, sides)
    return Fraction(1, sides) * p_at_least(sides, needed - sides)


def _p_best_at_least(die: TraitDie, wild_card: bool, modifier: int, threshold: int) -> Fraction:
    """P(best total ≥ threshold), double 1 excluded for a Wild Card."""
    needed = threshold - die.bonus - modifier
    trait = p_at_least(die.sides, needed)
    if not wild_card:
        return trait
    wild = p_at_least(WILD_DIE_SIDES, needed)
    best = 1 - (1 - trait) * (1 - wild)
    if needed <= 1:
        # Both dice showing 1 would reach the threshold, but double 1 is a critical failure.
        best -= Fraction(1, die.sides * WILD_DIE_SIDES)
    return best


@dataclass(frozen=True)
class TraitOdds:
    die: TraitDie
    wild_card: bool
    modifier: int
    target: int
    success: Fraction  # success or better
    raise_: Fraction  # at least one raise
    critical_failure: Fraction

    @property
    def failure(self) -> Fraction:
        return 1 - self.success - self.critical_failure


def trait_odds(die: TraitDie, *, wild_card: bool, modifier: int = 0, target: int = TARGET) -> TraitOdds:
    """Exact P(success or better), P(raise or better) and P(critical failure) of one trait roll."""
    return TraitOdds(
        die=die,
        wild_card=wild_card,
        modifier=modifier,
        target=target,
        success=_p_best_at_least(die, wild_card, modifier, target),
        raise_=_p_best_at_least(die, wild_card, modifier, target + RAISE_STEP),
        critical_failure=Fraction(1, die.sides * WILD_DIE_SIDES) if wild_card else Fraction(0),
    )


def p_raises_at_least(
    die: TraitDie, *, wild_card: bool, raises: int, modifier: int = 0, target: int = TARGET
) -> Fraction:
    """P(at least ``raises`` raises); ``raises=0`` is P(success or better)."""
    return _p_best_at_least(die, wild_card, modifier, target + RAISE_STEP * raises)
