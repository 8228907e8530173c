"""Revers: inflicting them, healing them one step, first aid."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from characters.models import (
    Character,
    CharacterKind,
    Revers,
    ReversDomain,
    ReversNature,
)
from characters.rules.errors import RuleViolation
from characters.rules.revers import (
    check_severity,
    first_aid_required_rank,
    first_aid_result,
    out_of_action,
)
from characters.selectors import character_rules

# ---------------------------------------------------------------- helpers
from characters.services.changes import _append, _bump, _lock, _refuse, _require_member, _require_narrator
from core.errors import ServiceError


@transaction.atomic
def revers_inflict(
    *,
    character: Character,
    actor: User | None,
    domain: str,
    severity: int,
    source: str,
    payload: Mapping[str, Any] | None = None,
    nature: str = ReversNature.BLUNT,
    domain_name: str = "",
) -> Revers:
    """Write a Revers on the sheet (severity 1 Revers, 2 sérieux, 3 décisif) in a domain.

    ``domain`` is physical, social, mental or ``named`` with ``domain_name``; ``nature`` says how it
    heals (blunt and social by the day, deep wounds by the week).
    """
    if actor is not None:
        _require_member(character.campaign_id, actor)
    character = _lock(character)
    try:
        check_severity(severity)
    except RuleViolation as violation:
        raise _refuse(violation) from violation
    if domain not in ReversDomain.values:
        raise ServiceError(_("Unknown Revers domain."))
    if domain == ReversDomain.NAMED and not domain_name.strip():
        raise ServiceError(_("Name the domain of this Revers."))
    if nature not in ReversNature.values:
        raise ServiceError(_("Unknown kind of healing."))
    revers = Revers(
        character=character, domain=domain, domain_name=domain_name.strip(), severity=severity,
        initial_severity=severity, nature=nature, source=source.strip()[:200], payload=dict(payload or {}),
    )  # fmt: skip
    revers.full_clean(exclude=["character"])
    revers.save()
    active = list(Revers.objects.filter(character=character, severity__gt=0).values_list("severity", flat=True))
    threshold = character.out_after_revers if character.kind == CharacterKind.NPC else None
    _bump(character)
    _append(
        character,
        "character.revers_inflicted",
        actor,
        {
            "revers_id": revers.pk, "domain": domain, "domain_name": revers.domain_name, "severity": severity,
            "nature": nature, "source": revers.source,
            "out_of_action": out_of_action(active, npc_threshold=threshold),
        },
    )  # fmt: skip
    return revers


@transaction.atomic
def revers_heal(*, revers: Revers, actor: User, steps: int = 1) -> Revers:
    """The narrator heals a Revers by ``steps`` (all of it with steps=3)."""
    _require_narrator(revers.character.campaign_id, actor)
    character = _lock(revers.character)
    revers = Revers.objects.select_for_update().get(pk=revers.pk)
    if revers.severity == 0:
        raise ServiceError(_("This Revers is already healed."))
    old = revers.severity
    revers.severity = max(0, old - max(1, steps))
    revers.recovery_seconds = 0
    if revers.severity == 0:
        revers.healed_at = character.campaign.game_clock
    revers.save()
    _bump(character)
    _append(character, "character.revers_healed", actor, {"revers_id": revers.pk, "from": old, "to": revers.severity,
                                                           "domain": revers.domain, "domain_name": revers.domain_name})  # fmt: skip
    return revers


@transaction.atomic
def first_aid(*, revers: Revers, actor: User, success: bool, healer: Character | None = None) -> Revers:
    """« Celui qui tente de dispenser les premiers soins doit réussir un Test de Médecine » : the
    resolution part rolls the test (difficulty from ``first_aid_required_rank``); this records it."""
    character = _lock(revers.character)
    _require_member(character.campaign_id, actor)
    revers = Revers.objects.select_for_update().get(pk=revers.pk)
    if revers.severity == 0:
        raise ServiceError(_("This Revers is already healed."))
    rules = character_rules(character.campaign)
    old = revers.severity
    required = first_aid_required_rank(old)
    if success:
        revers.stabilised = True
        revers.severity = first_aid_result(old, success=True, lowers_wound=rules.first_aid_lowers_wound)
        if revers.severity == 0:
            revers.healed_at = character.campaign.game_clock
        revers.save()
    _bump(character)
    _append(
        character,
        "character.first_aid",
        actor,
        {"revers_id": revers.pk, "success": success, "required_rank": required, "from": old, "to": revers.severity,
         "healer": healer.name if healer else ""},
    )  # fmt: skip
    return revers
