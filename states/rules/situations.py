"""Combat situations (« Etat — Combat » cards) as modifiers offered in every attack roll."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from .dice import Modifier
from .states import TRICK_PARRY_PENALTY


class Situation(StrEnum):
    """Situations held by a character (cover and prone on targets; aim, defend … on the one who acts)."""

    COVER_LIGHT = "cover_light"
    COVER_MEDIUM = "cover_medium"
    COVER_HEAVY = "cover_heavy"
    COVER_NEAR_TOTAL = "cover_near_total"
    AIM = "aim"
    DEFEND = "defend"
    TOTAL_DEFENCE = "total_defence"
    PRONE = "prone"
    UNSTABLE_PLATFORM = "unstable_platform"


class AttackKind(StrEnum):
    MELEE = "melee"  # Combat
    RANGED = "ranged"  # Tir
    THROWN = "thrown"  # Lancer


# « Couverture légère … -1 », « moyenne … -2 », « importante … -4 », « presque totale … -6 »
# aux jets d'attaque à distance contre elle.
COVER_PENALTY = {
    Situation.COVER_LIGHT: -1,
    Situation.COVER_MEDIUM: -2,
    Situation.COVER_HEAVY: -4,
    Situation.COVER_NEAR_TOTAL: -6,
}
AIM_BONUS = 2
DEFEND_PARRY_BONUS = 2
SURPRISE_BONUS = 4
TOTAL_DEFENCE_BONUS = 2
PRONE_MELEE_PENALTY = -2
PRONE_RANGE_SQUARES = 3
PRONE_STAND_UP_SQUARES = 2
UNSTABLE_PLATFORM_PENALTY = -2


@dataclass(frozen=True)
class AttackContext:
    kind: AttackKind
    attacker: frozenset[Situation] = frozenset()
    target: frozenset[Situation] = frozenset()
    distance_squares: int = 1
    surprise: bool = False
    aimed_at_target: bool = True


def attack_modifiers(context: AttackContext) -> tuple[Modifier, ...]:
    """Every situational modifier of one attack roll, named."""
    mods: list[Modifier] = []
    ranged = context.kind in (AttackKind.RANGED, AttackKind.THROWN)
    if ranged:
        covers = [COVER_PENALTY[s] for s in context.target if s in COVER_PENALTY]
        # « Un personnage à terre bénéficie d'une Couverture Moyenne contre la plupart des attaques à
        # distance à condition que l'attaquant se trouve à plus de 3 cases. » Cover does not stack: the best counts.
        if Situation.PRONE in context.target and context.distance_squares > PRONE_RANGE_SQUARES:
            covers.append(COVER_PENALTY[Situation.COVER_MEDIUM])
        if covers:
            worst = min(covers)
            key = next((s.value for s, v in COVER_PENALTY.items() if v == worst), "cover")
            mods.append(Modifier(key, worst))
        # « +2 à son prochain jet de Tir ou de Lancer contre la cible qu'il visait »
        if Situation.AIM in context.attacker and context.aimed_at_target:
            mods.append(Modifier("aim", AIM_BONUS))
        # « subit un malus de -2 à son jet de Tir » on an unstable platform.
        if Situation.UNSTABLE_PLATFORM in context.attacker and context.kind is AttackKind.RANGED:
            mods.append(Modifier("unstable_platform", UNSTABLE_PLATFORM_PENALTY))
    elif Situation.PRONE in context.attacker:
        # « il subit un malus de -2 à ses jets de Combat » when prone in melee.
        mods.append(Modifier("prone", PRONE_MELEE_PENALTY))
    if context.surprise:
        mods.append(Modifier("surprise_attack", SURPRISE_BONUS))
    return tuple(mods)


def surprise_damage_bonus(surprise: bool) -> int:
    """Attaque surprise: « +4 au jet de dégâts »."""
    return SURPRISE_BONUS if surprise else 0


@dataclass(frozen=True)
class ParryBreakdown:
    base: int
    modifiers: tuple[Modifier, ...]
    value: int


def parry(
    base: int,
    situations: Iterable[Situation],
    *,
    tricked: bool = False,
    melee_attack: bool = True,
    total_defence_total: int | None = None,
) -> ParryBreakdown:
    """A target's Parade with the situations that change it.

    Défense: « +2 à sa Parade jusqu'à son action suivante ». Défense totale: « un jet de Combat avec un
    bonus de +2 … à la place de sa Parade … la Parade ne peut pas être réduite par ce jet ». À terre:
    « sa Parade est réduite de 2 » against melee. Ruse: « -2 en Parade jusqu'à sa prochaine action ».
    """
    situations = set(situations)
    mods: list[Modifier] = []
    start = base
    if Situation.TOTAL_DEFENCE in situations and total_defence_total is not None:
        rolled = total_defence_total
        if rolled > base:
            mods.append(Modifier("total_defence", rolled - base))
            start = rolled
    if Situation.DEFEND in situations:
        mods.append(Modifier("defend", DEFEND_PARRY_BONUS))
    if Situation.PRONE in situations and melee_attack:
        mods.append(Modifier("prone", PRONE_MELEE_PENALTY))
    if tricked:
        mods.append(Modifier("trick", TRICK_PARRY_PENALTY))
    value = start + sum(m.value for m in mods if m.key != "total_defence")
    return ParryBreakdown(base=base, modifiers=tuple(mods), value=value)


# « jusqu'à son action suivante »: Défense and Défense totale end when the character acts again.
UNTIL_NEXT_ACTION = frozenset({Situation.DEFEND, Situation.TOTAL_DEFENCE})


def situations_at_turn_start(situations: Iterable[str]) -> tuple[list[str], list[str]]:
    """The situations kept and those ended when the character's turn comes round again."""
    kept: list[str] = []
    ended: list[str] = []
    for key in situations:
        (ended if key in UNTIL_NEXT_ACTION else kept).append(key)
    return kept, ended


def total_defence_modifiers() -> tuple[Modifier, ...]:
    return (Modifier("total_defence", TOTAL_DEFENCE_BONUS),)


def can_move(situations: Iterable[Situation]) -> bool:
    """« Il est impossible de se déplacer lorsqu'on utilise cette action » (Défense totale)."""
    return Situation.TOTAL_DEFENCE not in set(situations)
