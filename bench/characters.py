"""Characters: creation budgets and Atout spend checks per second (pure rules, no database)."""

from __future__ import annotations

from bench.figures import Figure, per_second
from characters.rules.atouts import AtoutUse, Balances, RollHistory, SpendRequest, spend_plan
from characters.rules.creation import creation_budget
from characters.rules.traits import default_traits

TRAITS = default_traits()
RANKS = {"esprit": 5, "presence": 4, "medecine": 4, "tir": 3, "combat": 3, "telepathie": 2}


def run() -> list[Figure]:
    bonus = SpendRequest(use=AtoutUse.TEMPORARY_BONUS, roll=RollHistory(own_bonuses=1, countered=1))
    balances = Balances(creation=2, experience=3)
    return [
        per_second(
            "characters: creation budgets (21 traits, 6 rated)",
            lambda: creation_budget(mode="standard", total=11, traits=TRAITS, ranks=RANKS),
            unit="budgets/s",
        ),
        per_second(
            "characters: streamlined budgets",
            lambda: creation_budget(mode="streamlined", total=15, traits=TRAITS, ranks=RANKS),
            unit="budgets/s",
        ),
        per_second("characters: Atout spend checks", lambda: spend_plan(bonus, balances), unit="checks/s"),
    ]
