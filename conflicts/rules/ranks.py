"""The ladder of ranks and the difficulty scale (V, « Evaluation des Aptitudes » and « Degrés de difficulté »).

The ladder itself is ``characters.rules.ladder.Rank``; the difficulties that point into it live here, with the
one rung these rules name. A pure rules package imports no app, not even another app's rules, so that rung is a
plain number here; ``tests/conflicts/test_rules_ranks_ladder.py`` pins it to the ladder.
"""

from __future__ import annotations

from enum import IntEnum

# « Faible » on the ladder (« Abyssal (0), Lamentable (1), Faible (2) … », V): the floor of a related field and
# the rank at or below which a highly technical task is a hazardous Test.
FAIBLE = 2


class Difficulty(IntEnum):
    """« Chaque Degré de difficulté est associé à un Rang … minimum requis pour un succès. »

    The value is the required rank: n.a. = Lamentable, Facile = Faible … Impossible = Légendaire.
    """

    NA = 1
    FACILE = 2
    SIMPLE = 3
    MOYENNE = 4
    DIFFICILE = 5
    TRES_DIFFICILE = 6
    EXTREME = 7
    IMPOSSIBLE = 8

    @property
    def required_rank(self) -> int:
        return int(self.value)

    @property
    def needs_roll(self) -> bool:
        """« n.a. : Aucun Test n'est requis pour accomplir une action aussi triviale. »"""
        return self is not Difficulty.NA


def difficulty_from_rank(rank: int) -> Difficulty:
    """« Le Rang de la Caractéristique donne alors la Difficulté (un Rang Bon indique une action Difficile). »

    An opponent's trait sets the difficulty; ranks beyond the scale stay at its ends.
    """
    return Difficulty(min(max(int(rank), Difficulty.NA), Difficulty.IMPOSSIBLE))
