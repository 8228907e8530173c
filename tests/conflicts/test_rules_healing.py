"""Healing pace by weapon, as pure rules (the services' side is tests/conflicts/test_healing_pace.py).

CECJ V-3: « Les Revers se récupèrent généralement au rythme de "une Carte" par jour […] coups de poing » ;
« Les blessures plus profondes infligés par des armes tranchantes, voire les masses d'arme, ou les armes à feu
[…] 1 Carte par semaine » ; « le Narrateur reste libre de fixer le temps de récupération »."""

from __future__ import annotations

import pytest

from conflicts.rules.healing import BLUNT, BY_WEAPON, DEEP, inflicted_nature, weapon_nature


@pytest.mark.parametrize(
    ("carries_weapon", "firearm", "nature"),
    [(False, False, BLUNT), (True, False, DEEP), (False, True, DEEP), (True, True, DEEP)],
)
def test_bare_hands_heal_by_the_day_and_weapons_by_the_week(carries_weapon: bool, firearm: bool, nature: str) -> None:
    assert weapon_nature(carries_weapon=carries_weapon, firearm=firearm) == nature


def test_the_deepest_wound_landed_sets_the_pace_and_a_miss_sets_none() -> None:
    natures = {"gunman": DEEP, "brawler": BLUNT}
    both = {"gunman": 1, "brawler": 2}
    assert inflicted_nature(sequence_nature=BY_WEAPON, domain="physical", credited=both, natures=natures) == DEEP
    punch_only = {"gunman": 0, "brawler": 2}
    assert inflicted_nature(sequence_nature=BY_WEAPON, domain="physical", credited=punch_only, natures=natures) == BLUNT
    # An attacker the Sequence does not know hits like a fist.
    assert inflicted_nature(sequence_nature=BY_WEAPON, domain="physical", credited={"x": 1}, natures={}) == BLUNT


def test_the_narrator_fixes_the_pace_for_the_sequence_and_other_revers_heal_by_the_day() -> None:
    credited = {"brawler": 1}
    natures = {"brawler": BLUNT}
    assert inflicted_nature(sequence_nature=DEEP, domain="physical", credited=credited, natures=natures) == DEEP
    assert inflicted_nature(sequence_nature=BLUNT, domain="physical", credited={"g": 1}, natures={"g": DEEP}) == BLUNT
    assert inflicted_nature(sequence_nature=DEEP, domain="social", credited={"g": 1}, natures={"g": DEEP}) == BLUNT
