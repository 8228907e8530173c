"""Revers on the sheet (V-2, V-3, V-4 « Premiers soins et Blessures »).

« 1 succès = Revers (-1 carte), 2 succès = Revers Sérieux (-2 cartes), 3 succès = Revers Décisif
(-3 cartes) » ; « Les effets des divers Revers ne sont pas cumulatifs, seul le Revers entraînant la
pénalité la plus importante est pris en compte » ; « un personnage peut très bien avoir reçu une
Blessure et un Revers social, chacun des Revers s'appliquant à un domaine différent ».

Recovery: « une Carte par jour en temps de jeu » for social and blunt Revers, « 1 Carte par
semaine » for deep wounds (edged weapons, maces, firearms). First aid: « Moyen pour une Blessure,
Difficile pour une Blessure sérieuse et Très difficile pour une Blessure grave ou mortelle ».
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from .errors import RuleViolation
from .ladder import Rank


class Domain(StrEnum):
    PHYSICAL = "physical"
    SOCIAL = "social"
    MENTAL = "mental"
    NAMED = "named"  # a narrator-named domain (« Revers » in a chase, a trial, a reputation…)


class Severity(IntEnum):
    REVERS = 1  # Blessure
    SERIOUS = 2  # Revers sérieux = Blessure sérieuse
    DECISIVE = 3  # Revers décisif = Blessure grave ou mortelle


class Nature(StrEnum):
    """How a Revers heals: blunt and social by the day, deep wounds by the week."""

    BLUNT = "blunt"
    DEEP = "deep"


@dataclass(frozen=True)
class ActiveRevers:
    domain: str  # a Domain value, or the name of a named domain
    severity: int
    nature: str = Nature.BLUNT


def check_severity(severity: int) -> int:
    if severity not in (1, 2, 3):
        raise RuleViolation("revers.severity_range", severity=severity)
    return severity


def severity_from_successes(successes: int) -> int:
    """Successes in a draw to the Revers they inflict (at most décisif), 0 when none."""
    return max(0, min(3, successes))


def applies(revers: ActiveRevers, domain: str, *, deep_everywhere: bool = False) -> bool:
    """Whether a Revers weighs on a Test or draw of ``domain``: its own domain; and a deep physical wound on every
    chosen domain when ``deep_everywhere`` (« Les blessures plus profondes infligés par des armes tranchantes […]
    Les Revers s'appliquent, en principe, à tous les types d'action », the campaign's default reading; off, « une
    Blessure peut ainsi n'avoir aucun effet sur un jet de nature sociale »)."""
    if revers.domain == domain:
        return True
    return deep_everywhere and bool(domain) and revers.domain == Domain.PHYSICAL and revers.nature == Nature.DEEP


def penalty(revers: Iterable[ActiveRevers], domain: str, *, deep_everywhere: bool = False) -> int:
    """The card (or rank) penalty in ``domain``: only the worst applicable Revers counts (« Les effets des divers
    Revers ne sont pas cumulatifs »), a deep wound included where it applies."""
    return max(
        (r.severity for r in revers if r.severity > 0 and applies(r, domain, deep_everywhere=deep_everywhere)),
        default=0,
    )


def recovery_days(nature: str, *, light_days: int, deep_days: int) -> int:
    """Game days to heal one card of penalty (campaign settings; defaults 1 and 7)."""
    return deep_days if nature == Nature.DEEP else light_days


def recover(severity: int, elapsed_seconds: int, period_seconds: int) -> tuple[int, int]:
    """Heal one step per full period elapsed. Returns (new severity, seconds carried toward the next step)."""
    if period_seconds <= 0 or severity <= 0:
        return max(severity, 0), 0
    steps, carried = divmod(elapsed_seconds, period_seconds)
    new = max(0, severity - steps)
    return new, carried if new else 0


# First aid difficulty by severity: Moyenne (Moyen), Difficile (Bon), Très difficile (Excellent).
FIRST_AID_REQUIRED_RANK = {1: Rank.MOYEN, 2: Rank.BON, 3: Rank.EXCELLENT}


def first_aid_required_rank(severity: int) -> int:
    return FIRST_AID_REQUIRED_RANK[check_severity(severity)]


def first_aid_result(severity: int, *, success: bool, lowers_wound: bool) -> int:
    """Severity after first aid: « Un succès permet de stabiliser » and, as a campaign option,
    « peut réduire la blessure d'un cran » (a Blessure becomes bruises, i.e. healed)."""
    check_severity(severity)
    if success and lowers_wound:
        return severity - 1
    return severity


def out_of_action(severities: Iterable[int], *, npc_threshold: int | None) -> bool:
    """Out of the fight: a Revers décisif for anyone; for an NPC, 1 or 2 Revers by the narrator's
    choice (VII-1 « un seul Revers ou deux Revers seulement sont suffisants pour mettre un PNJ hors
    de combat »), counted in Revers points as in a Sequence (a Revers sérieux is « deux Revers »:
    « une Blessure sérieuse (correspondant à deux Revers) »)."""
    severities = list(severities)
    if any(s >= Severity.DECISIVE for s in severities):
        return True
    return npc_threshold is not None and sum(severities) >= npc_threshold
