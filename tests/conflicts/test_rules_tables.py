"""Ranged combat table, equipment, eras and vehicle sizes (V « Combat à distance », VII « Equipement »)."""

from __future__ import annotations

import pytest

from conflicts.rules.equipment import (
    VEHICLES,
    Era,
    VehicleSize,
    armour_applies,
    defence_weight,
    outdistancing_side,
    successes_per_revers,
    vehicle_outdistances,
    vehicle_weapon_ignores_robustness,
)
from conflicts.rules.ranged import RANGE_TABLE, WeaponClass, closer, defence_cards, shot_difficulty
from conflicts.rules.ranks import Difficulty


def test_range_table_has_eighteen_bands_from_point_blank_to_interplanetary() -> None:
    assert len(RANGE_TABLE) == 18
    assert RANGE_TABLE[0].code == "point_blank" and RANGE_TABLE[-1].code == "interplanetary"


@pytest.mark.parametrize(
    ("band", "weapon", "difficulty"),
    [
        ("point_blank", WeaponClass.HANDGUN, Difficulty.FACILE),
        ("long", WeaponClass.HANDGUN, Difficulty.DIFFICILE),
        ("extreme", WeaponClass.HANDGUN, None),  # (1) Carabine & Fusil requis
        ("extreme", WeaponClass.CARBINE, Difficulty.EXTREME),
        ("far", WeaponClass.CARBINE, None),  # (2) Fusil requis
        ("far", WeaponClass.RIFLE, Difficulty.IMPOSSIBLE),
        ("far", WeaponClass.HEAVY, Difficulty.FACILE),
        ("district", WeaponClass.HEAVY, Difficulty.EXTREME),
        ("regional", WeaponClass.HEAVY, None),
        ("interplanetary", WeaponClass.SPACESHIP, Difficulty.EXTREME),
    ],
)
def test_shot_difficulty_by_range_and_weapon(band: str, weapon: WeaponClass, difficulty: Difficulty | None) -> None:
    assert shot_difficulty(band, weapon) is difficulty


def test_target_receives_the_number_in_parentheses_plus_cover_and_behaviour() -> None:
    assert defence_cards("medium", WeaponClass.HANDGUN) == 4
    assert defence_cards("medium", WeaponClass.HANDGUN, cover=2, behaviour=1) == 7
    assert defence_cards("extreme", WeaponClass.HANDGUN) is None


def test_extra_defence_successes_close_range_bands() -> None:
    assert closer("long", 2) == "short"
    assert closer("short", 5) == "point_blank"


def test_firearms_ignore_medieval_armour_and_future_weapons_ignore_modern_armour() -> None:
    assert not armour_applies(
        weapon_era=Era.MODERN, weapon_is_firearm=True, armour_era=Era.ANCIENT, armour_bulletproof=False
    )
    assert armour_applies(weapon_era=Era.MODERN, weapon_is_firearm=True, armour_era=Era.MODERN, armour_bulletproof=True)
    assert not armour_applies(
        weapon_era=Era.FUTURE, weapon_is_firearm=True, armour_era=Era.MODERN, armour_bulletproof=True
    )
    assert armour_applies(
        weapon_era=Era.ANCIENT, weapon_is_firearm=False, armour_era=Era.ANCIENT, armour_bulletproof=False
    )
    assert defence_weight(weapon_era=Era.MODERN, armour_era=Era.FUTURE) == 2
    assert defence_weight(weapon_era=Era.FUTURE, armour_era=Era.FUTURE) == 1


def test_future_armour_counts_against_a_modern_firearm_even_unticked() -> None:
    """« Les armes à feu ignorent les armures médiévales ou non pare-balle »; « Chaque succès d'une armure du
    futur annule deux succès d'une arme moderne »: the text makes future armour useful against modern guns, so
    it is taken as bulletproof (docs/rules-decisions.md, « Firearms and armour »), as on the sheet."""
    assert armour_applies(
        weapon_era=Era.MODERN, weapon_is_firearm=True, armour_era=Era.FUTURE, armour_bulletproof=False
    )
    assert not armour_applies(
        weapon_era=Era.MODERN, weapon_is_firearm=True, armour_era=Era.ANCIENT, armour_bulletproof=True
    )


def test_vehicle_sizes_cost_successes_per_revers() -> None:
    assert successes_per_revers(VehicleSize.SMALL, VehicleSize.MEDIUM) == 2
    assert successes_per_revers(VehicleSize.SMALL, VehicleSize.LARGE) == 2
    assert successes_per_revers(VehicleSize.SMALL, VehicleSize.HUGE) == 3
    assert successes_per_revers(VehicleSize.LARGE, VehicleSize.HUGE) == 2
    assert successes_per_revers(VehicleSize.HUGE, VehicleSize.SMALL) == 1


def test_vehicle_eras_and_table() -> None:
    assert vehicle_outdistances(Era.MODERN, Era.STEAM) and not vehicle_outdistances(Era.MODERN, Era.MODERN)
    assert vehicle_weapon_ignores_robustness(Era.FUTURE, Era.MODERN)
    assert VEHICLES["sports_car"] == (3, 1) and VEHICLES["bus_truck"] == (-1, 5)


def test_the_side_whose_slowest_vehicle_outdistances_every_other_wins_the_chase() -> None:
    """« Les véhicules modernes distancent automatiquement les véhicules de l'ère de la vapeur ou antérieurs.
    Les véhicules du futur distancent automatiquement les véhicules de l'ère moderne ou antérieurs. »"""
    assert outdistancing_side({"a": [Era.MODERN], "b": [Era.STEAM, Era.ANCIENT]}) == "a"
    assert outdistancing_side({"a": [Era.MODERN, Era.STEAM], "b": [Era.STEAM]}) is None
    assert outdistancing_side({"a": [Era.MODERN], "b": [Era.FUTURE]}) == "b"
    assert outdistancing_side({"a": [Era.STEAM], "b": [Era.ANCIENT]}) is None  # steam over medieval: not said
    assert outdistancing_side({"a": [Era.FUTURE], "b": [None]}) is None
    assert outdistancing_side({"a": [Era.FUTURE]}) is None
    assert outdistancing_side({"a": [Era.FUTURE], "b": [Era.MODERN], "c": [Era.STEAM]}) == "a"


def test_every_pair_of_vehicle_sizes_and_no_band_closed_for_no_success() -> None:
    """« Les petits véhicules doivent dépenser deux succès pour infliger un Revers à un véhicule moyen ou grand …
    trois succès … à un véhicule énorme. Les véhicules moyens ou grands doivent dépenser deux succès pour infliger
    un Revers à un véhicule énorme »: every other pair needs one success per Revers."""
    sizes = list(VehicleSize)
    assert [[successes_per_revers(a, t) for t in sizes] for a in sizes] == [
        [1, 2, 2, 3],
        [1, 1, 1, 2],
        [1, 1, 1, 2],
        [1, 1, 1, 1],
    ]
    # « Chaque succès utilisé de la sorte permet de se rapprocher d'une catégorie de portée »: none, no band.
    assert closer("long", 0) == "long" and closer("long", -2) == "long" and closer("long", 1) == "medium"
