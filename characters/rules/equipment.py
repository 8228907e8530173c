"""Equipment (VII-2): quality, weapons, armour, shields, eras and vehicles.

« Inférieur ou pas de matériel : -1 ; Moyen : +0 ; Bon : +1 ; Supérieur : +2 »
« Légères : +0 ; Moyennes : +1 ; Lourdes : +2 ; Massives : +3 » — « les bonus de cartes fournis par
les armes peuvent être utilisés en Attaque ou en Défense » ; « combat avec deux armes : +1 carte
d'Attaque ou de Défense (au choix du joueur) ».
« Armures Légères : +1 ; Moyennes : +2 ; Lourdes : +3 » ; « boucliers : +1 carte de Défense » ;
« Les bonus fournis par les armures ne s'appliquent qu'en Défense » ; « Les armes à feu ignorent les
armures médiévales ou non pare-balle » ; « Les armes du futur […] ignorent les armures de l'ère
moderne ou antérieure » ; « Chaque succès d'une armure du futur annule deux succès d'une arme
moderne ou d'une ère antérieure ».
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import IntEnum
from functools import cache

from .errors import DataError, RuleViolation
from .traits import DATA_DIR


class Quality(IntEnum):
    INFERIOR = -1
    AVERAGE = 0
    GOOD = 1
    SUPERIOR = 2


class WeaponClass(IntEnum):
    LIGHT = 0
    MEDIUM = 1
    HEAVY = 2
    MASSIVE = 3


class ArmourClass(IntEnum):
    LIGHT = 1
    MEDIUM = 2
    HEAVY = 3


class Era(IntEnum):
    MEDIEVAL = 0
    STEAM = 1
    MODERN = 2
    FUTURE = 3


SHIELD_BONUS = 1
TWO_WEAPONS_BONUS = 1


def check_quality(value: int) -> int:
    if value not in tuple(Quality):
        raise RuleViolation("equipment.quality_range", value=value)
    return value


@dataclass(frozen=True)
class Weapon:
    bonus: int = 0  # a WeaponClass value
    era: int = Era.MODERN
    firearm: bool = False


@dataclass(frozen=True)
class Armour:
    bonus: int = 0  # an ArmourClass value, 0 when none
    era: int = Era.MODERN
    bulletproof: bool = False


@dataclass(frozen=True)
class ArmourEffect:
    """Armour cards the defender draws against one weapon, and successes each armour success cancels."""

    cards: int
    cancels_per_success: int


def armour_against(weapon: Weapon, armour: Armour, *, shield: bool = False) -> ArmourEffect:
    """Armour (and shield) cards usable in defence against ``weapon``, after the era rules."""
    cards = armour.bonus
    # Future armour is taken as bulletproof; medieval armour never is (docs/rules-decisions.md).
    bulletproof = armour.era == Era.FUTURE or (armour.bulletproof and armour.era > Era.MEDIEVAL)
    if weapon.firearm and not bulletproof:
        cards = 0
    if weapon.era == Era.FUTURE and armour.era <= Era.MODERN:
        cards = 0
    cancels = 2 if armour.era == Era.FUTURE and weapon.era < Era.FUTURE and cards else 1
    return ArmourEffect(cards=cards + (SHIELD_BONUS if shield else 0), cancels_per_success=cancels)


@dataclass(frozen=True)
class Vehicle:
    code: str
    name_fr: str
    name_en: str
    speed: int
    robustness: int
    special_fr: str = ""
    special_en: str = ""
    size: str = "small"
    era: int = Era.MODERN


SIZES = ("small", "medium", "large", "huge")


def successes_per_revers(attacker_size: str, target_size: str) -> int:
    """« Les petits véhicules doivent dépenser deux succès pour infliger un Revers à un véhicule moyen
    ou grand […] trois succès […] à un véhicule énorme. Les véhicules moyens ou grands doivent
    dépenser deux succès pour infliger un Revers à un véhicule énorme. »"""
    if attacker_size == "small":
        return {"small": 1, "medium": 2, "large": 2, "huge": 3}[target_size]
    if attacker_size in ("medium", "large") and target_size == "huge":
        return 2
    return 1


def outpaces(era_a: int, era_b: int) -> bool:
    """« Les véhicules modernes distancent automatiquement les véhicules de l'ère de la vapeur ou
    antérieurs » ; likewise future over modern or earlier."""
    return era_a >= Era.MODERN and era_b < era_a


@cache
def vehicles() -> tuple[Vehicle, ...]:
    """The seed's « Petits véhicules de l'ère moderne », validated on load."""
    path = DATA_DIR / "vehicles.toml"
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("vehicle", [])
    result = []
    for index, entry in enumerate(entries, start=1):
        for field, kind in (("code", str), ("name_fr", str), ("name_en", str), ("speed", int), ("robustness", int)):
            if not isinstance(entry.get(field), kind):
                raise DataError(f"{path.name}, entry {index}, field '{field}': {kind.__name__} required")
        if entry.get("size", "small") not in SIZES:
            raise DataError(f"{path.name}, entry {index} ({entry['code']}), field 'size': one of {', '.join(SIZES)}")
        result.append(Vehicle(**entry))
    return tuple(result)
