"""Exact odds of a draw, without replacement, over the cards actually left.

Before a draw every participant sees, for each opponent, the chance of 0, 1, 2 and 3 or more net
successes landing on that opponent: « les succès qu'elles [les cartes de défense] engendrent viennent
réduire le nombre de succès de l'adversaire » (V, « Jeu défensif »). Cards drawn from the same pool are
dependent (multivariate hypergeometric); pools are independent of one another. Everything is computed
by exact enumeration; floats only carry the exact ratios of binomial coefficients.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from math import comb

from .errors import RuleError

Distribution = dict[int, float]


@dataclass(frozen=True)
class Pool:
    """The cards a group of draws comes from: how many, and how many of them are successes."""

    size: int
    successes: int


@dataclass(frozen=True)
class Group:
    """``count`` cards from ``pool`` whose successes add ``weight`` each to the net (defence: −weight)."""

    pool: Hashable
    count: int
    weight: int


def hypergeometric(size: int, successes: int, draws: int) -> list[float]:
    """P(k successes) for k = 0..draws when ``draws`` cards come from ``size`` holding ``successes``."""
    if not 0 <= draws <= size or not 0 <= successes <= size:
        raise RuleError("bad_pool", size=size, successes=successes, draws=draws)
    total = comb(size, draws)
    failures = size - successes
    return [comb(successes, k) * comb(failures, draws - k) / total for k in range(draws + 1)]


def _pool_distribution(pool: Pool, groups: Sequence[Group]) -> Distribution:
    # State: (successes already taken from the pool, weighted sum so far) -> probability.
    states: dict[tuple[int, int], float] = {(0, 0): 1.0}
    drawn = 0
    for group in groups:
        if group.count == 0:
            continue
        left = pool.size - drawn
        if group.count > left:
            raise RuleError("pool_exhausted", size=pool.size, draws=drawn + group.count)
        nxt: dict[tuple[int, int], float] = {}
        for (taken, total), p in states.items():
            for k, q in enumerate(hypergeometric(left, pool.successes - taken, group.count)):
                if q:
                    key = (taken + k, total + group.weight * k)
                    nxt[key] = nxt.get(key, 0.0) + p * q
        states = nxt
        drawn += group.count
    out: Distribution = {}
    for (_taken, total), p in states.items():
        out[total] = out.get(total, 0.0) + p
    return out


def convolve(a: Distribution, b: Distribution) -> Distribution:
    out: Distribution = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0.0) + p * q
    return out


def weighted_sum(pools: Mapping[Hashable, Pool], groups: Sequence[Group]) -> Distribution:
    """Distribution of Σ weight × successes over every group, pools independent of each other."""
    result: Distribution = {0: 1.0}
    for key, pool in pools.items():
        mine = [g for g in groups if g.pool == key]
        if mine:
            result = convolve(result, _pool_distribution(pool, mine))
    unknown = {g.pool for g in groups} - set(pools)
    if unknown:
        raise RuleError("unknown_pool", pools=sorted(map(str, unknown)))
    return result


OUTCOMES = (0, 1, 2, 3)
"""0, 1, 2 and « 3 or more » net successes (Revers, Revers sérieux, Revers décisif)."""


@dataclass(frozen=True)
class TargetOdds:
    """Chances of each outcome on one target; ``chances[3]`` is 3 or more."""

    chances: tuple[float, float, float, float]

    @property
    def any_revers(self) -> float:
        return 1.0 - self.chances[0]


def bucket(net: Distribution, *, offset: int = 0, cost: int = 1) -> TargetOdds:
    """Fold a net-success distribution into Revers outcomes; ``cost`` successes make one Revers (size rules)."""
    if cost < 1:
        raise RuleError("bad_cost", cost=cost)
    chances = [0.0, 0.0, 0.0, 0.0]
    for value, p in net.items():
        revers = max(0, value + offset) // cost
        chances[min(3, revers)] += p
    return TargetOdds((chances[0], chances[1], chances[2], chances[3]))


def target_odds(
    *,
    pools: Mapping[Hashable, Pool],
    attack: Sequence[tuple[Hashable, int]],
    defence: Sequence[tuple[Hashable, int]] = (),
    known_attack: int = 0,
    known_defence: int = 0,
    defence_weight: int = 1,
    cost: int = 1,
    armour: Sequence[tuple[Hashable, int, int]] = (),
    known_armour_cancels: int = 0,
) -> TargetOdds:
    """Odds of the Revers landing on one target.

    ``attack``: (pool, cards) still to be drawn against the target, by anyone; ``defence``: (pool, cards)
    the target (or a teammate covering it) still has to draw; ``known_*``: successes already on the table.
    Each defence success cancels ``defence_weight`` attack successes (« Chaque succès d'une armure du
    futur annule deux succès d'une arme moderne »). ``armour``: (pool, cards, weight) the target's armour cards
    still to be drawn, whose successes cancel ``weight`` each; ``known_armour_cancels``: what the armour cards
    already drawn cancel beyond ``defence_weight`` each.
    """
    groups = [Group(p, n, 1) for p, n in attack] + [Group(p, n, -defence_weight) for p, n in defence]
    groups += [Group(p, n, -w) for p, n, w in armour]
    net = weighted_sum(pools, groups)
    return bucket(net, offset=known_attack - defence_weight * known_defence - known_armour_cancels, cost=cost)


def one_on_one(deck_size: int, deck_successes: int, attack: int, defence: int) -> TargetOdds:
    """The common case: attack and defence from one deck (the bench's 10 against 10 from 40)."""
    return target_odds(
        pools={"deck": Pool(deck_size, deck_successes)}, attack=[("deck", attack)], defence=[("deck", defence)]
    )
