"""Psychic power domains (VI and appendix 1).

« Les Domaines psychiques ont un rang par défaut Abyssal et ne peuvent être manipulés efficacement
avant d'atteindre le rang Faible. Un rang Lamentable signifie que le personnage dispose d'un
pouvoir latent » ; « le Psy acquiert une nouvelle Caractéristique appelée Potentiel […] égal à la
valeur du Domaine psychique » ; « Chaque utilisation d'un pouvoir psychique consomme un point du
Potentiel psychique » ; « Le Psy peut cependant tenter de masquer son intrusion, le rang requis
pour utiliser le pouvoir psychique est alors augmenté de un cran ».

Fatigue (option) : « L'Aptitude Vigueur du personnage est temporairement réduite de un rang après
chaque utilisation. Si cette Aptitude chute en dessous du rang Lamentable, le personnage est épuisé
et s'effondre » ; « Un rang de Vigueur perdu […] se récupère à l'issue d'un repos d'environ 15
minutes ».
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from .errors import DataError, RuleViolation
from .ladder import Rank
from .traits import DATA_DIR

# « Difficulté des Pouvoirs psychiques » : rang requis → (difficulté, niveau de pouvoir)
DIFFICULTY_TABLE: dict[int, tuple[str, int]] = {
    Rank.FAIBLE: ("facile", 1),
    Rank.MEDIOCRE: ("simple", 2),
    Rank.MOYEN: ("moyenne", 3),
    Rank.BON: ("difficile", 4),
    Rank.EXCELLENT: ("tres_difficile", 5),
    Rank.EXCEPTIONNEL: ("extreme", 6),
}
DIFFICULTY_LABELS_FR = {
    "facile": "Facile",
    "simple": "Simple",
    "moyenne": "Moyenne",
    "difficile": "Difficile",
    "tres_difficile": "Très difficile",
    "extreme": "Extrême",
    "impossible": "Impossible",
}
FATIGUE_REST_MINUTES = 15


def usable(domain_rank: int) -> bool:
    return domain_rank >= Rank.FAIBLE


def latent(domain_rank: int) -> bool:
    return domain_rank == Rank.LAMENTABLE


def potential(domain_rank: int) -> int:
    """Uses available after a night's rest: the domain's value once it reaches Faible."""
    return domain_rank if usable(domain_rank) else 0


@dataclass(frozen=True)
class PowerUse:
    required_rank: int
    difficulty: str
    power_level: int
    potential_left: int
    vigour_lost: int
    collapsed: bool


def required_rank_for(power_rank: int, *, masked: bool = False, several_objects: bool = False) -> int:
    """The rank a use needs: the power's rank, one step more to mask an intrusion, one more to move
    several objects with Télékinésie (« la Difficulté est toutefois augmentée d'un degré »)."""
    return power_rank + int(masked) + int(several_objects)


def difficulty_for(required_rank: int) -> tuple[str, int]:
    if required_rank > Rank.EXCEPTIONNEL:
        return "impossible", required_rank - 1
    return DIFFICULTY_TABLE[max(Rank.FAIBLE, required_rank)]


def power_use(
    *,
    domain_rank: int,
    power_rank: int,
    potential_left: int,
    masked: bool = False,
    several_objects: bool = False,
    fatigue_rule: bool = False,
    vigour: int = Rank.FAIBLE,
    vigour_lost: int = 0,
    fed: bool = False,
) -> PowerUse:
    """Check and cost one use of a power. Raises ``RuleViolation`` when the use is not allowed.

    ``fed``: the use is paid by a trait feeding the domain (``feed``), not by a Potentiel point."""
    if latent(domain_rank):
        raise RuleViolation("psychic.latent")
    if not usable(domain_rank):
        raise RuleViolation("psychic.not_usable")
    required = required_rank_for(power_rank, masked=masked, several_objects=several_objects)
    if domain_rank < required:
        raise RuleViolation("psychic.rank_too_low", required=required, rank=domain_rank)
    if potential_left < 1 and not fed:
        raise RuleViolation("psychic.no_potential")
    if fatigue_rule and vigour - vigour_lost < Rank.LAMENTABLE:
        raise RuleViolation("psychic.exhausted")
    difficulty, level = difficulty_for(required)
    lost = vigour_lost + 1 if fatigue_rule else vigour_lost
    return PowerUse(
        required_rank=required,
        difficulty=difficulty,
        power_level=level,
        potential_left=potential_left if fed else potential_left - 1,
        vigour_lost=lost,
        collapsed=fatigue_rule and vigour - lost < Rank.LAMENTABLE,
    )


def fatigue_recovered(vigour_lost: int, rest_minutes: int) -> int:
    """Vigour ranks still lost after ``rest_minutes`` of rest (one back per 15 minutes)."""
    return max(0, vigour_lost - rest_minutes // FATIGUE_REST_MINUTES)


REST_CAP_SECONDS = 8 * 86400
"""Rest is counted up to a week (more never matters: the longest setting is 168 hours)."""


@dataclass(frozen=True)
class RestRecovery:
    vigour_lost: int
    potential_back: bool
    rested_seconds: int


def rest_recovery(
    *, rested_seconds: int, elapsed_seconds: int, vigour_lost: int, potential_used: bool, night_hours: int
) -> RestRecovery:
    """What the game clock gives back to a Psy who has not used a power since ``rested_seconds`` ago.

    « Ces "points de pouvoirs" […] sont habituellement récupérés à l'issue d'une bonne nuit de repos. Il
    arrive toutefois que les temps et conditions de récupération varient grandement d'un cadre de jeu à
    l'autre » (VI): every Potentiel point comes back once ``night_hours`` of game time have passed since the
    last use (a campaign setting; 0 leaves it to the « night's rest » button). « Un rang de Vigueur perdu
    consécutivement à l'utilisation d'un pouvoir psychique se récupère à l'issue d'un repos d'environ 15
    minutes » (appendix 1, fatigue option): one rank per full 15 minutes, carried across clock moves.
    """
    total = min(REST_CAP_SECONDS, rested_seconds + max(0, elapsed_seconds))
    step = FATIGUE_REST_MINUTES * 60
    back = max(0, total // step - min(REST_CAP_SECONDS, rested_seconds) // step)
    potential_back = potential_used and night_hours > 0 and total >= night_hours * 3600
    return RestRecovery(max(0, vigour_lost - back), potential_back, total)


def feed(*, trait_rank: int, ranks_lost: int) -> int:
    """One use of a power paid by a trait that feeds the domain; returns the trait's ranks lost after it.

    « Le Narrateur peut également décider qu'une Aptitude, un autre Champ d'expertise ou un autre Domaine
    de pouvoir peut servir à alimenter un Domaine de pouvoir donné (des Aptitudes telles que Présence et
    Esprit pourraient ainsi nourrir un Domaine de pouvoir psionique). Le Rang de la Caractéristique
    concerné est alors réduit d'un cran jusqu'à ce que le personnage puisse prendre du repos » (VI).

    Each use so paid lowers the trait one more rank (as the fatigue option lowers Vigueur « après chaque
    utilisation »); a trait already down to Abyssal has nothing left to give.
    """
    if trait_rank - ranks_lost <= Rank.ABYSSAL:
        raise RuleViolation("psychic.feed_exhausted")
    return ranks_lost + 1


# Régénération (Conscience, Bon)
REGENERATION_DOMAIN = "conscience"
REGENERATION_RANK = Rank.BON
HOUR = 3600
DAY = 86400
MONTH_DAYS = 28
"""A wound whose card (or Revers step) takes this many days or more to heal is one « exigeant un mois »."""


@dataclass(frozen=True)
class Wound:
    """A physical Revers as regeneration sees it: ``monthly`` when it heals by the month or slower."""

    key: int
    severity: int
    monthly: bool = False


def is_monthly(recovery_days: int) -> bool:
    return recovery_days >= MONTH_DAYS


def regeneration_cycle(wounds: tuple[Wound, ...] | list[Wound]) -> int:
    """Seconds of the cycle now running: an hour while an ordinary wound is left, else a day."""
    return HOUR if any(w.severity > 0 and not w.monthly for w in wounds) else DAY


def regeneration_start(*, domain_rank: int, potential_left: int, wounds: tuple[Wound, ...] | list[Wound]) -> int:
    """Check that Régénération can start; the first cycle's point is paid at once. Returns the cycle length.

    « Pour les blessures "courantes" […], le processus de régénération commence et se poursuit dès lors
    qu'il est activé par l'adepte. […] Un point de potentiel psychique doit être dépensé par cycle de
    récupération » (appendix 1, Conscience, Bon).
    """
    if latent(domain_rank):
        raise RuleViolation("psychic.latent")
    if domain_rank < REGENERATION_RANK:
        raise RuleViolation("psychic.rank_too_low", required=REGENERATION_RANK, rank=domain_rank)
    if not any(w.severity > 0 for w in wounds):
        raise RuleViolation("psychic.nothing_to_regenerate")
    if potential_left < 1:
        raise RuleViolation("psychic.no_potential")
    return regeneration_cycle(wounds)


@dataclass(frozen=True)
class Regeneration:
    severities: dict[int, int]
    points: int
    cycles: int
    carried_seconds: int
    stopped: str
    """"" while it goes on, "healed" or "no_potential" when it stopped during this stretch of time."""
    seconds_after_stop: int


def regenerate(
    *, wounds: tuple[Wound, ...] | list[Wound], carried_seconds: int, elapsed_seconds: int, potential_left: int
) -> Regeneration:
    """Regeneration over ``elapsed_seconds`` of game time, the current cycle (already paid) being
    ``carried_seconds`` old.

    « Des blessures réclamant habituellement une semaine de soins/repos par carte de pénalité (ou par
    point de Revers) n'exigent plus qu'une heure d'attention, les blessures exigeant un mois de soins
    disparaissent au bout de 24 heures » ; « Il s'arrête lorsque les blessures sont soignées. Un point de
    potentiel psychique doit être dépensé par cycle de récupération (un point par heure pour les
    blessures "classiques", un point par jour pour les blessures réclamant habituellement des mois de
    soins) » (appendix 1, Régénération).

    Each hour cycle takes one step off every ordinary wound; once none is left, each day cycle clears
    every month-long wound. A completed cycle with wounds left starts the next one for a point; with
    no point left, regeneration stops (as it does once healed).
    """
    severities = {w.key: w.severity for w in wounds}
    monthly = {w.key: w.monthly for w in wounds}
    carried, remaining = max(0, carried_seconds), max(0, elapsed_seconds)
    points = cycles = 0

    def left() -> list[Wound]:
        return [Wound(k, s, monthly[k]) for k, s in severities.items() if s > 0]

    if not left():
        return Regeneration(severities, 0, 0, 0, "healed", remaining)
    while True:
        cycle = regeneration_cycle(left())
        need = max(0, cycle - carried)
        if remaining < need:
            return Regeneration(severities, points, cycles, carried + remaining, "", 0)
        remaining -= need
        carried = 0
        cycles += 1
        for key, severity in severities.items():
            if severity > 0 and monthly[key] == (cycle == DAY):
                severities[key] = 0 if cycle == DAY else severity - 1
        if not left():
            return Regeneration(severities, points, cycles, 0, "healed", remaining)
        if potential_left - points < 1:
            return Regeneration(severities, points, cycles, 0, "no_potential", remaining)
        points += 1


# Télékinésie: « Rang / Durée / Poids maximum » (1 Séquence ≈ 1 minute)
TELEKINESIS = {
    Rank.FAIBLE: (1, 0.01),
    Rank.MEDIOCRE: (2, 0.1),
    Rank.MOYEN: (3, 1.0),
    Rank.BON: (4, 10.0),
    Rank.EXCELLENT: (5, 100.0),
    Rank.EXCEPTIONNEL: (6, 1000.0),
}


def telekinesis_rank(weight_kg: float, sequences: int = 1) -> int:
    """« La durée et/ou le poids déplacé indique le rang requis » : the lowest rank that covers both."""
    for rank, (duration, weight) in TELEKINESIS.items():
        if weight_kg <= weight and sequences <= duration:
            return rank
    raise RuleViolation("psychic.telekinesis_beyond", weight=weight_kg, sequences=sequences)


def telekinesis_mind_modifier(esprit: int) -> int:
    """« Esprit / Modificateur » in a conflict: Faible à Médiocre −1, Moyen ±0, Bon +1, Excellent +2,
    Exceptionnel +3 (below Faible is taken as −1 too)."""
    if esprit <= Rank.MEDIOCRE:
        return -1
    return min(esprit, Rank.EXCEPTIONNEL) - Rank.MOYEN


@dataclass(frozen=True)
class Power:
    code: str
    domain: str
    rank: int
    name_fr: str
    name_en: str
    range_fr: str
    range_en: str
    description_fr: str
    description_en: str


@cache
def powers() -> tuple[Power, ...]:
    """Télépathie and Conscience powers from appendix 1, as data (``data/powers.toml``)."""
    path = DATA_DIR / "powers.toml"
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("power", [])
    result = []
    for index, entry in enumerate(entries, start=1):
        for field in ("code", "domain", "name_fr", "name_en", "description_fr", "description_en"):
            if not isinstance(entry.get(field), str) or not entry[field]:
                raise DataError(f"{path.name}, entry {index}, field '{field}': a non-empty text is required")
        if not isinstance(entry.get("rank"), int) or not Rank.FAIBLE <= entry["rank"] <= Rank.EXCEPTIONNEL:
            raise DataError(f"{path.name}, entry {index} ({entry['code']}), field 'rank': 2 to 7")
        result.append(
            Power(
                code=entry["code"],
                domain=entry["domain"],
                rank=entry["rank"],
                name_fr=entry["name_fr"],
                name_en=entry["name_en"],
                range_fr=entry.get("range_fr", ""),
                range_en=entry.get("range_en", ""),
                description_fr=entry["description_fr"],
                description_en=entry["description_en"],
            )
        )
    return tuple(result)
