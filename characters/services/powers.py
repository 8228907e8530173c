"""Psychic powers: using one, resting, feeding another's Potential, healing powers started and stopped."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from characters.models import (
    Character,
    CharacterTrait,
    PowerFeed,
    Revers,
    ReversDomain,
)
from characters.rules import psychic
from characters.rules.errors import RuleViolation
from characters.rules.ladder import Rank
from characters.rules.revers import (
    recovery_days,
)
from characters.rules.traits import TraitKind
from characters.selectors import character_rules, ranks_lowered, trait_def_map, trait_value

# ---------------------------------------------------------------- helpers
# ---------------------------------------------------------------- helpers
from characters.services.changes import _append, _bump, _lock, _refuse, _require_editor, _require_narrator
from core.errors import ServiceError


@transaction.atomic
def power_use(
    *, character: Character, actor: User, domain: str, power_rank: int, masked: bool = False,
    several_objects: bool = False, fed_by: str = "",
) -> psychic.PowerUse:  # fmt: skip
    """Spend one Potentiel point on a power; returns the Test's required rank and difficulty.

    ``fed_by``: a trait the narrator lets feed this domain pays instead, one rank lower until rest
    (``psychic.feed``). A domain lowered by feeding another is used at its lowered rank."""
    _require_editor(character, actor)
    character = _lock(character)
    row = CharacterTrait.objects.select_for_update().filter(character=character, code=domain).first()
    rank = row.rank if row else Rank.ABYSSAL
    rules = character_rules(character.campaign)
    vigour = CharacterTrait.objects.filter(character=character, code="vigueur").values_list("rank", flat=True).first()
    feed = None
    if fed_by:
        feed = (
            PowerFeed.objects.select_for_update()
            .filter(character=character, domain=domain, trait=fed_by, allowed=True)
            .first()
        )
        if feed is None:
            raise ServiceError(_("The narrator has not let this trait feed this domain."))
    try:
        result = psychic.power_use(
            domain_rank=rank - ranks_lowered(character, domain),
            power_rank=power_rank,
            potential_left=psychic.potential(rank) - (row.potential_used if row else 0),
            masked=masked,
            several_objects=several_objects,
            fatigue_rule=rules.psychic_fatigue,
            vigour=vigour if vigour is not None else Rank.FAIBLE,
            vigour_lost=character.vigour_lost,
            fed=feed is not None,
        )
        if feed is not None:
            lowered = psychic.feed(
                trait_rank=trait_value(character, fed_by, fed=False), ranks_lost=ranks_lowered(character, fed_by)
            )
    except RuleViolation as violation:
        raise _refuse(violation) from violation
    assert row is not None
    fed_payload: dict[str, Any] = {}
    if feed is not None:
        feed.ranks_lost += 1
        feed.save(update_fields=["ranks_lost"])
        name_fr, name_en = _trait_names(character, fed_by)
        fed_payload = {"fed_by": fed_by, "fed_by_name": name_fr, "fed_by_name_en": name_en, "lowered": lowered}
    else:
        row.potential_used += 1
        row.save(update_fields=["potential_used"])
    character.vigour_lost = result.vigour_lost
    character.rested_seconds = 0
    _bump(character, "vigour_lost", "rested_seconds")
    _append(
        character,
        "character.power_used",
        actor,
        {"domain": domain, "domain_name": row.name_fr, "domain_name_en": row.name_en,
         "required_rank": result.required_rank, "difficulty": result.difficulty, "power_level": result.power_level,
         "potential_left": result.potential_left, "masked": masked, "collapsed": result.collapsed,
         **fed_payload},
    )  # fmt: skip
    return result


@transaction.atomic
def character_rest(*, character: Character, actor: User) -> Character:
    """« ces "points de pouvoirs" […] sont habituellement récupérés à l'issue d'une bonne nuit de repos » ;
    a trait that fed a domain is « réduit d'un cran jusqu'à ce que le personnage puisse prendre du repos »;
    the points feeding a running regeneration stay spent."""
    _require_editor(character, actor)
    character = _lock(character)
    domains, restored = _give_back(character)
    character.vigour_lost = 0
    _bump(character, "vigour_lost")
    _append(character, "character.rested", actor, {"domains": domains, "restored": restored})
    return character


def _trait_facts(character: Character, code: str) -> tuple[str, str, str] | None:
    """``(name_fr, name_en, kind)`` of a trait: its sheet row, else its definition; None for a trait neither
    the sheet nor the campaign's list knows (its rank: ``selectors.trait_value``)."""
    row = (
        CharacterTrait.objects.filter(character=character, code=code).values_list("name_fr", "name_en", "kind").first()
    )
    if row is not None:
        return row[0], row[1], str(row[2])
    known = trait_def_map(character_rules(character.campaign)).get(code)
    return (known.name_fr, known.name_en, str(known.kind)) if known is not None else None


def _trait_names(character: Character, code: str) -> tuple[str, str]:
    facts = _trait_facts(character, code)
    return (facts[0], facts[1]) if facts is not None else (code, code)


def _feed_payload(character: Character, domain: str, trait: str) -> dict[str, Any]:
    """What the feed_allowed / feed_revoked events carry (characters.chronicle_kinds reads it)."""
    domain_fr, domain_en = _trait_names(character, domain)
    trait_fr, trait_en = _trait_names(character, trait)
    return {"domain": domain, "domain_name": domain_fr, "domain_name_en": domain_en, "trait": trait,
            "trait_name": trait_fr, "trait_name_en": trait_en}  # fmt: skip


@transaction.atomic
def feed_allow(*, character: Character, actor: User, domain: str, trait: str) -> PowerFeed:
    """« Le Narrateur peut également décider qu'une Aptitude, un autre Champ d'expertise ou un autre Domaine
    de pouvoir peut servir à alimenter un Domaine de pouvoir donné » (VI): the narrator lets ``trait`` feed
    ``domain`` on this character's sheet."""
    _require_narrator(character.campaign_id, actor)
    character = _lock(character)
    domain_facts = _trait_facts(character, domain)
    if domain_facts is None or domain_facts[2] != TraitKind.POWER_DOMAIN:
        raise ServiceError(_("Choose a power domain to feed."))
    if trait == domain or _trait_facts(character, trait) is None:
        raise ServiceError(_("Choose another trait of the sheet to feed the domain."))
    feed, _created = PowerFeed.objects.select_for_update().get_or_create(
        character=character, domain=domain, trait=trait
    )
    if not _created and feed.allowed:
        raise ServiceError(_("This trait already feeds this domain."))
    feed.allowed = True
    feed.save(update_fields=["allowed"])
    _bump(character)
    _append(character, "character.feed_allowed", actor, _feed_payload(character, domain, trait))
    return feed


@transaction.atomic
def feed_revoke(*, feed: PowerFeed, actor: User) -> None:
    """The narrator withdraws a feed; a trait it lowered stays lowered until rest."""
    _require_narrator(feed.character.campaign_id, actor)
    character = _lock(feed.character)
    feed = PowerFeed.objects.select_for_update().get(pk=feed.pk)
    if not feed.allowed:
        raise ServiceError(_("This feed was already withdrawn."))
    domain, trait = feed.domain, feed.trait
    if feed.ranks_lost:
        feed.allowed = False
        feed.save(update_fields=["allowed"])
    else:
        feed.delete()
    _bump(character)
    _append(character, "character.feed_revoked", actor, _feed_payload(character, domain, trait))


@transaction.atomic
def healing_start(*, character: Character, actor: User, power: str) -> Character:
    """Start a healing power of Conscience (``psychic.healing_powers()``); its first cycle is paid now and the
    game clock does the rest (``run_clock_recovery``).

    Régénération (Bon): « le processus de régénération commence et se poursuit dès lors qu'il est activé par
    l'adepte » ; « Un point de potentiel psychique doit être dépensé par cycle de récupération ». Guérison
    accélérée (Médiocre): « une journée de repos et de méditation (12 heures) » per week of care ; « Chaque
    "jour" d'utilisation de ce pouvoir entraîne la dépense d'un point de Potentiel psychique »."""
    _require_editor(character, actor)
    character = _lock(character)
    healing = psychic.healing_powers().get(power)
    if healing is None:
        raise ServiceError(_("Choose a healing power."))
    if character.healing_power:
        raise ServiceError(_("A healing power is already running: stop it first."))
    row = CharacterTrait.objects.select_for_update().filter(character=character, code=healing.domain).first()
    rank = row.rank if row else Rank.ABYSSAL
    left = psychic.potential(rank) - (row.potential_used if row else 0)
    wounds = _physical_wounds(character, character.campaign)
    try:
        cycle = psychic.healing_start(
            healing, domain_rank=rank - ranks_lowered(character, healing.domain), potential_left=left,
            wounds=[w for _r, w in wounds],
        )  # fmt: skip
    except RuleViolation as violation:
        raise _refuse(violation) from violation
    assert row is not None
    row.potential_used += healing.cost_per_cycle
    row.save(update_fields=["potential_used"])
    character.healing_power, character.healing_seconds = healing.code, 0
    character.healing_points = healing.cost_per_cycle
    character.rested_seconds = 0
    _bump(character, "healing_power", "healing_seconds", "healing_points", "rested_seconds")
    _append(character, "character.healing_started", actor,
            {"power": healing.code, "cycle_hours": cycle // 3600, "wounds": len(wounds),
             "max_cycles": healing.cycle_limit(rank), "potential_left": left - healing.cost_per_cycle})  # fmt: skip
    return character


@transaction.atomic
def healing_stop(*, character: Character, actor: User) -> Character:
    """The adept ends the healing power; its points come back at the next rest."""
    _require_editor(character, actor)
    character = _lock(character)
    if not character.healing_power:
        raise ServiceError(_("No healing power is running."))
    _healing_end(character, actor, "stopped", {})
    return character


def _give_back(
    character: Character, points: list[tuple[CharacterTrait, int]] | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Rest: Potentiel back (but the points feeding a running healing power), fed traits back to their rank.
    ``points``: ``_recoverable_points(character)`` when the caller has read it already."""
    domains = []
    for row, kept in _recoverable_points(character) if points is None else points:
        domains.append({"code": row.code, "name_fr": row.name_fr, "name_en": row.name_en,
                        "points": row.potential_used - kept})  # fmt: skip
        row.potential_used = kept
        row.save(update_fields=["potential_used"])
    feeds = list(PowerFeed.objects.select_for_update().filter(character=character, ranks_lost__gt=0))
    restored = []
    for feed in feeds:
        name_fr, name_en = _trait_names(character, feed.trait)
        restored.append({"code": feed.trait, "name_fr": name_fr, "name_en": name_en, "ranks": feed.ranks_lost})
    PowerFeed.objects.filter(character=character, ranks_lost__gt=0).update(ranks_lost=0)
    PowerFeed.objects.filter(character=character, allowed=False).delete()
    return domains, restored


def _healing_end(character: Character, actor: User | None, reason: str, payload: Mapping[str, Any]) -> None:
    """A healing power stops: its points become ordinary spent points, given back by the next rest, counted
    from now."""
    power, points = character.healing_power, character.healing_points
    character.healing_power, character.healing_seconds, character.healing_points = "", 0, 0
    character.rested_seconds = 0
    _bump(character, "healing_power", "healing_seconds", "healing_points", "rested_seconds")
    _append(character, "character.healing_stopped", actor,
            {"power": power, "reason": reason, "points": points, **payload})  # fmt: skip


def _physical_wounds(character: Character, campaign: Campaign) -> list[tuple[Revers, psychic.Wound]]:
    """Physical Revers as a healing power sees them: a wound healing a card a month or slower is « monthly »."""
    rows = Revers.objects.select_for_update().filter(character=character, domain=ReversDomain.PHYSICAL, severity__gt=0)
    result = []
    for revers in rows:
        days = recovery_days(
            revers.nature, light_days=campaign.revers_recovery_light_days, deep_days=campaign.revers_recovery_deep_days
        )
        result.append((revers, psychic.Wound(revers.pk, revers.severity, psychic.is_monthly(days))))
    return result


def _recoverable_points(character: Character) -> list[tuple[CharacterTrait, int]]:
    """Potentiel rows to give back and the points that stay spent: « Les points dépensés pour alimenter le
    pouvoir de régénération ne peuvent être récupérés tant que le pouvoir de régénération est actif », « Les
    points dépensés pour accélérer les soins ne peuvent pas être récupérés tant que l'adepte n'a pas arrêté
    ce processus »."""
    rows = CharacterTrait.objects.select_for_update().filter(character=character, potential_used__gt=0)
    domain = psychic.healing_power(character.healing_power).domain if character.healing_power else None
    result = []
    for row in rows:
        kept = character.healing_points if row.code == domain else 0
        if row.potential_used > kept:
            result.append((row, min(kept, row.potential_used)))
    return result
