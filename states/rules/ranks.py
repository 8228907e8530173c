"""Vigueur and Âme dice derived from MicroFudge ranks, through a mapping each campaign can edit.

The proposed mapping (docs/rules-decisions.md) spreads the ladder evenly over the Savage dice:
Abyssal d4−3, Lamentable d4−2, Faible d4, Médiocre d6, Moyen d8, Bon d10, Excellent d12,
Exceptionnel d12+1, Légendaire d12+2 (and every value above 8).
"""

from __future__ import annotations

from collections.abc import Mapping

from .dice import TraitDie

RANK_VALUES = range(0, 9)
DEFAULT_RANK_DICE: dict[int, str] = {
    0: "d4-3",
    1: "d4-2",
    2: "d4",
    3: "d6",
    4: "d8",
    5: "d10",
    6: "d12",
    7: "d12+1",
    8: "d12+2",
}


def validated_mapping(mapping: Mapping[int, str] | Mapping[str, str]) -> dict[int, str]:
    """Every rank value 0–8 mapped to a readable trait die; a missing value takes the default."""
    result = dict(DEFAULT_RANK_DICE)
    for key, text in mapping.items():
        value = int(key)
        if value not in RANK_VALUES:
            raise ValueError(f"Rank value {value} is outside 0–8.")
        result[value] = str(TraitDie.parse(text))
    return result


def die_for_rank(value: int, mapping: Mapping[int, str] | Mapping[str, str] | None = None) -> TraitDie:
    """The trait die of a rank value (Légendaire is 8 and above)."""
    table = validated_mapping(mapping or {})
    return TraitDie.parse(table[max(0, min(value, 8))])
