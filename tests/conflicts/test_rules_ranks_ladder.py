"""The one rung of the ladder the pure conflict rules name is the ladder's own (they may not import it)."""

from __future__ import annotations

from characters.rules.ladder import Rank
from conflicts.rules.ranks import FAIBLE


def test_the_conflict_rules_faible_is_the_ladders() -> None:
    assert FAIBLE == Rank.FAIBLE
