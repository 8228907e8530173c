"""Fields of expertise, concept and setting (V, « Champs d'expertise, Concept du personnage et Cadre de jeu »)."""

from __future__ import annotations

from enum import StrEnum

from .ranks import FAIBLE


class Relatedness(StrEnum):
    CLOSE = "close"
    RELATED = "related"
    DISTANT = "distant"


RELATEDNESS_SHIFT = {Relatedness.CLOSE: 0, Relatedness.RELATED: 1, Relatedness.DISTANT: 2}


def related_rank(rank: int, relatedness: Relatedness) -> int:
    """« Liés mais pas central – … réduit d'un Rang (Rang Faible minimum). Distants – … de deux Rangs. »

    The floor only stops the reduction: a field already below Faible is not raised by it.
    """
    shift = RELATEDNESS_SHIFT[Relatedness(relatedness)]
    if shift == 0 or rank <= FAIBLE:
        return rank
    return max(FAIBLE, rank - shift)
