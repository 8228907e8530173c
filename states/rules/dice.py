"""Savage-style trait rolls.

The issue's contract: a trait die d4 to d12 (and d12+N), a modifier, the Wild Die d6 for Wild
Cards (extras roll one die), aces (a die that rolls its maximum is rolled again and added),
target number 4, a raise for each full 4 above it, a critical failure when both dice of a Wild
Card show 1.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from enum import StrEnum

TARGET = 4
RAISE_STEP = 4
WILD_DIE_SIDES = 6
DIE_SIDES = (4, 6, 8, 10, 12)
# An ace chain is rerolled until it stops; a guard keeps a pathological Random from looping forever.
MAX_ACES = 100

_DIE_RE = re.compile(r"^\s*d\s*(4|6|8|10|12)\s*(?:([+\-−])\s*(\d+))?\s*$", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class TraitDie:
    """A trait die: ``d8``, ``d12+2``, ``d4-2``. The bonus is the die's own fixed modifier."""

    sides: int
    bonus: int = 0

    def __post_init__(self) -> None:
        if self.sides not in DIE_SIDES:
            raise ValueError(f"A trait die is d4, d6, d8, d10 or d12, not d{self.sides}.")

    @classmethod
    def parse(cls, text: str) -> TraitDie:
        match = _DIE_RE.match(text or "")
        if match is None:
            raise ValueError(f"{text!r} is not a trait die (d4 … d12, d12+1, d4-2).")
        sides, sign, amount = match.groups()
        bonus = int(amount or 0) * (-1 if sign in {"-", "−"} else 1)
        return cls(int(sides), bonus)

    def __str__(self) -> str:
        if self.bonus > 0:
            return f"d{self.sides}+{self.bonus}"
        if self.bonus < 0:
            return f"d{self.sides}-{-self.bonus}"
        return f"d{self.sides}"


class Outcome(StrEnum):
    CRITICAL_FAILURE = "critical_failure"
    FAILURE = "failure"
    SUCCESS = "success"
    RAISE = "raise"


@dataclass(frozen=True)
class Modifier:
    """One named modifier of a roll (``wounds`` −2, ``cover_medium`` −2, ``aim`` +2 …)."""

    key: str
    value: int


@dataclass(frozen=True)
class TraitRoll:
    """Every face rolled, every modifier applied and the outcome; stored, never recomputed."""

    die: TraitDie
    trait_faces: tuple[int, ...]
    wild_faces: tuple[int, ...]
    modifiers: tuple[Modifier, ...]
    target: int
    total: int
    outcome: Outcome
    raises: int
    used_wild_die: bool = False

    @property
    def modifier_total(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def succeeded(self) -> bool:
        return self.outcome in (Outcome.SUCCESS, Outcome.RAISE)

    def to_json(self) -> dict[str, object]:
        return {
            "die": str(self.die),
            "trait_faces": list(self.trait_faces),
            "wild_faces": list(self.wild_faces),
            "modifiers": [{"key": m.key, "value": m.value} for m in self.modifiers],
            "target": self.target,
            "total": self.total,
            "outcome": self.outcome.value,
            "raises": self.raises,
            "used_wild_die": self.used_wild_die,
        }


def roll_acing(rng: random.Random, sides: int) -> tuple[int, ...]:
    """« Un dé qui donne son maximum est relancé et ajouté » : every face of one ace chain."""
    faces = [rng.randint(1, sides)]
    while faces[-1] == sides and len(faces) < MAX_ACES:
        faces.append(rng.randint(1, sides))
    return tuple(faces)


def roll_plain(rng: random.Random, count: int, sides: int) -> tuple[int, ...]:
    """Dice that do not ace (durations such as 3d6 hours)."""
    return tuple(rng.randint(1, sides) for _ in range(count))


def grade(total: int, target: int = TARGET) -> tuple[Outcome, int]:
    """Target number 4, a raise for each full 4 above it."""
    if total < target:
        return Outcome.FAILURE, 0
    raises = (total - target) // RAISE_STEP
    return (Outcome.RAISE if raises else Outcome.SUCCESS), raises


def trait_roll(
    rng: random.Random,
    die: TraitDie,
    *,
    wild_card: bool,
    modifiers: tuple[Modifier, ...] | list[Modifier] = (),
    target: int = TARGET,
) -> TraitRoll:
    """Roll a trait: the trait die (and the Wild Die for a Wild Card), both acing; keep the best.

    A Wild Card whose trait die and Wild Die both show 1 fails critically, whatever the modifiers.
    """
    modifiers = tuple(modifiers)
    fixed = die.bonus + sum(m.value for m in modifiers)
    trait_faces = roll_acing(rng, die.sides)
    wild_faces = roll_acing(rng, WILD_DIE_SIDES) if wild_card else ()
    trait_total = sum(trait_faces) + fixed
    wild_total = sum(wild_faces) + fixed if wild_card else None
    used_wild = wild_total is not None and wild_total > trait_total
    total = wild_total if used_wild and wild_total is not None else trait_total
    if wild_card and trait_faces[0] == 1 and wild_faces[0] == 1:
        outcome, raises = Outcome.CRITICAL_FAILURE, 0
    else:
        outcome, raises = grade(total, target)
    return TraitRoll(
        die=die,
        trait_faces=trait_faces,
        wild_faces=wild_faces,
        modifiers=modifiers,
        target=target,
        total=total,
        outcome=outcome,
        raises=raises,
        used_wild_die=used_wild,
    )
