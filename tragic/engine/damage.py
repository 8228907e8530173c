"""Damage arithmetic, free of game state so that the rule texts' worked examples are checked directly.

Readings of ambiguous passages are written down in docs/rules-decisions.md (## TRAGIC).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from .dice import rolls

# Which armour reduces which damage. « Les Armures sans suffixes vont réduire tous les dégats … les
# Armures Bactériologiques vont réduire les dégats de Poison et Bactériologique, les Armure Ignifugés
# vont réduire les dégats de Feu » ; « Armure Énergétique : … y compris Feu, Cryogénique, Laser,
# Plasmique, ou Électrique » ; « Armure en Métal Poli : … Laser » (000, VII). Radiation « ignore
# l'Armure » and poison « traverse l'Armure »: only their own armour applies.
ARMOUR_AGAINST: dict[str, tuple[str, ...]] = {
    "generic": ("generic",),
    "explosion": ("generic", "explosion"),
    "bacteriological": ("generic", "bacteriological"),
    "poison": ("bacteriological",),
    "radiation": ("radiation",),
    "fire": ("generic", "fire", "energy"),
    "energy": ("generic", "energy"),
    "cryo": ("generic", "energy"),
    "plasma": ("generic", "energy"),
    "electric": ("generic", "energy"),
    "laser": ("generic", "energy", "polished_metal"),
}
BASE_CRIT_CHANCES = 2
BASE_CRIT_MULTIPLIER = 2


def armour_against(armour: Mapping[str, int], damage_type: str) -> int:
    return max(0, sum(armour.get(kind, 0) for kind in ARMOUR_AGAINST[damage_type]))


def raw_damage(points: int, bonus: int, multiplier: int, flat: int) -> int:
    """« [ 5 (SPECIAL) + 1 (Bonus Légendaire) ] x2 = 12 Points de dégats de base » (000, VII, Point de dégat de base)."""
    return max(0, (points + bonus) * multiplier + flat) if multiplier else max(0, flat)


def base_damage(raw: int, armour: int, *, penetration: int = 0, piercing: bool = False) -> int:
    """« J'ai 3 Points d'Armure, tu en ignores 2, tu ne m'infligeras donc que 11 » (000, III.6.b).

    PÉNÉTRANT xN « ignore une quantité d'Armure adverse égale à l'indice » ; TRANSPERÇANT « ignore
    totalement l'Armure adverse ».
    """
    effective = 0 if piercing else max(0, armour - penetration)
    return max(0, raw - effective)


@dataclass(frozen=True)
class CriticalRoll:
    chance_dice: tuple[int, ...]
    confirmation: int
    criticals: int


def roll_criticals(chances: int, rng: random.Random) -> CriticalRoll:
    """« On commence avec 2 chances (2 dés) … plus 1 dé de confirmation qui ne peut jamais être soustrait »
    and « il faut obtenir un double 1 » (000, V.3).

    Reading: every chance die showing 1 pairs with a confirmation die showing 1 into one critical.
    With no chance die left only the confirmation die is rolled, and it can do nothing.
    """
    dice = tuple(rolls(rng, max(0, chances), 6))
    confirmation = rolls(rng, 1, 6)[0]
    criticals = sum(1 for d in dice if d == 1) if confirmation == 1 else 0
    return CriticalRoll(dice, confirmation, criticals)


def critical_factor(criticals: int, multiplier: int = BASE_CRIT_MULTIPLIER) -> int:
    """The factor base damage is multiplied by for ``criticals`` confirmed criticals.

    One critical multiplies (« on double les dégats finaux », ×3 with La Poisse: « Dégat de base x 3 »).
    Several multiply, and each one after the first adds the base damage once more, which is how the
    booklet counts two criticals of three: « 9x2x2+9=36+9=45 » (000, VII, Vampirisme).
    """
    if criticals <= 0:
        return 1
    power: int = multiplier**criticals  # criticals > 0: an int
    return power + (criticals - 1)


def final_damage(base: int, factor: int, applications: int = 1) -> int:
    """« Lorsqu'un effet doit s'appliquer une fois de plus, ajoutez simplement le précédent résultat au
    nouveau » (000, VII): CIBLAGE on a weak hand applies the attack once more, 11 → 22."""
    return base * factor * applications


@dataclass(frozen=True)
class ExcessSplit:
    to_ally: int
    to_player: int


def excess_split(
    base: int, factor: int, *, ally_life: int, ally_armour: int, player_armour: int, absorb_all: bool = False
) -> ExcessSplit:
    """EXCÈS DE DÉGATS with criticals, after the wiki's example (001, Attaquer):

    « De 8, on soustrait 1, cela donne 7, l'Allié reçoit 4 points de dégat, soit l'équivalent de 2 points
    de dégats de base multiplié par 2 … il reste donc 5 Points de Dégat de base … il reste un point de
    dégat « critique » en attente … On soustrait alors 3 d'Armure aux 5 Points de dégat restant, ce qui
    donne 2, on multiplie par 2, et on ajoute le point précédemment en excès, soit 5 ».

    ``base`` is before the ally's armour. ABSORPTION TOTALE keeps everything on the ally.
    """
    against_ally = max(0, base - ally_armour)
    if absorb_all or against_ally * factor <= ally_life:
        return ExcessSplit(against_ally * factor, 0)
    used = -(-ally_life // factor)  # base points needed to defeat the ally, rounded up
    pending = used * factor - ally_life
    remaining = against_ally - used
    to_player = max(0, remaining - player_armour) * factor + pending
    return ExcessSplit(used * factor, to_player)


@dataclass(frozen=True)
class Clash:
    damage_to_a: int
    damage_to_b: int


def ally_clash(power_a: int, armour_a: int, power_b: int, armour_b: int) -> Clash:
    """« Lorsqu'un Allié affronte un autre Allié, les dégats s'échangent simultanément » (000, III.6.c);
    ARMURE xN: « une Attaque doit dépasser ce nombre pour infliger des dégats »."""
    return Clash(damage_to_a=max(0, power_b - armour_a), damage_to_b=max(0, power_a - armour_b))


def martyr_damage(power: int, index: int) -> int:
    """« une 2/1 avec MARTYR x3 produira en une seule fois 6 points de dégat » (000, VII, Martyr)."""
    return power * index
