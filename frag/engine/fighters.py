"""A fighter's sheet and its checks, and one turn's counters.

« Chaque joueur possède 7 points en début de jeu qu'il doit répartir entre ces 3 capacités, en mettant au moins
1 point et jamais plus de 4 sur une caractéristique. »
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction

ATTRIBUTES = ("health", "speed", "accuracy")
ATTRIBUTE_POINTS = 7
ATTRIBUTE_MIN, ATTRIBUTE_MAX = 1, 4
DEFAULT_FRAGS_TO_WIN = 3
DEFAULT_TURN_LIMIT = 400
MAX_PLAYERS = 6
# The sheet the simulations (frag_sim), the benchmarks and the search bot's fitted leaf (leaf.py) give every fighter:
# the 7 points spread 2 / 3 / 2. One place, so that the leaf is fitted on the fighters it is measured with.
STANDARD_SHEET = {"health": 2, "speed": 3, "accuracy": 2}


def check_fighter(fighter: dict[str, Any], wins: int = 0) -> None:
    """« 7 points [...] en mettant au moins 1 point et jamais plus de 4 sur une caractéristique » ;
    « En tournoi, gagner une partie permet d'augmenter les capacités » : one more point per win."""
    values = [fighter.get(a) for a in ATTRIBUTES]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise IllegalAction("Santé, Vitesse and Précision must be whole numbers")
    numbers = [v for v in values if isinstance(v, int)]  # every value, checked above
    if any(not ATTRIBUTE_MIN <= v <= ATTRIBUTE_MAX for v in numbers):
        raise IllegalAction("each of Santé, Vitesse and Précision must be between 1 and 4")
    expected = ATTRIBUTE_POINTS + wins
    if sum(numbers) != expected:
        raise IllegalAction("Santé, Vitesse and Précision must add up to {total}", total=expected)


def tournament_raise(fighter: dict[str, Any], attribute: str) -> dict[str, Any]:
    """« le vainqueur gagne le droit d'augmenter une de ses caractéristiques de 1 point » (still at most 4)."""
    if attribute not in ATTRIBUTES:
        raise IllegalAction("unknown attribute {name}", name=repr(attribute))
    if fighter[attribute] >= ATTRIBUTE_MAX:
        raise IllegalAction("an attribute cannot go above 4")
    return {**fighter, attribute: fighter[attribute] + 1, "wins": fighter.get("wins", 0) + 1}


@dataclass
class Fighter:
    name: str
    health: int  # Santé on the sheet: the starting health and the weapon limit
    speed: int
    accuracy: int
    hp: int = 0  # current Santé, armour included
    place: int | None = None
    out: bool = True  # off the board until the next respawn
    frags: int = 0
    blood: int = 0
    hand: list[int] = field(default_factory=list)
    weapons: list[list[int]] = field(default_factory=list)  # [card uid, ammunition left]
    armour: list[int] | None = None  # [card uid, points it still absorbs]


@dataclass
class Turn:
    player: int = 0
    number: int = 0
    mp: int = 0
    attacks: int = 0
    rolled: bool = False
    pickups_used: list[int] = field(default_factory=list)
    looted: list[int] = field(default_factory=list)  # squares whose markers were taken from
    piles_taken: list[int] = field(default_factory=list)
    dropped_piles: list[int] = field(default_factory=list)
