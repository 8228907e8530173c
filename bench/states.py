"""Savage-style states: exact odds computations and trait rolls per second (pure rules, no database)."""

from __future__ import annotations

import random

from bench.figures import Figure, per_second
from states.rules.dice import Modifier, TraitDie, trait_roll
from states.rules.odds import p_at_least, trait_odds

DICE = [TraitDie(s) for s in (4, 6, 8, 10, 12)] + [TraitDie(12, 1), TraitDie(12, 2)]


def _odds_table() -> None:
    # Cold cache each time: the figure measures the computation, not the memo.
    p_at_least.cache_clear()
    for die in DICE:
        for modifier in range(-6, 5):
            trait_odds(die, wild_card=True, modifier=modifier)
            trait_odds(die, wild_card=False, modifier=modifier)


def run() -> list[Figure]:
    rng = random.Random(1)
    mods = (Modifier("wounds", -2), Modifier("fatigue", -1))
    table_size = len(DICE) * 11 * 2
    tables = per_second("states: exact odds tables (154 odds each, cold cache)", _odds_table, unit="tables/s")
    return [
        tables,
        Figure("states: exact odds computations", tables.value * table_size, "per s"),
        per_second(
            "states: Wild Card trait rolls",
            lambda: trait_roll(rng, TraitDie(8), wild_card=True, modifiers=mods),
            unit="rolls/s",
        ),
        per_second("states: extra trait rolls", lambda: trait_roll(rng, TraitDie(6), wild_card=False), unit="rolls/s"),
    ]
