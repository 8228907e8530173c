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


def required_rank_for(power_rank: int, *, masked: bool = False) -> int:
    """The rank a use needs: the power's rank, one step more to mask an intrusion (« le rang requis pour
    utiliser le pouvoir psychique est alors augmenté de un cran, ce qui relève la Difficulté du Test de un
    degré »)."""
    return power_rank + int(masked)


def difficulty_for(required_rank: int) -> tuple[str, int]:
    if required_rank > Rank.EXCEPTIONNEL:
        return "impossible", required_rank - 1
    return DIFFICULTY_TABLE[max(Rank.FAIBLE, required_rank)]


def use_difficulty(power_rank: int, *, masked: bool = False, several_objects: bool = False) -> str:
    """The Difficulty of a power's Test: « L'utilisation des pouvoirs psychiques est résolu à travers un Test dont
    la Difficulté dépend du rang requis pour avoir le droit d'utiliser ledit pouvoir » (appendix 1), one degree
    more to mask the intrusion, and one degree more for Télékinésie's several objects (« la Difficulté est
    toutefois augmentée d'un degré »), which leaves the rank required as it is."""
    return difficulty_for(required_rank_for(power_rank, masked=masked) + int(several_objects))[0]


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
    # Télékinésie: « le Psy peut déplacer plusieurs objets tant que leurs poids cumulés ne dépassent pas la
    # limite autorisée par le rang requis, la Difficulté est toutefois augmentée d'un degré »: the Difficulty
    # moves, the rank required does not (a Bon Psy may move two 4 kg objects, at Très difficile).
    required = required_rank_for(power_rank, masked=masked)
    if domain_rank < required:
        raise RuleViolation("psychic.rank_too_low", required=required, rank=domain_rank)
    if potential_left < 1 and not fed:
        raise RuleViolation("psychic.no_potential")
    if fatigue_rule and vigour - vigour_lost < Rank.LAMENTABLE:
        raise RuleViolation("psychic.exhausted")
    difficulty = use_difficulty(power_rank, masked=masked, several_objects=several_objects)
    level = difficulty_for(required)[1]
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


# Healing powers of Conscience: Guérison accélérée (Médiocre) and Régénération (Bon), described as data
# (``healing`` in ``data/powers.toml``) and run by one code path: ``healing_start`` then ``heal``.
HEALING_DOMAIN = "conscience"
REGENERATION = "regeneration"
FAST_HEALING = "fast_healing"
HOUR = 3600
DAY = 86400
MONTH_DAYS = 28
"""A wound whose card (or Revers step) takes this many days or more to heal is one « exigeant un mois »."""


@dataclass(frozen=True)
class HealingPower:
    """How a healing power works: each ``ordinary_cycle`` takes one step off every ordinary (weekly) wound;
    once none is left, each ``monthly_cycle`` (0: never) clears every month-long wound; ``cost_per_cycle``
    Potentiel points per cycle, the first paid at the start; at most ``max_cycles`` cycles ("domain": the
    domain's value, "none": until healed)."""

    code: str
    domain: str
    rank: int
    ordinary_cycle: int
    monthly_cycle: int
    cost_per_cycle: int
    max_cycles: str

    def cycle_limit(self, domain_rank: int) -> int | None:
        return max(0, domain_rank) if self.max_cycles == "domain" else None


@dataclass(frozen=True)
class Wound:
    """A physical Revers as a healing power sees it: ``monthly`` when it heals by the month or slower."""

    key: int
    severity: int
    monthly: bool = False


def is_monthly(recovery_days: int) -> bool:
    return recovery_days >= MONTH_DAYS


def healing_cycle(power: HealingPower, wounds: tuple[Wound, ...] | list[Wound]) -> int:
    """Seconds of the cycle now running: the ordinary cycle while an ordinary wound is left, else the
    monthly one; 0 when nothing is left that this power heals."""
    if any(w.severity > 0 and not w.monthly for w in wounds):
        return power.ordinary_cycle
    if power.monthly_cycle and any(w.severity > 0 and w.monthly for w in wounds):
        return power.monthly_cycle
    return 0


def healing_start(
    power: HealingPower, *, domain_rank: int, potential_left: int, wounds: tuple[Wound, ...] | list[Wound]
) -> int:
    """Check that the power can start; the first cycle is paid at once. Returns the cycle length.

    Régénération: « le processus de régénération commence et se poursuit dès lors qu'il est activé par
    l'adepte. […] Un point de potentiel psychique doit être dépensé par cycle de récupération » (appendix 1,
    Conscience, Bon). Guérison accélérée: « Chaque "jour" d'utilisation de ce pouvoir entraîne la dépense
    d'un point de Potentiel psychique » (Conscience, Médiocre).
    """
    if latent(domain_rank):
        raise RuleViolation("psychic.latent")
    if domain_rank < power.rank:
        raise RuleViolation("psychic.rank_too_low", required=power.rank, rank=domain_rank)
    cycle = healing_cycle(power, wounds)
    if not cycle:
        raise RuleViolation("psychic.nothing_to_heal")
    if potential_left < power.cost_per_cycle:
        raise RuleViolation("psychic.no_potential")
    return cycle


@dataclass(frozen=True)
class Healing:
    severities: dict[int, int]
    points: int
    cycles: int
    carried_seconds: int
    stopped: str
    """"" while it goes on; "healed", "no_potential" or "limit" when it stopped during this stretch of time."""
    seconds_after_stop: int


def heal(
    power: HealingPower,
    *,
    wounds: tuple[Wound, ...] | list[Wound],
    carried_seconds: int,
    elapsed_seconds: int,
    potential_left: int,
    cycles_paid: int = 1,
    domain_rank: int = 0,
) -> Healing:
    """A healing power over ``elapsed_seconds`` of game time, the current cycle (already paid, the
    ``cycles_paid``-th) being ``carried_seconds`` old.

    Each ordinary cycle takes one step off every ordinary wound (« une semaine de soins/repos par carte de
    pénalité (ou par point de Revers) »); once none is left, each monthly cycle clears every month-long
    wound. A completed cycle with wounds left starts the next one for its cost; it stops with no point left,
    once the power has nothing left to heal, or after its cycle limit: Guérison accélérée « ne peut
    prolonger sa méditation au delà d'un nombre de jours égal à la valeur du Domaine de pouvoir ».
    """
    severities = {w.key: w.severity for w in wounds}
    monthly = {w.key: w.monthly for w in wounds}
    carried, remaining = max(0, carried_seconds), max(0, elapsed_seconds)
    points = cycles = 0
    limit = power.cycle_limit(domain_rank)

    def left() -> list[Wound]:
        return [Wound(k, s, monthly[k]) for k, s in severities.items() if s > 0]

    if not healing_cycle(power, left()):
        return Healing(severities, 0, 0, 0, "healed", remaining)
    while True:
        ordinary_phase = any(not w.monthly for w in left())
        cycle = healing_cycle(power, left())
        need = max(0, cycle - carried)
        if remaining < need:
            return Healing(severities, points, cycles, carried + remaining, "", 0)
        remaining -= need
        carried = 0
        cycles += 1
        for key, severity in severities.items():
            if severity > 0 and monthly[key] != ordinary_phase:
                severities[key] = 0 if monthly[key] else severity - 1
        if not healing_cycle(power, left()):
            return Healing(severities, points, cycles, 0, "healed", remaining)
        if limit is not None and cycles_paid + points // power.cost_per_cycle >= limit:
            return Healing(severities, points, cycles, 0, "limit", remaining)
        if potential_left - points < power.cost_per_cycle:
            return Healing(severities, points, cycles, 0, "no_potential", remaining)
        points += power.cost_per_cycle


@cache
def healing_powers() -> dict[str, HealingPower]:
    """The powers with a ``healing`` table in ``data/powers.toml``, by code."""
    result = {}
    for power in powers():
        if power.healing is not None:
            result[power.code] = power.healing
    return result


def healing_powers_at(domain_rank: int) -> list[HealingPower]:
    """The healing powers a domain at this (effective) rank may start."""
    return [p for p in healing_powers().values() if usable(domain_rank) and domain_rank >= p.rank]


def healing_power(code: str) -> HealingPower:
    return healing_powers()[code]


# Télékinésie: « Rang / Durée / Poids maximum » (1 Séquence ≈ 1 minute)
TELEKINESIS: dict[int, tuple[int, float]] = {
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
    healing: HealingPower | None = None


HEALING_FIELDS = {"ordinary_cycle_hours": int, "monthly_cycle_hours": int, "cost_per_cycle": int, "max_cycles": str}


def _healing(path_name: str, index: int, entry: dict[str, object]) -> HealingPower | None:
    table = entry.get("healing")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise DataError(f"{path_name}, entry {index} ({entry['code']}), field 'healing': a table is required")
    for field, kind in HEALING_FIELDS.items():
        if not isinstance(table.get(field), kind) or (kind is int and table[field] < 0):
            raise DataError(f"{path_name}, entry {index} ({entry['code']}), field 'healing.{field}': {kind.__name__}")
    if (
        table["ordinary_cycle_hours"] < 1
        or table["cost_per_cycle"] < 1
        or table["max_cycles"] not in ("domain", "none")
    ):
        raise DataError(
            f"{path_name}, entry {index} ({entry['code']}), field 'healing': cycles of an hour or more, "
            'a cost of 1 or more, max_cycles "domain" or "none"'
        )
    rank = entry["rank"]
    assert isinstance(rank, int)  # load_powers checked it before
    return HealingPower(
        code=str(entry["code"]), domain=str(entry["domain"]), rank=rank,
        ordinary_cycle=table["ordinary_cycle_hours"] * HOUR, monthly_cycle=table["monthly_cycle_hours"] * HOUR,
        cost_per_cycle=table["cost_per_cycle"], max_cycles=table["max_cycles"],
    )  # fmt: skip


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
                healing=_healing(path.name, index, entry),
            )
        )
    return tuple(result)


# Conscience's boosts (appendix 1): « Endurance accrue » (Excellent) and « Coordination accrue » (Exceptionnel).
BOOSTED_TRAIT = {"enhanced_endurance": "vigueur", "enhanced_coordination": "habilete"}
NATURAL_ARMOUR = "armour"


@dataclass(frozen=True)
class Boost:
    """A running boost: ``target`` is the trait code raised (or ``armour``: defence cards), by ``amount``, for
    ``left`` more draws or Tests."""

    power: str
    target: str
    amount: int
    left: int


def boost_for(power: str, *, natural_armour: bool, presence: int, conscience: int) -> Boost:
    """« ajouter la valeur de sa Caractéristique Présence au rang ou à la valeur de sa Caractéristique Vigueur
    [Habileté for Coordination accrue] pour un nombre de tirages égal à la valeur du Domaine psychique
    Conscience » ; Endurance accrue's other use: « une armure "naturelle" procurant un bonus de cartes égal à la
    moitié de la valeur de la Caractéristique Présence (arrondie au supérieur) […] valable pour un nombre de
    tirages égal à la valeur du Domaine psychique »."""
    if power not in BOOSTED_TRAIT:
        raise RuleViolation("psychic.not_a_boost", power=power)
    if natural_armour and power != "enhanced_endurance":
        raise RuleViolation("psychic.armour_is_endurance")
    presence = max(0, presence)
    if natural_armour:
        return Boost(power, NATURAL_ARMOUR, -(-presence // 2), max(0, conscience))
    return Boost(power, BOOSTED_TRAIT[power], presence, max(0, conscience))
