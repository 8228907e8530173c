"""The two rule texts as configuration: the booklet (000, 2nd edition) and the wiki revision (001, default)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    name: str
    base_life: int
    special_share_pct: int
    recommended_specials: int
    max_players: int
    # Wiki: « après payé un cout (et résolu la pile d'événement qui en découle) » in the main phase only.
    special_after_stack: bool
    special_in_upkeep: bool
    # Wiki: « Il ne doit pas désengager de carte … dans sa ZONE D'ÉQUIPEMENT ni dans sa ZONE DE TRAIT ».
    traits_stay_engaged: bool
    # Wiki: « le mieux reste encore d'utiliser le Mulligan London »; booklet: only if all agree.
    mulligan_by_default: bool


PROFILES: dict[str, Profile] = {
    "wiki": Profile(
        name="wiki",
        base_life=50,
        special_share_pct=33,
        recommended_specials=20,
        max_players=4,
        special_after_stack=True,
        special_in_upkeep=False,
        traits_stay_engaged=True,
        mulligan_by_default=True,
    ),
    "booklet": Profile(
        name="booklet",
        base_life=100,
        special_share_pct=30,
        recommended_specials=18,
        max_players=2,
        special_after_stack=False,
        special_in_upkeep=True,
        traits_stay_engaged=False,
        mulligan_by_default=False,
    ),
}
DEFAULT_PROFILE = "wiki"

# « Singleton … Duo … Triplette … Quad » (000, III.2.d).
COPY_LIMITS: dict[str, int] = {"singleton": 1, "duo": 2, "triplette": 3, "quad": 4}
LIBRARY_SIZE = 60
