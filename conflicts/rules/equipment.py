"""Equipment, eras and vehicles (VII « 2 – Equipement »): what they add to a Test or a card count."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import IntEnum

QUALITY = {"inferior": -1, "average": 0, "good": 1, "superior": 2}
"""« Inférieur ou pas de matériel : -1 … Moyen : +0 … Bon : +1 … Supérieur : +2 »."""

WEAPONS = {"light": 0, "medium": 1, "heavy": 2, "massive": 3}
"""« Légères : +0 … Moyennes : +1 … Lourdes : +2 … Massives : +3 »; usable « en Attaque OU en Défense »."""

ARMOURS = {"none": 0, "light": 1, "medium": 2, "heavy": 3}
"""« Légères : +1 (cuir) … Moyennes : +2 … Lourdes : +3 »; « ne s'appliquent qu'en Défense »."""

SHIELD_DEFENCE = 1
"""« Option : boucliers +1 carte de Défense »."""

TWO_WEAPONS = 1
"""« Option : combat avec deux armes +1 carte d'Attaque ou de Défense (au choix du joueur) »."""


class Era(IntEnum):
    """Technological eras the equipment rules compare."""

    ANCIENT = 0  # medieval or older
    STEAM = 1
    MODERN = 2
    FUTURE = 3


def armour_applies(*, weapon_era: Era, weapon_is_firearm: bool, armour_era: Era, armour_bulletproof: bool) -> bool:
    """« Les armes à feu ignorent les armures médiévales ou non pare-balle. Les armes du futur … ignorent les
    armures de l'ère moderne ou antérieure. »"""
    if weapon_era is Era.FUTURE and armour_era <= Era.MODERN:
        return False
    # Future armour is taken as bulletproof, medieval armour never is (docs/rules-decisions.md, « Firearms and
    # armour »; the same reading as characters.rules.equipment.armour_against).
    bulletproof = armour_era is Era.FUTURE or (armour_bulletproof and armour_era > Era.ANCIENT)
    return not (weapon_is_firearm and not bulletproof)


def defence_weight(*, weapon_era: Era, armour_era: Era) -> int:
    """« Chaque succès d'une armure du futur annule deux succès d'une arme moderne ou d'une ère antérieure. »"""
    return 2 if armour_era is Era.FUTURE and weapon_era <= Era.MODERN else 1


class VehicleSize(IntEnum):
    """« Petit … Moyen … Grand … Enorme » (« Catégories de véhicules »)."""

    SMALL = 0
    MEDIUM = 1
    LARGE = 2
    HUGE = 3


def successes_per_revers(attacker: VehicleSize, target: VehicleSize) -> int:
    """« Les petits véhicules doivent dépenser deux succès pour infliger un Revers à un véhicule moyen ou
    grand … trois succès … à un véhicule énorme. Les véhicules moyens ou grands doivent dépenser deux
    succès pour infliger un Revers à un véhicule énorme. »"""
    if attacker is VehicleSize.SMALL:
        return {VehicleSize.SMALL: 1, VehicleSize.MEDIUM: 2, VehicleSize.LARGE: 2, VehicleSize.HUGE: 3}[target]
    if attacker in (VehicleSize.MEDIUM, VehicleSize.LARGE) and target is VehicleSize.HUGE:
        return 2
    return 1


VEHICLES: dict[str, tuple[int, int]] = {
    "motorbike": (3, -1),
    "dirt_bike": (1, 1),
    "sports_car": (3, 1),
    "family_saloon": (1, 1),
    "luxury_saloon": (2, 2),
    "suv_pickup": (1, 2),
    "suv_4x4": (1, 3),
    "van": (0, 4),
    "bus_truck": (-1, 5),
}
"""Small modern vehicles: (Vitesse, Robustesse). The « Spécial » cards are situational: the narrator adds them."""


def vehicle_outdistances(pursuer_or_fleer: Era, other: Era) -> bool:
    """« Les véhicules modernes distancent automatiquement les véhicules de l'ère de la vapeur ou antérieurs.
    Les véhicules du futur distancent automatiquement les véhicules de l'ère moderne ou antérieurs. »"""
    return (pursuer_or_fleer is Era.MODERN and other <= Era.STEAM) or (
        pursuer_or_fleer is Era.FUTURE and other <= Era.MODERN
    )


def outdistancing_side(vehicles: Mapping[str, Iterable[Era | None]]) -> str | None:
    """The side that « distance automatiquement » every other in a chase, or None.

    « Les véhicules modernes distancent automatiquement les véhicules de l'ère de la vapeur ou antérieurs.
    Les véhicules du futur distancent automatiquement les véhicules de l'ère moderne ou antérieurs. »
    (VII, « Petits véhicules de l'ère moderne »). ``vehicles`` maps each side still in the chase to the eras
    of its participants' vehicles (None: no vehicle era given, e.g. on foot). A side outdistances the others
    only if each of its vehicles outdistances each of theirs: its slowest era against their fastest. An
    unknown era anywhere leaves the chase to the cards (the narrator has not said what drives).
    """
    eras = {side: list(found) for side, found in vehicles.items()}
    if len(eras) < 2 or any(not found or None in found for found in eras.values()):
        return None
    for side, mine in eras.items():
        slowest = min(e for e in mine if e is not None)
        if all(
            vehicle_outdistances(slowest, max(e for e in theirs if e is not None))
            for other, theirs in eras.items()
            if other != side
        ):
            return side
    return None


def vehicle_weapon_ignores_robustness(weapon_era: Era, vehicle_era: Era) -> bool:
    """« Les armes des véhicules modernes ignorent la Robustesse des véhicules de l'ère de la vapeur ou
    antérieurs. Les armes des véhicules du futur ignorent la Robustesse des véhicules de l'ère moderne »."""
    return vehicle_outdistances(weapon_era, vehicle_era)
