"""Attacks, damage and modifiers as plain arithmetic, shared by the state and the bots."""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache


def attacks_per_turn(accuracy: int) -> int:
    """« un joueur peut attaquer un nombre de fois égal à la moitié de sa précision (arrondi au supérieur) »"""
    return math.ceil(accuracy / 2)


def accuracy_hits(dice: Iterable[int], distance: int) -> bool:
    """« le résultat doit être au moins égal ou supérieur à la distance qui le sépare de la cible »"""
    return sum(dice) >= distance


def health_lost(attack_total: int, defence_total: int, extra_damage: int = 0) -> int:
    """« On détermine cette perte de points de Santé en divisant le score de l'attaquant par celui du défenseur. »

    A defender rolling no die (Santé modified down to nothing) totals 0: any attack then costs
    the attacker's whole total, the limit of the division as the defence vanishes.
    « Ces dommages comptent même si les dommages occasionnés lors de la résolution sont nuls. »
    """
    if attack_total < defence_total:
        base = 0
    elif defence_total <= 0:
        base = attack_total
    else:
        base = attack_total // defence_total
    return base + extra_damage


def combine(base: int, changes: Iterable[tuple[str, int]]) -> int:
    """Apply modifiers in the order they were played.

    « Si 2 cartes se contredisent, c'est la dernière jouée qui l'emporte » : a ``set`` replaces
    everything played before it. « on multiplie d'abord et ensuite on additionne » : among what
    follows, multipliers apply before additions.
    """
    value, multiplier, addition = base, 1, 0
    for op, amount in changes:
        if op == "set":
            value, multiplier, addition = amount, 1, 0
        elif op == "mul":
            multiplier *= amount
        else:
            addition += amount
    return max(0, value * multiplier + addition)


@cache
def win_chance(accuracy_dice: int, distance: int) -> float:
    """Chance that ``accuracy_dice`` six-sided dice total at least ``distance`` (for the bots)."""
    if distance <= accuracy_dice:
        return 1.0
    if distance > 6 * accuracy_dice:
        return 0.0
    ways = [1]
    for _ in range(accuracy_dice):
        nxt = [0] * (len(ways) + 6)
        for total, count in enumerate(ways):
            for face in range(1, 7):
                nxt[total + face] += count
        ways = nxt
    outcomes: int = 6**accuracy_dice
    return sum(ways[distance:]) / outcomes
