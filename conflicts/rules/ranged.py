"""The ranged combat table (V « Hors de portée », « Combat à distance », after MegaTraveller).

« La table … donne la difficulté d'un tir en fonction de la portée … et (entre parenthèses) le nombre
de cartes de défense que reçoit la cible selon cette même portée. »
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .ranks import Difficulty

D = Difficulty


class WeaponClass(StrEnum):
    HANDGUN = "handgun"  # « Armes de poing » column, also bows and thrown weapons
    CARBINE = "carbine"
    RIFLE = "rifle"
    HEAVY = "heavy"  # « Armes lourdes véhicules »
    SPACESHIP = "spaceship"


@dataclass(frozen=True)
class RangeBand:
    code: str
    distance: str
    personal: Difficulty | None
    heavy: Difficulty | None
    spaceship: Difficulty | None
    needs: frozenset[WeaponClass] = frozenset()


CARBINE_OR_RIFLE = frozenset({WeaponClass.CARBINE, WeaponClass.RIFLE})
RIFLE_ONLY = frozenset({WeaponClass.RIFLE})

RANGE_TABLE: tuple[RangeBand, ...] = (
    RangeBand("point_blank", "0–5 m", D.FACILE, None, None),
    RangeBand("short", "10 m", D.SIMPLE, None, None),
    RangeBand("medium", "20 m", D.MOYENNE, None, None),
    RangeBand("long", "40 m", D.DIFFICILE, None, None),
    RangeBand("very_long", "80 m", D.TRES_DIFFICILE, None, None),
    RangeBand("extreme", "160 m", D.EXTREME, None, None, CARBINE_OR_RIFLE),
    RangeBand("far", "250 m", D.IMPOSSIBLE, D.FACILE, None, RIFLE_ONLY),
    RangeBand("very_far", "500 m", None, D.SIMPLE, None),
    RangeBand("distant", "750 m", None, D.MOYENNE, None),
    RangeBand("very_distant", "1 000 m", None, D.DIFFICILE, None),
    RangeBand("local", "1 500 m", None, D.TRES_DIFFICILE, None),
    RangeBand("district", "5 km", None, D.EXTREME, None),
    RangeBand("regional", "500 km", None, None, D.FACILE),
    RangeBand("continental", "5 000 km", None, None, D.SIMPLE),
    RangeBand("planetary", "50 000 km", None, None, D.MOYENNE),
    RangeBand("high_orbit", "0,5 Mkm", None, None, D.DIFFICILE),
    RangeBand("far_orbit", "5 Mkm", None, None, D.TRES_DIFFICILE),
    RangeBand("interplanetary", "1 AU", None, None, D.EXTREME),
)
BANDS = {band.code: band for band in RANGE_TABLE}


def band(code: str) -> RangeBand:
    return BANDS[code]


def shot_difficulty(range_code: str, weapon: WeaponClass) -> Difficulty | None:
    """The Test difficulty of a shot, or None when the weapon cannot reach (« - » or the footnotes).

    « (1) Carabine & Fusil requis (2) Fusil requis »: the footnotes bind the personal-weapons column.
    """
    row = BANDS[range_code]
    weapon = WeaponClass(weapon)
    if weapon is WeaponClass.HEAVY:
        return row.heavy
    if weapon is WeaponClass.SPACESHIP:
        return row.spaceship
    if row.needs and weapon not in row.needs:
        return None
    return row.personal


def defence_cards(range_code: str, weapon: WeaponClass, *, cover: int = 0, behaviour: int = 0) -> int | None:
    """Defence cards the target receives: the number in parentheses, plus « 1 ou 2 cartes » for cover and
    what the narrator grants for the target's behaviour and the conditions."""
    difficulty = shot_difficulty(range_code, weapon)
    if difficulty is None:
        return None
    return difficulty.required_rank + max(0, cover) + max(0, behaviour)


def band_index(range_code: str) -> int:
    return [b.code for b in RANGE_TABLE].index(range_code)


def closer(range_code: str, bands: int) -> str:
    """Each extra defence success « permet de se rapprocher d'une catégorie de portée »."""
    return RANGE_TABLE[max(0, band_index(range_code) - max(0, bands))].code
