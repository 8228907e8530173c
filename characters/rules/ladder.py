"""The ladder of ranks (I, III and V).

« Abyssal (0), Lamentable (1), Faible (2) ← Valeur par défaut pour toute Caractéristique non
citée, Médiocre (3), Moyen (4), Bon (5), Excellent (6), Exceptionnel (7), Légendaire (8+) »
« Le chiffre entre parenthèses est le nombre de Cartes qui seront tirées »

Values past 8 are kept as plain ints and read "Légendaire +N". Labels exist in French (the rule
text) and English (the glossary); ``rank_label(value, language)`` picks one without gettext so
that the rules stay pure.
"""

from __future__ import annotations

from enum import IntEnum


class Rank(IntEnum):
    ABYSSAL = 0
    LAMENTABLE = 1
    FAIBLE = 2
    MEDIOCRE = 3
    MOYEN = 4
    BON = 5
    EXCELLENT = 6
    EXCEPTIONNEL = 7
    LEGENDAIRE = 8


DEFAULT_RANK = Rank.FAIBLE
# « le rang maximum que peut naturellement atteindre un humain est Exceptionnel (7) » (V)
HUMAN_MAXIMUM = Rank.EXCEPTIONNEL
MINIMUM = Rank.ABYSSAL

RANK_LABELS_FR: dict[int, str] = {
    0: "Abyssal",
    1: "Lamentable",
    2: "Faible",
    3: "Médiocre",
    4: "Moyen",
    5: "Bon",
    6: "Excellent",
    7: "Exceptionnel",
    8: "Légendaire",
}
RANK_LABELS_EN: dict[int, str] = {
    0: "Abysmal",
    1: "Terrible",
    2: "Poor",
    3: "Mediocre",
    4: "Fair",
    5: "Good",
    6: "Great",
    7: "Superb",
    8: "Legendary",
}
_LABELS = {"fr": RANK_LABELS_FR, "en": RANK_LABELS_EN}


def rank_label(value: int, language: str = "fr") -> str:
    """The rank's name: ``rank_label(5) == "Bon"``, ``rank_label(10) == "Légendaire +2"``.

    Negative values (a trait pushed below Abyssal by penalties) read as Abyssal −N.
    """
    labels = _LABELS.get(language[:2], RANK_LABELS_FR)
    if value > Rank.LEGENDAIRE:
        return f"{labels[8]} +{value - Rank.LEGENDAIRE}"
    if value < Rank.ABYSSAL:
        return f"{labels[0]} −{-value}"
    return labels[value]


def rank_label_fr(value: int) -> str:
    return rank_label(value, "fr")


def rank_label_en(value: int) -> str:
    return rank_label(value, "en")


def clamp(value: int, lowest: int = Rank.ABYSSAL, highest: int | None = None) -> int:
    """Keep a value on the ladder: never below ``lowest``, never above ``highest`` when given."""
    value = max(lowest, value)
    return value if highest is None else min(highest, value)


def shift(value: int, steps: int, floor: int = Rank.ABYSSAL) -> int:
    """Move ``steps`` ranks up (or down when negative), stopping at ``floor``."""
    return max(floor, value + steps)


def cards(value: int) -> int:
    """Cards drawn in a risky conflict: the value itself, never fewer than none."""
    return max(0, value)
