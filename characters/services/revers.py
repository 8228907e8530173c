"""Revers: inflicting them, healing them one step, first aid."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

# ---------------------------------------------------------------- helpers
from campaigns.selectors import open_session
from characters.access import can_view
from characters.models import (
    Character,
    CharacterKind,
    Revers,
    ReversDomain,
    ReversNature,
)
from characters.rules.atouts import AtoutUse, SpendRequest, spend_plan
from characters.rules.errors import RuleViolation
from characters.rules.revers import (
    check_severity,
    first_aid_required_rank,
    first_aid_result,
    out_of_action,
)
from characters.selectors import character_rules
from characters.services.changes import (
    _append,
    _balances,
    _bump,
    _lock,
    _part,
    _refuse,
    _require_editor,
    _require_member,
    _require_narrator,
    _write_entries,
)
from core.errors import ServiceError, StaleState


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
    character, revers, told = _revers_write(character, domain, severity, source, payload, nature, domain_name)
    _append(character, "character.revers_inflicted", actor, told)
    return revers


@transaction.atomic
def revers_record(
    *, character: Character, domain: str, severity: int, source: str, payload: Mapping[str, Any], nature: str
) -> dict[str, Any]:
    """``revers_inflict`` without an Event of its own, for a use case whose one Event tells it (a settle): the
    Revers is written, and the part its Event would have been is returned (``campaigns.redaction.event_part``, with
    that Event's visibility: an NPC's Revers stay the narrators' and its runner's)."""
    character, _revers, told = _revers_write(character, domain, severity, source, payload, nature, "")
    return _part(character, "character.revers_inflicted", told)


def _revers_write(
    character: Character, domain: str, severity: int, source: str, payload: Mapping[str, Any] | None, nature: str,
    domain_name: str,
) -> tuple[Character, Revers, dict[str, Any]]:  # fmt: skip
    """The Revers checked and written on the locked sheet; returns the sheet, the Revers and what its Event says."""
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
    told = {
        "revers_id": revers.pk, "domain": domain, "domain_name": revers.domain_name, "severity": severity,
        "nature": nature, "source": revers.source, "out_of_action": out_of_action(active, npc_threshold=threshold),
    }  # fmt: skip
    return character, revers, told


@transaction.atomic
def revers_follow_roll(
    *, character: Character, roll: str, written: int, severity: int, domain: str, nature: str, source: str
) -> dict[str, Any]:
    """The Revers a hazardous Test wrote follows the Test's new result after an Atout re-rolled or changed it
    (appendix 4, « relancer les dés Fudge … pendant un Test »): written, changed or removed.

    Writes no Event: the Test's follow-up Event carries the change returned (``revers_id``, ``from``, ``to``),
    so the re-roll and its Revers are one entry of the log. A Revers the new result removes is deleted (it
    never happened); one it changes takes the new severity as its starting point. ``written`` is the severity
    the Test wrote so far: when it wrote one that is no longer on this sheet (taken by another, healed away by
    the narrator), the dice can no longer move it and the Atout is refused.
    """
    character = _lock(character)
    revers = Revers.objects.select_for_update().filter(character=character, payload__roll=roll).first()
    if written and (revers is None or revers.severity == 0):
        raise ServiceError(_("This Test's Revers is no longer on the sheet: an Atout can no longer change it."))
    old = revers.severity if revers is not None else 0
    if revers is None and severity:
        if domain not in ReversDomain.values or nature not in ReversNature.values:
            raise ServiceError(_("Unknown Revers domain."))
        revers = Revers.objects.create(
            character=character, domain=domain, severity=severity, initial_severity=severity, nature=nature,
            source=source.strip()[:200], payload={"roll": roll},
        )  # fmt: skip
    elif revers is None:
        return {"revers_id": None, "from": 0, "to": 0, "domain": domain}
    revers_id = revers.pk
    if not severity:
        revers.delete()
    elif revers.severity != severity or revers.initial_severity != severity:
        revers.severity = revers.initial_severity = severity
        revers.recovery_seconds, revers.healed_at = 0, None
        revers.save(update_fields=["severity", "initial_severity", "recovery_seconds", "healed_at"])
    _bump(character)
    return {"revers_id": revers_id, "from": old, "to": severity, "domain": domain, "nature": nature}


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


@transaction.atomic
def revers_take(
    *, taker: Character, revers: Revers, actor: User, justification: str = "", expected_version: int | None = None
) -> Revers:
    """« Un Atout peut être dépensé pour supporter un Revers à la place d'un autre. Pour utiliser cette option, il
    suffit simplement que le personnage ait la possibilité de s'interposer, il n'est pas nécessaire de réussir un
    Test […] Le Narrateur […] peut exiger du joueur qu'il dépense un Atout par revers supporté à la place d'un
    autre » (appendix 4).

    ``taker`` pays one Atout per point of the Revers' severity (as in a Sequence, docs/rules-decisions.md) and
    the Revers moves to their sheet: both sheets locked, the other's ``expected_version`` checked (the list the
    form was shown), one ``character.revers_taken`` event.
    """
    membership = _require_editor(taker, actor)
    owner_id = Revers.objects.filter(pk=revers.pk).values_list("character_id", flat=True).first()
    if owner_id is None:
        raise ServiceError(_("This Revers no longer exists."))
    # Both sheets in one order, so that two characters taking each other's Revers queue instead of deadlocking.
    locked = {
        c.pk: c
        for c in Character.objects.select_for_update(of=("self",)).select_related("campaign", "owner")
        .filter(pk__in={taker.pk, owner_id}).order_by("pk")
    }  # fmt: skip
    taker, owner = locked[taker.pk], locked[owner_id]
    revers = Revers.objects.select_for_update().get(pk=revers.pk)
    if revers.character_id != owner.pk:
        raise StaleState(_("Someone acted first: this Revers has moved."))
    if owner.pk == taker.pk or owner.campaign_id != taker.campaign_id:
        raise ServiceError(_("Take a Revers of another character of this campaign."))
    if not membership.is_narrator and not can_view(membership, owner):
        raise ServiceError(_("This Revers no longer exists."))
    if expected_version is not None and owner.version != expected_version:
        raise StaleState(_("Someone acted first: %(name)s's sheet has changed.") % {"name": owner.name})
    if revers.severity == 0:
        raise ServiceError(_("This Revers is already healed."))
    game_session = open_session(taker.campaign)
    request = SpendRequest(use=AtoutUse.TAKE_REVERS, amount=revers.severity, justification=justification,
                           in_session=game_session is not None, targets_other=True)  # fmt: skip
    try:
        plan = spend_plan(request, _balances(taker))
    except RuleViolation as violation:
        raise _refuse(violation) from violation
    context = {"revers": revers.pk, "target_character": owner.pk}
    _write_entries(taker, plan, sign=-1, actor=actor, game_session=game_session, use=AtoutUse.TAKE_REVERS,
                   justification=justification.strip(), context=context)  # fmt: skip
    revers.character = taker
    revers.payload = {**revers.payload, "taken_from": owner.name}
    revers.save(update_fields=["character", "payload"])
    active = list(Revers.objects.filter(character=taker, severity__gt=0).values_list("severity", flat=True))
    threshold = taker.out_after_revers if taker.kind == CharacterKind.NPC else None
    _bump(owner)
    _bump(taker, "atouts_creation", "atouts_experience")
    _append(
        taker,
        "character.revers_taken",
        actor,
        {"revers_id": revers.pk, "from": owner.name, "from_id": owner.pk, "domain": revers.domain,
         "domain_name": revers.domain_name, "severity": revers.severity, "amount": revers.severity,
         "justification": justification.strip(), "balance": taker.atout_balance,
         "out_of_action": out_of_action(active, npc_threshold=threshold)},
    )  # fmt: skip
    return revers
